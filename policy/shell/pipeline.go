package shell

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// pipeline judges each stage, then what flows between them.
func (s *scope) pipeline(b *syntax.BinaryCmd, c ctx) stage {
	var stmts []*syntax.Stmt
	var flat func(x *syntax.Stmt)
	flat = func(x *syntax.Stmt) {
		if bc, ok := x.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) &&
			len(x.Redirs) == 0 && !x.Background && !x.Negated {
			flat(bc.X)
			flat(bc.Y)
			return
		}
		stmts = append(stmts, x)
	}
	flat(b.X)
	flat(b.Y)
	c.spawn, c.cond = true, true
	stages := make([]stage, len(stmts))
	var up flags
	for i, x := range stmts {
		c.up = up
		stages[i] = s.stmt(x, c)
		up |= stages[i].out
	}
	up = 0
	for i, st := range stages {
		if i > 0 && st.in&fStdinCode != 0 {
			feed := stage{out: up}
			if i == 1 {
				feed.text, feed.hasText = stages[0].text, stages[0].hasText
			}
			s.fed(feed, st)
		}
		if st.in&fStdinCode != 0 && slices.ContainsFunc(stages[i+1:], func(l stage) bool { return l.in&fNetSink != 0 }) {
			s.find(Deny, ReverseShell, st.argv, inv{}, "output of "+st.runner+" is piped to a network connection")
		}
		up |= st.out
	}
	return stage{in: stages[0].in, out: up, runner: stages[0].runner, argv: stages[0].argv}
}

// fed judges text reaching a command that executes its stdin.
func (s *scope) fed(feed, to stage) {
	who := to.runner
	switch {
	case feed.out&fDownload != 0:
		s.find(Deny, RemoteCodeExec, to.argv, inv{}, "downloaded content is executed by "+who)
	case feed.out&fNetwork != 0:
		s.find(Deny, RemoteCodeExec, to.argv, inv{}, "network input is executed by "+who)
	case feed.out&fDecode != 0:
		s.find(Deny, EvalInjection, to.argv, inv{}, "decoded text is executed by "+who)
	case feed.out&fDynamic != 0:
		s.find(Deny, EvalInjection, to.argv, inv{}, "text built from expansions is executed by "+who)
	case feed.hasText && to.in&fStdinShell != 0:
		s.a.child(feed.text, "text piped into "+who, ctx{})
	default:
		s.find(Ask, OpaqueCode, to.argv, inv{}, who+" runs code read from stdin that cannot be analysed")
	}
}

// stdinRedirect judges a heredoc, here-string or file feeding a command
// that executes its stdin; that stdin then no longer comes from a pipe.
func (s *scope) stdinRedirect(st stage, r redirs) stage {
	if r.stdin == nil || st.in&fStdinCode == 0 {
		return st
	}
	t, in := r.stdinText, inv{}
	switch r.stdin.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		if st.in&fStdinShell != 0 {
			s.code(t, st.runner+" heredoc", false, st.argv, in)
		} else {
			s.inline(t, st.runner+" heredoc", st.argv, in)
		}
	case syntax.RdrIn:
		if !s.script(t, st.runner, st.in&fStdinShell != 0, false, st.argv, in) && (st.runner == "source" || st.runner == ".") {
			s.find(Ask, OpaqueCode, st.argv, in, st.runner+" runs "+t.s+" in this shell; its content is not analysed")
		}
	default:
		s.find(Ask, OpaqueCode, st.argv, in, st.runner+" reads code from a file descriptor")
	}
	st.in &^= fStdinCode | fStdinShell
	return st
}
