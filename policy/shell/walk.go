package shell

import (
	"fmt"
	"slices"

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

// absorb adds what a nested script does with the stdin it inherits.
func (a *stage) absorb(b stage) {
	a.in |= b.in
	if a.runner == "" {
		a.runner, a.argv = b.runner, b.argv
	}
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
				for _, f := range s.fields(w, c) {
					s.taint(wi.Name.Value, f.sub)
				}
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
