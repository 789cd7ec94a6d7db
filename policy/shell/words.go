package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// field is one argument after quote removal, brace expansion and static
// variable resolution: what the program would find in its argv.
type field struct {
	s       string       // normalised text; unknown parts are placeholders ($X, $(…))
	known   bool         // s is exactly the run-time value
	literal bool         // written literally, with no expansion at all
	glob    bool         // contains unquoted glob characters
	operand bool         // supplied by xargs from stdin: never an option
	partial bool         // the analyser gave up expanding it (budget, huge brace expansion)
	sub     flags        // what substitutions inside the word produce
	word    *syntax.Word // source, to re-render code strings that are not known
}

func texts(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.s
	}
	return out
}

func lit(s string) field { return field{s: s, known: true, literal: true} }

// joinFields joins words the way a shell joins "$*" or `eval a b`.
func joinFields(fs []field) field {
	j := field{s: strings.Join(texts(fs), " "), known: true, literal: true}
	for _, f := range fs {
		j.known = j.known && f.known
		j.literal = j.literal && f.literal
		j.partial = j.partial || f.partial
		j.sub |= f.sub
	}
	return j
}

// maxBraceWords bounds brace expansion ({1..1000000} must not allocate).
const maxBraceWords = 64

// fields expands one word: substitutions are analysed (once), then braces
// are expanded and each result is rendered.
func (s *scope) fields(w *syntax.Word, c ctx) []field {
	if len(w.Parts) == 1 { // fast path for the common plain word
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "{\\*?[") {
			return []field{{s: l.Value, known: true, literal: true, word: w}}
		}
	}
	sub := s.substs(w, c)
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return s.expand(w, sub, false)
	}
	var out []field
	n := 0
	for bw, err := range expand.BracesSeq(nil, cp) {
		// Each expanded word costs several steps: expansion allocates a lot.
		if err != nil || n == maxBraceWords || !s.a.spend(8) {
			out = append(out, field{s: "{…}", sub: sub, word: w, partial: true})
			s.find(Ask, Unanalysable, nil, inv{}, "brace expansion too large to analyse")
			break
		}
		n++
		if len(bw.Parts) > 0 {
			out = append(out, s.expand(bw, sub, false)...)
		}
	}
	return out
}

// one renders a word that is never split (assignment values, redirect targets).
func (s *scope) one(w *syntax.Word, c ctx) field {
	if w == nil {
		return lit("")
	}
	fs := s.expand(w, s.substs(w, c), true)
	if len(fs) == 1 {
		return fs[0]
	}
	return joinFields(fs)
}

type seg struct {
	text  string
	split bool // unquoted variable value: subject to field splitting
}

// expand renders a brace-free word into fields; whole forbids splitting.
func (s *scope) expand(w *syntax.Word, sub flags, whole bool) []field {
	f := field{known: true, literal: true, sub: sub, word: w}
	var segs []seg
	for _, p := range w.Parts {
		segs = s.part(p, false, false, &f, segs)
	}
	if whole || !slices.ContainsFunc(segs, func(g seg) bool { return g.split }) {
		var b strings.Builder
		for _, g := range segs {
			b.WriteString(g.text)
		}
		f.s = b.String()
		return []field{f}
	}
	var out []field
	var cur strings.Builder
	started := false
	for _, g := range segs {
		if !g.split {
			cur.WriteString(g.text)
			started = true
			continue
		}
		for _, r := range g.text {
			if r == ' ' || r == '\t' || r == '\n' {
				if started {
					out = append(out, withText(f, cur.String()))
				}
				cur.Reset()
				started = false
				continue
			}
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		out = append(out, withText(f, cur.String()))
	}
	return out
}

func withText(f field, s string) field { f.s = s; return f }

// part renders one word part. quoted: inside double quotes; hdoc: heredoc body.
func (s *scope) part(p syntax.WordPart, quoted, hdoc bool, f *field, segs []seg) []seg {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if quoted || hdoc {
			v = unescapeQuoted(v, hdoc)
		} else {
			var glob bool
			v, glob = unescapeBare(v)
			f.glob = f.glob || glob
		}
		return append(segs, seg{text: v})
	case *syntax.SglQuoted:
		if p.Dollar {
			return append(segs, seg{text: ansiC(p.Value)})
		}
		return append(segs, seg{text: p.Value})
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			segs = s.part(q, true, false, f, segs)
		}
		// "" is an empty word, not nothing.
		return append(segs, seg{})
	case *syntax.ParamExp:
		f.literal = false
		if v, ok := s.resolve(p); ok {
			return append(segs, seg{text: v, split: !quoted && !hdoc})
		}
		f.known = false
		if p.Param != nil {
			f.sub |= s.taints[p.Param.Value]
		}
		return append(segs, seg{text: s.a.printNode(p)})
	case *syntax.CmdSubst:
		f.literal = false
		if name, ok := whichSubst(p); ok {
			return append(segs, seg{text: name})
		}
		f.known = false
		return append(segs, seg{text: "$(…)"})
	case *syntax.ArithmExp:
		f.literal, f.known = false, false
		return append(segs, seg{text: "$((…))"})
	case *syntax.ProcSubst:
		f.literal, f.known = false, false
		return append(segs, seg{text: p.Op.String() + "…)"})
	case *syntax.ExtGlob:
		f.glob = true
		return append(segs, seg{text: p.Op.String() + p.Pattern.Value + ")"})
	}
	f.literal, f.known = false, false
	return append(segs, seg{text: "…"})
}
