package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"time"

	"github.com/warren-dev/warren/sandbox/script"
)

// AllowedEnv are the parent variables a host command inherits; everything
// else (API keys in the user's shell, for a start) stays out.
var AllowedEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER", "LOGNAME", "SYSTEMROOT", "COMSPEC", "PATHEXT"}

// Host runs commands directly on this machine in their own process group.
type Host struct {
	// Inject adds configured variables to every command.
	Inject map[string]string
	// LookupEnv reads the parent environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// Name implements Runner.
func (h *Host) Name() string { return "host" }

// Environ returns the allowlisted environment plus injected and per-request
// variables, sorted for reproducibility.
func (h *Host) Environ(extra map[string]string) []string {
	lookup := h.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	base := map[string]string{}
	for _, k := range AllowedEnv {
		if v, ok := lookup(k); ok {
			base[k] = v
		}
	}
	return Environ(base, h.Inject, extra)
}

// Environ merges variable layers (later ones win) into a sorted KEY=VALUE
// list; host and sandbox runners both build commands' environments with it.
func Environ(layers ...map[string]string) []string {
	vars := map[string]string{}
	for _, layer := range layers {
		for k, v := range layer {
			vars[k] = v
		}
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Run implements Runner.
func (h *Host) Run(ctx context.Context, req Request) (Result, error) {
	if req.Script == "" && (len(req.Argv) == 0 || req.Argv[0] == "") {
		return Result{}, errors.New("host run: empty command")
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultHostTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if req.Script != "" {
		return h.runScript(ctx, req)
	}
	cmd := exec.CommandContext(ctx, req.Argv[0], req.Argv[1:]...)
	cmd.Dir = req.Dir
	cmd.Env = h.Environ(req.Env)
	stdout, stderr := NewOutputBuffer(req.MaxOutput), NewOutputBuffer(req.MaxOutput)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	setProcessGroup(cmd)
	start := time.Now()
	err := cmd.Run()
	res := Result{
		Stdout: stdout.String(), Stderr: stderr.String(),
		Truncated: stdout.Truncated() || stderr.Truncated(), Duration: time.Since(start), Where: "host",
		TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded),
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	case res.TimedOut:
		res.ExitCode = -1
	default:
		return res, fmt.Errorf("run %s: %w", req.Argv[0], err)
	}
	return res, nil
}

// runScript runs req.Script with Warren's interpreter, req.Guard judging
// every command and redirection; programs still running when the script
// ends (background ones) are killed with it.
func (h *Host) runScript(ctx context.Context, req Request) (Result, error) {
	if req.Guard == nil {
		return Result{}, errors.New("host run: a script needs a guard")
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdout, stderr := NewOutputBuffer(req.MaxOutput), NewOutputBuffer(req.MaxOutput)
	start := time.Now()
	code, err := script.Run(sctx, script.Options{
		Script: req.Script, Dir: req.Dir, Env: h.Environ(req.Env), Stdout: stdout, Stderr: stderr, Guard: req.Guard,
	})
	res := Result{
		Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: code,
		Truncated: stdout.Truncated() || stderr.Truncated(), Duration: time.Since(start), Where: "host",
		TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded),
	}
	var refused *script.Refused
	switch {
	case errors.As(err, &refused):
		res.Refused = refused.Error()
	case res.TimedOut:
		res.ExitCode = -1
	case err != nil && ctx.Err() != nil:
		return res, ctx.Err()
	case err != nil:
		res.Stderr += err.Error() + "\n"
	}
	return res, nil
}
