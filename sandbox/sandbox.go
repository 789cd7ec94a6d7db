// Package sandbox is where agent commands run: on the host or in rootless
// Podman containers (sandbox/podman), behind one small interface. Router
// picks between them and applies the fallback setting when the sandbox is
// unavailable.
package sandbox

import (
	"context"
	"errors"
	"time"

	"github.com/warren-dev/warren/sandbox/script"
)

// Request is one command to run.
type Request struct {
	// Argv is the program and its arguments; no shell is involved unless
	// Argv starts one.
	Argv []string
	// Script, instead of Argv, is a shell script run by Warren's own
	// interpreter (sandbox/script), each command and redirection judged as
	// it runs: on the host by Guard, in a container by the sandbox policy.
	Script string
	// Guard judges a Script's commands on the host; a host Script run
	// without one is refused. Sandboxes ignore it.
	Guard script.Guard
	// Dir is the working directory. On the host it is a host path; in a
	// sandbox a relative Dir or a host path under Workspace is mapped to
	// /workspace, and an empty Dir means /workspace.
	Dir string
	// Env holds extra variables added to the runner's base environment.
	Env map[string]string
	// Timeout bounds the run; zero means the runner's default
	// (DefaultHostTimeout on the host, DefaultSandboxTimeout in a sandbox).
	Timeout time.Duration
	// MaxOutput caps stdout and stderr each; zero means DefaultMaxOutput.
	MaxOutput int

	// Key names the sandbox a command belongs to (the session): commands
	// with the same Key, Workspace and Network share one container, created
	// on first use and removed when idle. Empty means "default". The host
	// ignores it.
	Key string
	// Workspace is the host directory bind-mounted at /workspace; empty
	// gives the container a scratch tmpfs there instead. The host ignores it.
	Workspace string
	// Network opts the sandbox into a network (slirp4netns when rootless);
	// the default is no interface but lo. The host ignores it.
	Network bool
}

// Result is what a command did.
type Result struct {
	Stdout, Stderr string
	ExitCode       int
	// Truncated is true when output went past MaxOutput.
	Truncated bool
	TimedOut  bool
	Duration  time.Duration
	// Where names where it ran: "host" or "podman:" and the short container id.
	Where string
	// Fallback is true when the sandbox was unavailable and the fallback
	// setting sent the command to the host instead; show it to the user.
	Fallback bool
	// Warnings are about where the command ran, e.g. limits the host does
	// not enforce or why it fell back to the host; meant for the user.
	Warnings []string
	// Refused says which command or file of a Script the policy stopped
	// at, and why; the script did not go on past it.
	Refused string
}

// Runner runs commands somewhere.
type Runner interface {
	Run(ctx context.Context, req Request) (Result, error)
	// Name says where commands run, for results and the UI.
	Name() string
}

// ErrUnavailable is wrapped by a sandbox runner's errors when it cannot run
// anything (no Podman, no image, no runner binary): Router's fallback
// setting decides what happens then. Errors about the request itself never
// wrap it, so a bad command is not retried on the host.
var ErrUnavailable = errors.New("sandbox unavailable")

const (
	// DefaultMaxOutput is the per-stream output cap (1 MB).
	DefaultMaxOutput = 1 << 20
	// DefaultHostTimeout is the seed's host timeout.
	DefaultHostTimeout = 60 * time.Second
	// DefaultSandboxTimeout is the seed's sandbox timeout.
	DefaultSandboxTimeout = 300 * time.Second
)
