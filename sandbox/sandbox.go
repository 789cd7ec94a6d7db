// Package sandbox is where agent commands run: on the host or, in a later
// issue, in rootless Podman containers, behind one small interface.
package sandbox

import (
	"context"
	"time"
)

// Request is one command to run.
type Request struct {
	// Argv is the program and its arguments; no shell is involved unless
	// Argv starts one.
	Argv []string
	// Dir is the working directory.
	Dir string
	// Env holds extra variables added to the allowlisted environment.
	Env map[string]string
	// Timeout bounds the run; zero means the runner's default.
	Timeout time.Duration
	// MaxOutput caps stdout and stderr each; zero means DefaultMaxOutput.
	MaxOutput int
}

// Result is what a command did.
type Result struct {
	Stdout, Stderr string
	ExitCode       int
	// Truncated is true when output went past MaxOutput.
	Truncated bool
	TimedOut  bool
	Duration  time.Duration
	// Where names where it ran: "host" or a container id.
	Where string
}

// Runner runs commands somewhere.
type Runner interface {
	Run(ctx context.Context, req Request) (Result, error)
	// Name says where commands run, for results and the UI.
	Name() string
}

// DefaultMaxOutput is the per-stream output cap (1 MB).
const DefaultMaxOutput = 1 << 20
