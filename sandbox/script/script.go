// Package script runs agent shell scripts with Warren's own interpreter
// (mvdan.cc/sh/v3/interp): the same syntax tree the policy's static
// analysis parsed, executed command by command. Before any program starts
// and any file a redirection or `source` names is opened, a Guard judges
// it with the words the program really gets: variables, command
// substitutions, globs, eval, functions and sourced files are expanded by
// then. Scripts run through a shell (`sh -c`, `bash FILE`, `./x.sh`, text
// piped into sh) run in this interpreter too, never in the system shell.
//
// It runs on the host (sandbox.Host) and inside sandbox containers (the
// warren-runner), so both judge the same way.
package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/warren-dev/warren/policy/guard"
)

// Guard decides on each program and open; a non-nil error refuses it and
// stops the script.
type Guard interface {
	Exec(ctx context.Context, e Exec) error
	// Open is called before a redirection or source opens path (relative
	// to dir); flag holds os.O_* bits.
	Open(ctx context.Context, dir, path string, flag int) error
}

// SourceGuard is a Guard that also reads a script a shell is about to run
// (`sh FILE`, `sh -c TEXT`, text on sh's stdin) before any of it runs.
type SourceGuard interface {
	Source(ctx context.Context, name string, src []byte) error
}

// Exec is one program about to start.
type Exec struct {
	// Argv is what the program receives.
	Argv []string
	// Path is the executable found on PATH (or the path given).
	Path string
	// Dir is the working directory.
	Dir string
	// Changed holds the exported variables the script set or changed
	// (prefix assignments included), against the environment it started with.
	Changed map[string]string
	// Redirects names the files on the program's stdin, stdout and stderr
	// that a redirection opened ("" for pipes and the script's own streams).
	Redirects [3]string
}

// Refused is the error a script stops with when the guard refuses.
type Refused struct {
	// What was refused: the command line or the file.
	What   string
	Reason string
}

func (r *Refused) Error() string { return "refused " + r.What + ": " + r.Reason }

// Options configure one run.
type Options struct {
	Script string
	Dir    string
	// Env is the whole environment (KEY=value); nothing else is inherited.
	Env            []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Guard          Guard
}

// maxDepth bounds shells started from shells.
const maxDepth = 16

// maxStdinScript bounds a script a shell reads from its stdin.
const maxStdinScript = 4 << 20

// Run parses and runs o.Script. It returns the exit status (2 for a
// syntax error, which runs nothing); err is a *Refused when the guard
// stopped the script, or ctx's error.
func Run(ctx context.Context, o Options) (int, error) {
	if o.Guard == nil {
		return 126, errors.New("script: no guard")
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(o.Script), "")
	if err != nil {
		// As a shell does: nothing runs, the error goes to stderr, exit 2.
		if o.Stderr != nil {
			fmt.Fprintf(o.Stderr, "syntax error: %v\n", err)
		}
		return 2, nil
	}
	stdin := o.Stdin
	if stdin == nil {
		f, err := os.Open(os.DevNull)
		if err != nil {
			return 126, err
		}
		defer func() { _ = f.Close() }()
		stdin = f
	}
	s := &session{guard: o.Guard, base: envMap(o.Env)}
	// Background jobs (cmd &) are goroutines the interpreter does not wait
	// for: when the script ends they are cancelled (their programs killed)
	// and waited for, so nothing starts after Run returns.
	sctx, cancel := context.WithCancel(ctx)
	code, err := s.run(sctx, file, runIn{dir: o.Dir, env: o.Env, stdin: stdin, stdout: o.Stdout, stderr: o.Stderr})
	cancel()
	s.end()
	return code, err
}

// session is one Run: the guard, the starting environment and the first
// refusal, shared by nested shells.
type session struct {
	guard Guard
	base  map[string]string

	mu      sync.Mutex
	refused *Refused
	ended   bool
	// active counts exec and open calls in flight (background jobs'
	// included); end waits for them.
	active sync.WaitGroup
}

// enter registers a handler call; false once the session ended.
func (s *session) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.active.Add(1)
	return true
}

// end refuses new handler calls and waits for those in flight.
func (s *session) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.active.Wait()
}

type runIn struct {
	dir            string
	env            []string
	params         []string
	stdin          io.Reader
	stdout, stderr io.Writer
	depth          int
}

func (s *session) run(ctx context.Context, file *syntax.File, in runIn) (int, error) {
	if in.depth > maxDepth {
		return 126, &Refused{What: "shell", Reason: fmt.Sprintf("shells nested more than %d deep", maxDepth)}
	}
	if err := s.judgeFifos(ctx, file, in); err != nil {
		fmt.Fprintf(in.stderr, "warren: refused: %v\n", err)
		return 126, s.refuse(&Refused{What: "process substitution", Reason: err.Error()})
	}
	opts := []interp.RunnerOption{
		interp.Dir(in.dir),
		interp.Env(expand.ListEnviron(in.env...)),
		interp.StdIO(in.stdin, in.stdout, in.stderr),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			return func(ctx context.Context, args []string) error { return s.exec(ctx, args, in.depth) }
		}),
		interp.OpenHandler(s.open),
		interp.CallHandler(s.call),
	}
	if len(in.params) > 0 {
		opts = append(opts, interp.Params(in.params...))
	}
	r, err := interp.New(opts...)
	if err != nil {
		return 126, err
	}
	err = r.Run(ctx, file)
	if ref := s.firstRefusal(); ref != nil {
		return 126, ref
	}
	if err == nil {
		return 0, nil
	}
	var st interp.ExitStatus
	if errors.As(err, &st) {
		return int(st), nil
	}
	if ctx.Err() != nil {
		return -1, ctx.Err()
	}
	return 1, err
}

func (s *session) refuse(r *Refused) error {
	s.mu.Lock()
	if s.refused == nil {
		s.refused = r
	}
	s.mu.Unlock()
	return r
}

func (s *session) firstRefusal() *Refused {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// call runs before every simple command, builtins included: once
// something was refused, nothing else runs.
func (s *session) call(ctx context.Context, args []string) ([]string, error) {
	if r := s.firstRefusal(); r != nil {
		return nil, r
	}
	if (args[0] == "source" || args[0] == ".") && len(args) > 1 {
		// The interpreter runs a sourced file itself: read it whole first,
		// as a shell's script is (see nestedSource).
		if sg, ok := s.guard.(SourceGuard); ok {
			hc := interp.HandlerCtx(ctx)
			p := args[1]
			if !filepath.IsAbs(p) {
				p = filepath.Join(hc.Dir, p)
			}
			if src, err := os.ReadFile(p); err == nil { //nolint:gosec // read to be judged; opening it is judged by open
				if err := sg.Source(ctx, args[1], src); err != nil {
					fmt.Fprintf(hc.Stderr, "warren: refused to source %s: %v\n", args[1], err)
					return nil, s.refuse(&Refused{What: args[1], Reason: err.Error()})
				}
			}
		}
	}
	return args, nil
}

func (s *session) open(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if !s.enter() {
		return nil, &os.PathError{Op: "open", Path: path, Err: context.Canceled}
	}
	defer s.active.Done()
	hc := interp.HandlerCtx(ctx)
	if r := s.firstRefusal(); r != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: r}
	}
	if err := s.guard.Open(ctx, hc.Dir, path, flag); err != nil {
		what := path
		if !filepath.IsAbs(what) {
			what = filepath.Join(hc.Dir, what)
		}
		fmt.Fprintf(hc.Stderr, "warren: refused to open %s: %v\n", what, err)
		// A *PathError fails just this command (a fatal handler error can
		// trip the interpreter's exit bookkeeping); call and exec stop the
		// script at the next command.
		return nil, &os.PathError{Op: "open", Path: what, Err: s.refuse(&Refused{What: what, Reason: err.Error()})}
	}
	return interp.DefaultOpenHandler()(ctx, path, flag, perm)
}

// exec starts one program, or runs a shell's script in this interpreter.
func (s *session) exec(ctx context.Context, args []string, depth int) error {
	if !s.enter() {
		return context.Canceled // the script has ended: a late background job
	}
	defer s.active.Done()
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.execIn(ctx, interp.HandlerCtx(ctx), args, depth)
}

// execIn is exec with its streams, folder and environment given (xargs
// runs its commands with another stdin).
func (s *session) execIn(ctx context.Context, hc interp.HandlerContext, args []string, depth int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r := s.firstRefusal(); r != nil {
		return r
	}
	if xa, ok := isXargs(args); ok {
		return s.xargs(ctx, hc, xa, depth)
	}
	if isShell(args[0]) {
		return s.nestedShell(ctx, hc, args, depth)
	}
	path, err := interp.LookPathDir(hc.Dir, hc.Env, args[0])
	if err != nil {
		fmt.Fprintf(hc.Stderr, "%s: command not found\n", args[0])
		return interp.ExitStatus(127)
	}
	if sh, ok := shellScript(path); ok {
		// A script for a shell (#!/bin/sh, #!/usr/bin/env bash, or no #!
		// line at all): its commands are judged one by one here.
		return s.shellFile(ctx, hc, path, sh, args[1:], depth)
	}
	env := environ(hc.Env)
	e := Exec{Argv: args, Path: path, Dir: hc.Dir, Changed: changed(s.base, env), Redirects: redirects(hc)}
	if err := s.guard.Exec(ctx, e); err != nil {
		fmt.Fprintf(hc.Stderr, "warren: refused to run %s: %v\n", args[0], err)
		return s.refuse(&Refused{What: guard.QuoteArgv(args), Reason: err.Error()})
	}
	return startProgram(ctx, hc, path, args, env)
}

// startProgram runs path in its own process group; cancelling ctx kills
// the group.
func startProgram(ctx context.Context, hc interp.HandlerContext, path string, args, env []string) error {
	cmd := exec.Command(path) //nolint:gosec,noctx // judged by the guard; killed through its process group below
	cmd.Args, cmd.Env, cmd.Dir = args, env, hc.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = hc.Stdin, hc.Stdout, hc.Stderr
	cmd.WaitDelay = 2 * time.Second
	setGroup(cmd)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", args[0], err)
		return interp.ExitStatus(126)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			killGroup(cmd)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &ee):
		if sig, ok := signaled(ee); ok {
			return interp.ExitStatus(128 + sig)
		}
		if code := ee.ExitCode(); code > 0 {
			return interp.ExitStatus(uint8(code)) //nolint:gosec // exit codes are 0-255
		}
		return interp.ExitStatus(1)
	case errors.Is(err, exec.ErrWaitDelay):
		return nil // it exited; a child kept its output open
	}
	fmt.Fprintf(hc.Stderr, "%s: %v\n", args[0], err)
	return interp.ExitStatus(1)
}

// environ is the exported part of the interpreter's environment, as a
// program gets it.
func environ(env expand.Environ) []string {
	vars := map[string]string{}
	var order []string
	for name, vr := range env.Each {
		if !vr.IsSet() {
			delete(vars, name)
			continue
		}
		if vr.Exported && vr.Kind == expand.String {
			if _, seen := vars[name]; !seen {
				order = append(order, name)
			}
			vars[name] = vr.String()
		}
	}
	out := make([]string, 0, len(vars))
	for _, k := range order {
		if v, ok := vars[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// changed lists variables of env that base lacks or has with another value.
func changed(base map[string]string, env []string) map[string]string {
	var out map[string]string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if old, ok := base[k]; !ok || old != v {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

func redirects(hc interp.HandlerContext) [3]string {
	var out [3]string
	for i, s := range []any{hc.Stdin, hc.Stdout, hc.Stderr} {
		if f, ok := s.(*os.File); ok && f != nil && filepath.IsAbs(f.Name()) && f.Name() != os.DevNull &&
			!strings.HasPrefix(f.Name(), "/dev/std") {
			out[i] = f.Name()
		}
	}
	return out
}

// readAll reads r up to max bytes, failing past it.
func readAll(r io.Reader, max int64) ([]byte, error) {
	if r == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("script on stdin is larger than %d bytes", max)
	}
	return buf.Bytes(), nil
}

// judgeFifos: process substitution (<(…), >(…)) makes a FIFO in $TMPDIR,
// which the interpreter opens itself, past the open handler; a script
// may point TMPDIR anywhere before starting a shell. The folder is judged
// as a write there.
func (s *session) judgeFifos(ctx context.Context, file *syntax.File, in runIn) error {
	found := false
	syntax.Walk(file, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.ProcSubst); ok {
			found = true
		}
		return !found
	})
	if !found {
		return nil
	}
	tmp := os.TempDir()
	if d := envMap(in.env)["TMPDIR"]; filepath.IsAbs(d) {
		tmp = filepath.Clean(d)
	}
	return s.guard.Open(ctx, in.dir, filepath.Join(tmp, "sh-interp-fifo"), os.O_WRONLY|os.O_CREATE)
}
