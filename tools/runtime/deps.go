// Package runtime holds the tools that run programs: exec (shell commands,
// analysed before they run), process (background commands) and custom tools.
package runtime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
)

const group = "runtime"

// Approver settles approval requests (the approvals service).
type Approver interface {
	Decide(ctx context.Context, req approvals.Request) (approvals.Outcome, error)
}

// RunnerFor picks where a call's commands run; want is the per-call
// override ("podman", "host" or "" for the configured default).
type RunnerFor func(ctx context.Context, want string) (sandbox.Runner, error)

// Deps is what the runtime tools need.
type Deps struct {
	// Workspace is used when the call context carries none.
	Workspace string
	Runner    RunnerFor
	Approvals Approver
	// Processes tracks background commands; nil makes a private table.
	Processes *Processes
	// DataDir is Warren's data directory: commands run on the host may not
	// touch it.
	DataDir string
}

// Tools builds exec and process.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Runner == nil || d.Approvals == nil {
		return nil, errors.New("runtime tools: Runner and Approvals are required")
	}
	if d.Processes == nil {
		d.Processes = NewProcesses()
	}
	ex, err := newExec(d)
	if err != nil {
		return nil, err
	}
	pr, err := newProcess(d)
	if err != nil {
		return nil, err
	}
	return []tools.Tool{ex, pr}, nil
}

// workdir resolves the cwd argument inside the call's workspace with the
// same rules as the file tools (no escapes, no symlinks out).
func workdir(ctx context.Context, fallback, cwd string) (ws, dir string, res *tools.Result) {
	ws = tools.WorkspaceFrom(ctx)
	if ws == "" {
		ws = fallback
	}
	if ws == "" {
		r := tools.Errorf(tools.CodeNotFound, "no workspace is configured for this agent")
		return "", "", &r
	}
	if cwd == "" {
		cwd = "."
	}
	resolver, err := paths.New(paths.Config{Workspace: ws})
	if err != nil {
		r := tools.Errorf(tools.CodeIO, "workspace %s: %v", ws, err)
		return "", "", &r
	}
	resolved, err := resolver.ResolveDir(ws, cwd)
	if err != nil {
		r := tools.Errorf(tools.CodeSecurity, "cwd %q: %v", cwd, err)
		return "", "", &r
	}
	return ws, filepath.Clean(resolved.Real), nil
}

func sandboxError(err error) tools.Result {
	if errors.Is(err, sandbox.ErrUnavailable) {
		return tools.Errorf(tools.CodeExecution, "%v. Start Podman (`warren sandbox doctor` says what is missing) or set the sandbox fallback to host", err)
	}
	return tools.Errorf(tools.CodeExecution, "%v", err)
}

func fmtWhere(res sandbox.Result) string {
	s := res.Where
	if res.Fallback {
		s += " (FALLBACK: not sandboxed)"
	}
	return fmt.Sprintf("ran in: %s", s)
}
