package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// flags describe what a command does with its standard streams, so that
// pipelines can be judged as a whole (curl … | sh).
type flags uint16

const (
	fDownload   flags = 1 << iota // writes content fetched by a downloader
	fNetwork                      // writes raw network input (nc, socat, telnet)
	fDecode                       // writes decoded or unescaped text (base64 -d, printf '\x..')
	fDynamic                      // writes text built from unknown expansions (echo $X)
	fStdinCode                    // executes code read from stdin
	fStdinShell                   // that code is shell, so known text can be analysed
	fNetSink                      // sends its stdin to a network peer
	fSinkCode                     // a >(…) that executes what is written to it
)

// taint is what flows through a pipeline from producers to consumers.
const taint = fDownload | fNetwork | fDecode | fDynamic

// stage summarises a command, list or pipeline stage for pipeline checks.
type stage struct {
	in, out flags
	text    string   // exact stdout, when known (echo 'ls')
	hasText bool     // text is valid
	runner  string   // the command that executes stdin, for reasons
	argv    []string // its argv, for findings
}

func (a stage) then(b stage) stage {
	r := stage{in: a.in | b.in, out: a.out | b.out, runner: a.runner, argv: a.argv}
	if r.runner == "" {
		r.runner, r.argv = b.runner, b.argv
	}
	return r
}

func (s *scope) list(stmts []*syntax.Stmt, c ctx) stage {
	if len(stmts) == 1 {
		return s.stmt(stmts[0], c)
	}
	var st stage
	for _, x := range stmts {
		st = st.then(s.stmt(x, c))
	}
	return st
}

func (s *scope) stmt(x *syntax.Stmt, c ctx) stage {
	if x == nil || !s.a.step() {
		return stage{}
	}
	if x.Background || x.Coprocess || x.Disown {
		c.spawn, c.cond = true, true
	}
	r := s.redirects(x.Redirs, c)
	var st stage
	switch cmd := x.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		st = s.call(cmd, r, c)
	case *syntax.BinaryCmd:
		if cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll {
			st = s.pipeline(cmd, c)
			break
		}
		st = s.stmt(cmd.X, c)
		c.cond = true
		st = st.then(s.stmt(cmd.Y, c))
	case *syntax.Block:
		st = s.list(cmd.Stmts, c)
	case *syntax.Subshell:
		c.cond = true
		st = s.list(cmd.Stmts, c)
	case *syntax.IfClause:
		c.cond = true
		for ic := cmd; ic != nil; ic = ic.Else {
			st = st.then(s.list(ic.Cond, c)).then(s.list(ic.Then, c))
		}
	case *syntax.WhileClause:
		c.cond = true
		st = s.list(cmd.Cond, c).then(s.list(cmd.Do, c))
	case *syntax.ForClause:
		c.cond = true
		if wi, ok := cmd.Loop.(*syntax.WordIter); ok {
			for _, w := range wi.Items {
				s.fields(w, c)
			}
		} else if cmd.Loop != nil {
			s.substs(cmd.Loop, c)
		}
		st = s.list(cmd.Do, c)
	case *syntax.CaseClause:
		s.substs(cmd.Word, c)
		c.cond = true
		for _, it := range cmd.Items {
			for _, p := range it.Patterns {
				s.substs(p, c)
			}
			st = st.then(s.list(it.Stmts, c))
		}
	case *syntax.FuncDecl:
		s.define(cmd)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		s.substs(cmd, c)
	case *syntax.DeclClause:
		s.decl(cmd, c)
	case *syntax.TimeClause:
		st = s.stmt(cmd.Stmt, c)
	case *syntax.CoprocClause:
		c.spawn, c.cond = true, true
		st = s.stmt(cmd.Stmt, c)
	case *syntax.TestDecl:
		st = s.stmt(cmd.Body, c)
	default:
		s.find(Ask, Unanalysable, nil, inv{}, fmt.Sprintf("unsupported shell construct %T", cmd))
	}
	st = s.stdinRedirect(st, r)
	if r.out != nil {
		s.wrote(*r.out, r.appendOut, st.text, st.hasText, (st.out|c.up)&taint)
	}
	if r.sink {
		s.fed(stage{out: st.out}, stage{runner: "a >(…) process substitution", in: fStdinCode})
	}
	return st
}

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
		s.script(t, st.runner, st.in&fStdinShell != 0, false, st.argv, in)
	default:
		s.find(Ask, OpaqueCode, st.argv, in, st.runner+" reads code from a file descriptor")
	}
	st.in &^= fStdinCode | fStdinShell
	return st
}

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

func (s *scope) call(ce *syntax.CallExpr, r redirs, c ctx) stage {
	for _, as := range ce.Assigns {
		s.assign(as, len(ce.Args) == 0, c)
	}
	var argv []field
	for _, w := range ce.Args {
		argv = append(argv, s.fields(w, c)...)
	}
	if len(argv) == 0 {
		return stage{}
	}
	return s.run(argv, inv{c: c, r: r})
}

// assign analyses an assignment and tracks variables with one known value.
func (s *scope) assign(as *syntax.Assign, bare bool, c ctx) {
	var v field
	if as.Value != nil {
		v = s.one(as.Value, c)
	}
	if as.Array != nil {
		s.substs(as.Array, c)
	}
	if as.Index != nil {
		s.substs(as.Index, c)
	}
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if loaderEnv(name) {
		s.find(Ask, OpaqueCode, []string{name + "=" + v.s}, inv{}, "sets "+name+", which makes programs load other code")
	}
	if !bare || as.Naked {
		return
	}
	if !c.cond && as.Value != nil && v.known && !as.Append && as.Index == nil && as.Array == nil {
		s.vars[name] = v.s
	} else {
		delete(s.vars, name)
	}
}

// loaderEnv names variables that make programs run code from elsewhere.
func loaderEnv(name string) bool {
	switch name {
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PROMPT_COMMAND", "NODE_OPTIONS", "PERL5OPT":
		return true
	}
	return false
}

func (s *scope) decl(d *syntax.DeclClause, c ctx) {
	plain := true
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if o := as.Value.Lit(); strings.HasPrefix(o, "-") || strings.HasPrefix(o, "+") {
				plain = false
				if strings.Contains(o, "n") {
					s.noResolve = true // namerefs make $X mean another variable
				}
			}
		}
	}
	if d.Variant != nil && d.Variant.Value == "nameref" {
		s.noResolve = true
	}
	for _, as := range d.Args {
		s.assign(as, plain, c)
	}
}

// define records a function; its body is judged when called (or at the end).
func (s *scope) define(fd *syntax.FuncDecl) {
	names := slices.Clone(fd.Names)
	if fd.Name != nil {
		names = append(names, fd.Name)
	}
	if len(names) == 0 { // zsh anonymous function: runs at once
		s.stmt(fd.Body, ctx{cond: true})
		return
	}
	for _, n := range names {
		if _, ok := s.funcs[n.Value]; !ok {
			s.order = append(s.order, n.Value)
		}
		s.funcs[n.Value] = &funcInfo{body: fd.Body}
	}
}
