package podman

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/runner"
)

// killGrace is how long past a command's timeout the host waits for the
// runner's answer before it kills the whole container: the runner kills
// the command itself, this is the backstop when the runner cannot.
const killGrace = 5 * time.Second

// Run implements sandbox.Runner: it runs req in the container of
// (req.Key, req.Workspace, req.Network), creating it on first use. Errors
// that mean the sandbox cannot run anything wrap sandbox.ErrUnavailable.
func (m *Manager) Run(ctx context.Context, req sandbox.Request) (sandbox.Result, error) {
	if req.Script == "" && (len(req.Argv) == 0 || req.Argv[0] == "") {
		return sandbox.Result{}, errors.New("sandbox run: empty command")
	}
	k, err := boxKeyFor(req)
	if err != nil {
		return sandbox.Result{}, err
	}
	dir, err := containerDir(k.workspace, req.Dir)
	if err != nil {
		return sandbox.Result{}, err
	}
	for attempt := 0; ; attempt++ {
		b, err := m.acquire(ctx, k)
		if err != nil {
			return sandbox.Result{}, err
		}
		res, err := m.exec(ctx, b, req, dir)
		m.release(b)
		// The container died between commands (removed by hand, OOM):
		// make a new one, once.
		if errors.Is(err, runner.ErrNoRunner) && attempt == 0 && ctx.Err() == nil {
			m.discard(ctx, b, "runner gone")
			continue
		}
		return res, err
	}
}

func (m *Manager) exec(ctx context.Context, b *box, req sandbox.Request, dir string) (sandbox.Result, error) {
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = m.opts.Timeout
	}
	limit := req.MaxOutput
	if limit <= 0 {
		limit = sandbox.DefaultMaxOutput
	}
	// The host caps output again: the runner lives inside the sandbox and
	// is trusted no further than the commands it runs.
	stdout, stderr := sandbox.NewOutputBuffer(limit), sandbox.NewOutputBuffer(limit)
	ereq := runner.ExecRequest{Argv: req.Argv, Script: req.Script, Workspace: workspaceDir, Dir: dir, Env: m.environ(req.Env),
		TimeoutMS: timeout.Milliseconds(), MaxOutput: limit}
	hctx, cancel := context.WithTimeout(ctx, timeout+killGrace)
	defer cancel()
	start := time.Now()
	exit, err := b.client.Exec(hctx, ereq, stdout, stderr)
	res := sandbox.Result{
		Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start), Where: b.where(),
		ExitCode: exit.Code, TimedOut: exit.TimedOut, Truncated: exit.Truncated || stdout.Truncated() || stderr.Truncated(),
		Refused: exit.Refused,
	}
	switch {
	case err == nil:
	case errors.Is(err, runner.ErrNoRunner):
		return res, err
	case ctx.Err() != nil:
		// Hanging up made the runner kill the command's group.
		return res, ctx.Err()
	case hctx.Err() != nil:
		m.discard(ctx, b, "runner did not answer after the command's timeout")
		res.TimedOut, res.ExitCode = true, -1
		return res, nil
	default:
		// Broken mid-command: it may have had effects, so no host fallback.
		m.discard(ctx, b, err.Error())
		return res, fmt.Errorf("sandbox exec in %s: %w", b.where(), err)
	}
	if exit.Error != "" {
		what := "script"
		if len(req.Argv) > 0 {
			what = req.Argv[0]
		}
		return res, fmt.Errorf("run %s in sandbox: %s", what, exit.Error)
	}
	if b.warned.CompareAndSwap(false, true) {
		res.Warnings = b.warnings // once per container: they do not change
	}
	return res, nil
}

// environ is the command's whole environment: none of the host's leaks in.
func (m *Manager) environ(extra map[string]string) []string {
	base := map[string]string{"PATH": defaultPath, "HOME": "/tmp", "LANG": "C.UTF-8"}
	return sandbox.Environ(base, m.opts.Inject, extra)
}

func boxKeyFor(req sandbox.Request) (boxKey, error) {
	k := boxKey{key: req.Key, network: req.Network}
	if k.key == "" {
		k.key = "default"
	}
	if req.Workspace != "" {
		ws, err := filepath.Abs(req.Workspace)
		if err != nil {
			return k, err
		}
		fi, err := os.Stat(ws)
		if err != nil {
			return k, fmt.Errorf("sandbox workspace: %w", err)
		}
		if !fi.IsDir() {
			return k, fmt.Errorf("sandbox workspace %s is not a directory", ws)
		}
		k.workspace = ws
	}
	return k, nil
}

// containerDir maps a request's Dir into the container: relative to
// /workspace, a host path under the workspace, or a path already under
// /workspace. Anything else is refused rather than silently moved.
func containerDir(workspace, dir string) (string, error) {
	switch {
	case dir == "":
		return workspaceDir, nil
	case !filepath.IsAbs(dir):
		p := path.Join(workspaceDir, filepath.ToSlash(dir))
		if !underWorkspace(p) {
			return "", fmt.Errorf("working directory %q leaves the workspace", dir)
		}
		return p, nil
	}
	if workspace != "" {
		if rel, err := filepath.Rel(workspace, filepath.Clean(dir)); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return path.Join(workspaceDir, filepath.ToSlash(rel)), nil
		}
	}
	if p := path.Clean(filepath.ToSlash(dir)); underWorkspace(p) {
		return p, nil
	}
	return "", fmt.Errorf("working directory %s is outside the sandbox workspace %s", dir, workspace)
}

func underWorkspace(p string) bool { return within(workspaceDir, p) }
