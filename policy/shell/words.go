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
		j.sub |= f.sub
	}
	return j
}

// maxBraceWords bounds brace expansion ({1..1000000} must not allocate).
const maxBraceWords = 64

// fields expands one word: substitutions are analysed (once), then braces
// are expanded and each result is rendered.
func (s *scope) fields(w *syntax.Word, c ctx) []field {
	sub := s.substs(w, c)
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return s.expand(w, sub, false)
	}
	var out []field
	n := 0
	for bw, err := range expand.BracesSeq(nil, cp) {
		if err != nil || n == maxBraceWords {
			out = append(out, field{s: "{…}", sub: sub, word: w})
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
	cur, started := "", false
	for _, g := range segs {
		if !g.split {
			cur, started = cur+g.text, true
			continue
		}
		for _, r := range g.text {
			if r == ' ' || r == '\t' || r == '\n' {
				if started {
					out = append(out, withText(f, cur))
				}
				cur, started = "", false
				continue
			}
			cur, started = cur+string(r), true
		}
	}
	if started {
		out = append(out, withText(f, cur))
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
		return append(segs, seg{text: printNode(p)})
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

// resolve returns the value of $NAME when the script assigns it exactly once,
// to a literal, unconditionally, before this use.
func (s *scope) resolve(p *syntax.ParamExp) (string, bool) {
	if s.noResolve || p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 || p.Flags != nil ||
		p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	v, ok := s.vars[p.Param.Value]
	if !ok || s.writeCount(p.Param.Value) != 1 {
		return "", false
	}
	return v, true
}

// writeCount counts mentions of name in the source that could write it:
// name=, read name, for name, eval text, (( name++ ))… Plain reads ($name,
// ${name…}) do not count, so only a count of one is trusted.
func (s *scope) writeCount(name string) int {
	if n, ok := s.writes[name]; ok {
		return n
	}
	n := 0
	for i := 0; ; {
		j := strings.Index(s.text[i:], name)
		if j < 0 {
			break
		}
		j += i
		end := j + len(name)
		i = end
		if (j > 0 && isNameByte(s.text[j-1])) || (end < len(s.text) && isNameByte(s.text[end])) {
			continue
		}
		// Parts of paths, options and words (./x/a, -a, a.txt) are never writes.
		if (j > 0 && strings.IndexByte("/.-:@%,~^", s.text[j-1]) >= 0) ||
			(end < len(s.text) && strings.IndexByte("/.", s.text[end]) >= 0) {
			continue
		}
		pre := s.text[:j]
		if strings.HasSuffix(pre, "$") || strings.HasSuffix(pre, "${") ||
			strings.HasSuffix(pre, "${#") || strings.HasSuffix(pre, "${!") {
			continue
		}
		n++
	}
	s.writes[name] = n
	return n
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// whichSubst resolves $(which X), $(command -v X) and $(type -P X) to X:
// a common way to hide a command name that still names a known program.
func whichSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return "", false
	}
	var args []string
	for _, w := range ce.Args {
		v := w.Lit()
		if v == "" {
			return "", false
		}
		args = append(args, v)
	}
	switch {
	case len(args) == 2 && (args[0] == "which" || args[0] == "whereis"):
		return args[1], true
	case len(args) == 3 && args[0] == "command" && args[1] == "-v",
		len(args) == 3 && args[0] == "type" && (args[1] == "-P" || args[1] == "-p"):
		return args[2], true
	}
	return "", false
}

// printNode renders a node as shell source (used for placeholders and for
// re-parsing code strings that contain expansions).
func printNode(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.Minify(true)).Print(&b, n); err != nil {
		return "…"
	}
	return b.String()
}

// source renders a code word as the text the inner shell would parse, with
// unknown expansions left as shell syntax so they are analysed too.
func (s *scope) source(f field) string {
	if f.word == nil {
		return f.s
	}
	var b strings.Builder
	var walk func(parts []syntax.WordPart, quoted bool)
	walk = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				walk(p.Parts, true)
			case *syntax.Lit, *syntax.SglQuoted:
				var tmp field
				for _, g := range s.part(p, quoted, false, &tmp, nil) {
					b.WriteString(g.text)
				}
			case *syntax.ParamExp:
				if v, ok := s.resolve(p); ok {
					b.WriteString(v)
				} else {
					b.WriteString(printNode(p))
				}
			default:
				b.WriteString(printNode(p))
			}
		}
	}
	walk(f.word.Parts, false)
	return b.String()
}
