package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirs is what a statement's redirections mean for its command.
type redirs struct {
	stdin     *syntax.Redirect // last redirection of fd 0
	stdinText field            // heredoc or here-string text, or the file read
	sink      bool             // output goes into a >(…) that runs code
	out       *field           // file that stdout is written to
	appendOut bool             // … with >>
}

func (s *scope) redirects(rs []*syntax.Redirect, c ctx) redirs {
	var r redirs
	for _, rd := range rs {
		fd0 := rd.N == nil || rd.N.Value == "0"
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if t := s.heredoc(rd, c); fd0 {
				r.stdin, r.stdinText = rd, t
			}
			continue
		case syntax.WordHdoc:
			if t := s.one(rd.Word, c); fd0 {
				t.s += "\n"
				r.stdin, r.stdinText = rd, t
			}
			continue
		}
		t := s.one(rd.Word, c)
		s.redirTarget(rd.Op, t)
		switch rd.Op {
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut:
			if fd0 {
				r.stdin, r.stdinText = rd, t
			}
		}
		if rd.Op != syntax.RdrIn && rd.Op != syntax.DplIn && t.sub&fSinkCode != 0 {
			r.sink = true
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
			if rd.N == nil || rd.N.Value == "1" {
				r.out, r.appendOut = &t, rd.Op == syntax.AppOut || rd.Op == syntax.AppAll || rd.Op == syntax.AppClob || rd.Op == syntax.AppAllClob
			}
		}
	}
	return r
}

// heredoc renders a heredoc body; a quoted delimiter makes it literal.
func (s *scope) heredoc(rd *syntax.Redirect, c ctx) field {
	if rd.Hdoc == nil {
		return lit("")
	}
	f := field{known: true, literal: true, sub: s.substs(rd.Hdoc, c), word: rd.Hdoc}
	d := ""
	if rd.Word != nil {
		d = rd.Word.Lit()
	}
	raw := d == "" || strings.Contains(d, `\`)
	var segs []seg
	for _, p := range rd.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok && raw {
			segs = append(segs, seg{text: l.Value})
			continue
		}
		segs = s.part(p, false, true, &f, segs)
	}
	var b strings.Builder
	for _, g := range segs {
		b.WriteString(g.text)
	}
	f.s = b.String()
	return f
}

// substs analyses every command substitution in n (they run first) and
// reports what their output is.
func (s *scope) substs(n syntax.Node, c ctx) flags {
	var fl flags
	c.cond, c.spawn, c.up = true, false, 0
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			fl |= s.list(n.Stmts, c).out
			return false
		case *syntax.ProcSubst:
			st := s.list(n.Stmts, c)
			if n.Op == syntax.CmdOut {
				if st.in&fStdinCode != 0 {
					fl |= fSinkCode
				}
			} else {
				fl |= st.out
			}
			return false
		}
		return true
	})
	return fl
}
