package credexec

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/runtime"
)

//go:embed credentialed_exec.md
var doc string

// Deps is what credentialed_exec needs.
type Deps struct {
	Store     *Store
	Workspace string
	// Host runs the binary (credentials stay on the host).
	Host sandbox.Runner
	// LookPath resolves a program name on the trusted PATH; nil is exec.LookPath.
	LookPath func(string) (string, error)
	// Secret registers credential values with the scrubber.
	Secret func(values ...string)
}

// CredentialedExecParams are the arguments of credentialed_exec.
type CredentialedExecParams struct {
	Command string `json:"command" description:"The CLI command, e.g. \"gh issue list --repo owner/name\" (no shell operators)"`
}

// shellOps are refused outright (seed §4): the command never reaches a shell,
// and refusing them keeps the agent from thinking it can chain commands.
var shellOps = regexp.MustCompile("[;|&<>`\n]|\\$\\(|\\$\\{")

// New builds credentialed_exec.
func New(d Deps) (tools.Tool, error) {
	if d.Store == nil || d.Host == nil {
		return nil, errors.New("credentialed_exec: Store and Host are required")
	}
	if d.LookPath == nil {
		d.LookPath = exec.LookPath
	}
	return tools.New(tools.Spec{
		Name: "credentialed_exec", Group: "runtime", LongDescription: doc,
		Description: "Run a configured CLI (gh, aws, kubectl, …) with injected credentials, directly and without a shell.",
		Danger:      tools.DangerWarning,
	}, func(ctx context.Context, p CredentialedExecParams) (tools.Result, error) {
		return run(ctx, d, p.Command)
	})
}

func run(ctx context.Context, d Deps, command string) (tools.Result, error) {
	if m := shellOps.FindString(command); m != "" {
		return tools.Errorf(tools.CodeSecurity, "shell operator %q is not allowed: credentialed_exec runs one command directly, without a shell", strings.TrimSpace(m)), nil
	}
	argv, err := splitWords(command)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "%v", err), nil
	}
	name := argv[0]
	if strings.ContainsAny(name, `/\`) {
		return tools.Errorf(tools.CodeSecurity, "%q: give the bare program name (e.g. gh), not a path", name), nil
	}
	b, err := d.Store.Get(ctx, name)
	if errors.Is(err, ErrNotFound) {
		return tools.Errorf(tools.CodeNotFound, "%s is not a configured credentialed binary (configured: %s)", name, configured(ctx, d.Store)), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	if res := verifyPath(d, b); res != nil {
		return *res, nil
	}
	args := strings.Join(argv[1:], " ")
	for _, pat := range b.DenyArgs {
		if re, err := regexp.Compile(pat); err == nil && re.MatchString(args) {
			return tools.Errorf(tools.CodeSecurity, "%s %s is refused by the deny pattern %q configured for %s", name, args, pat, name), nil
		}
	}
	for _, a := range argv[1:] {
		for _, v := range b.DenyVerbose {
			if v != "" && (a == v || strings.HasPrefix(a, v)) {
				return tools.Errorf(tools.CodeSecurity, "flag %s is refused for %s: verbose output could print credentials", a, name), nil
			}
		}
	}
	if d.Secret != nil {
		vals := make([]string, 0, len(b.Env))
		for _, v := range b.Env {
			vals = append(vals, v)
		}
		d.Secret(vals...)
	}
	ws := tools.WorkspaceFrom(ctx)
	if ws == "" {
		ws = d.Workspace
	}
	res, err := d.Host.Run(ctx, sandbox.Request{
		Argv: append([]string{b.Path}, argv[1:]...), Dir: ws, Env: b.Env,
		Timeout: time.Duration(b.TimeoutSeconds) * time.Second,
	})
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "%v", err), nil
	}
	return runtime.FormatRun(res, time.Duration(b.TimeoutSeconds)*time.Second), nil
}

// verifyPath checks that the name resolves, on the trusted PATH, to the
// configured binary: a look-alike elsewhere is spoofing.
func verifyPath(d Deps, b Binary) *tools.Result {
	found, err := d.LookPath(b.Name)
	if err != nil {
		r := tools.Errorf(tools.CodeNotFound, "%s is configured at %s but not found on PATH: %v", b.Name, b.Path, err)
		return &r
	}
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r
		}
		return abs
	}
	if got, want := real(found), real(b.Path); got != want {
		r := tools.Errorf(tools.CodeSecurity, "%s resolves to %s, not the configured %s: refusing a possibly spoofed binary", b.Name, got, want)
		return &r
	}
	return nil
}

// splitWords parses a command into literal words; expansions are refused.
func splitWords(command string) ([]string, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, fmt.Errorf("cannot parse the command: %v", err)
	}
	if len(f.Stmts) != 1 {
		return nil, errors.New("give exactly one command")
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, errors.New("give one plain command with arguments (no assignments, redirections or compound commands)")
	}
	for _, w := range call.Args {
		for _, part := range w.Parts {
			switch x := part.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				for _, in := range x.Parts {
					if _, ok := in.(*syntax.Lit); !ok {
						return nil, errors.New("expansions ($VAR, $(…), globs) are not allowed")
					}
				}
			default:
				return nil, errors.New("expansions ($VAR, $(…), globs) are not allowed")
			}
		}
	}
	words, err := expand.Fields(&expand.Config{}, call.Args...)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 || words[0] == "" {
		return nil, errors.New("empty command")
	}
	return words, nil
}

func configured(ctx context.Context, s *Store) string {
	bs, err := s.List(ctx)
	if err != nil || len(bs) == 0 {
		return "none; add one with `warren credentials add`"
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
