package warren

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"sync"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/podman"
)

// settingSandbox holds the SandboxSettings JSON.
const settingSandbox = "sandbox"

// Sandbox modes.
const (
	SandboxPodman = "podman"
	SandboxHost   = "host"
)

// SandboxSettings say where agent commands run.
type SandboxSettings struct {
	// Mode is "podman" (default) or "host".
	Mode string `json:"mode"`
	// Fallback is "deny" (default) or "host": what happens when Podman is
	// unavailable.
	Fallback string `json:"fallback"`
	// Image runs the containers; empty means the offline-built default.
	Image string `json:"image,omitempty"`
	// InjectEnv adds these variables to every command, on the host and in
	// the sandbox (the rest of Warren's environment is never passed on).
	InjectEnv map[string]string `json:"inject_env,omitempty"`
}

// Validate checks the settings and fills defaults.
func (s *SandboxSettings) Validate() error {
	switch s.Mode {
	case "":
		s.Mode = SandboxPodman
	case SandboxPodman, SandboxHost:
	default:
		return fmt.Errorf("sandbox mode %q: want %q or %q", s.Mode, SandboxPodman, SandboxHost)
	}
	fb, err := sandbox.ParseFallback(s.Fallback)
	if err != nil {
		return err
	}
	for k := range s.InjectEnv {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("inject_env: %q is not a variable name", k)
		}
	}
	s.Fallback = string(fb)
	return nil
}

// sandboxes owns the host runner and the lazily started Podman manager.
type sandboxes struct {
	host *sandbox.Host

	mu       sync.Mutex
	settings SandboxSettings
	pod      *podman.Manager

	// tests keeps the last real sandbox test (TestSandbox).
	tests sandboxTests
}

func loadSandbox(ctx context.Context, w *Warren) (*sandboxes, error) {
	s := SandboxSettings{}
	raw, ok, err := w.db.GetSetting(ctx, settingSandbox)
	if err != nil {
		return nil, err
	}
	if ok {
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			return nil, fmt.Errorf("setting %q is not valid JSON: %w", settingSandbox, err)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("setting %q: %w", settingSandbox, err)
	}
	return &sandboxes{host: &sandbox.Host{Inject: s.InjectEnv}, settings: s}, nil
}

// SandboxSettings returns the current settings.
func (w *Warren) SandboxSettings() SandboxSettings {
	w.sandbox.mu.Lock()
	defer w.sandbox.mu.Unlock()
	return w.sandbox.settings
}

// SetSandboxSettings validates, stores and applies new settings; a changed
// image restarts the Podman manager on next use.
func (w *Warren) SetSandboxSettings(ctx context.Context, s SandboxSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := w.db.SetSetting(ctx, settingSandbox, string(raw)); err != nil {
		return err
	}
	sb := w.sandbox
	sb.mu.Lock()
	sb.host = &sandbox.Host{Inject: s.InjectEnv} // runs in flight keep the old one
	old := sb.pod
	if old != nil && (s.Image != sb.settings.Image || !maps.Equal(s.InjectEnv, sb.settings.InjectEnv)) {
		sb.pod = nil
	} else {
		old = nil
	}
	sb.settings = s
	sb.mu.Unlock()
	if old != nil {
		_ = old.Close(ctx)
		w.forgetSandboxTest() // it tested the old image
	}
	return nil
}

// podman returns the manager, creating it on first use. It connects
// lazily: a missing Podman shows up as sandbox.ErrUnavailable from Run.
func (w *Warren) podman() *podman.Manager {
	sb := w.sandbox
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.pod == nil {
		// The janitor lives as long as Warren, not as the first call.
		sb.pod = podman.New(w.life, podman.Options{
			Image: sb.settings.Image, Inject: sb.settings.InjectEnv, Logger: w.log,
			OwnWorkspace: func(dir string) bool { return w.ownWorkspace && dir == w.workspace },
		})
	}
	return sb.pod
}

// runnerFor picks where one call's commands run. An explicit "host" is the
// user's choice (reported as host, not as a fallback).
func (w *Warren) runnerFor(ctx context.Context, want string) (sandbox.Runner, error) {
	s := w.SandboxSettings()
	mode := s.Mode
	if want != "" {
		if want != SandboxPodman && want != SandboxHost {
			return nil, fmt.Errorf("sandbox %q: want %q or %q", want, SandboxPodman, SandboxHost)
		}
		mode = want
	}
	host := w.hostRunner()
	if mode == SandboxHost {
		return host, nil
	}
	return &sandbox.Router{Sandbox: lazyPodman{w}, Host: host, Fallback: sandbox.Fallback(s.Fallback)}, nil
}

// hostRunner returns the current host runner (replaced when settings change).
func (w *Warren) hostRunner() *sandbox.Host {
	w.sandbox.mu.Lock()
	defer w.sandbox.mu.Unlock()
	return w.sandbox.host
}

// lazyPodman defers connecting to Podman until a command really runs.
type lazyPodman struct{ w *Warren }

func (l lazyPodman) Name() string { return SandboxPodman }

func (l lazyPodman) Run(ctx context.Context, req sandbox.Request) (sandbox.Result, error) {
	return l.w.podman().Run(ctx, req)
}

// closeSandbox removes Warren's containers on exit.
func (w *Warren) closeSandbox(ctx context.Context) {
	if w.subagents != nil {
		_, _ = w.subagents.Cancel("", "all")
	}
	w.processes.KillAll()
	w.sandbox.mu.Lock()
	pod := w.sandbox.pod
	w.sandbox.pod = nil
	w.sandbox.mu.Unlock()
	if pod != nil {
		_ = pod.Close(ctx)
	}
}

// SandboxStatus is what the UI and `warren sandbox status` show.
type SandboxStatus struct {
	Settings SandboxSettings `json:"settings"`
	// Podman is the Podman side: connection, image, runner, containers.
	Podman podman.Status `json:"podman"`
	// Available is true when commands can run in Podman now.
	Available bool `json:"available"`
	// Problems say why Podman cannot run commands.
	Problems []string `json:"problems"`
	// Warnings are what the user should know about where commands run.
	Warnings []string `json:"warnings"`
}

// SandboxStatus reports the settings, the Podman side, whether commands can
// run sandboxed now, and what the user should be warned about.
func (w *Warren) SandboxStatus(ctx context.Context) SandboxStatus {
	st := SandboxStatus{Settings: w.SandboxSettings(), Podman: w.podman().Status(ctx), Problems: []string{}}
	p := st.Podman
	if p.Error != "" {
		st.Problems = append(st.Problems, p.Error)
	}
	if p.RunnerError != "" {
		st.Problems = append(st.Problems, p.RunnerError)
	}
	if p.Connected && !p.ImagePresent {
		st.Problems = append(st.Problems, fmt.Sprintf("image %s is missing: build it with `warren sandbox image build`", p.Image))
	}
	st.Available = p.Connected && p.ImagePresent && p.RunnerError == ""
	if p.Connected {
		// What the first sandboxed command would meet: the default
		// workspace, and the network for agents that opt in.
		pod := w.podman()
		if err := pod.CheckWorkspace(ctx, w.workspace); err != nil {
			st.Problems = append(st.Problems, err.Error())
			st.Available = false
		}
		if err := pod.CheckNetwork(ctx); err != nil {
			st.Warnings = append(st.Warnings, "Agents with network on cannot run sandboxed commands: "+err.Error())
		}
	}
	switch {
	case st.Settings.Mode == SandboxHost:
		st.Warnings = append(st.Warnings, "Sandboxing is off: agent commands run directly on this machine.")
	case st.Settings.Fallback == string(sandbox.FallbackHost):
		st.Warnings = append(st.Warnings, "fallback=host: when Podman is unavailable, commands run unsandboxed on this machine (each result is flagged).")
	}
	st.Warnings = append(st.Warnings, p.Warnings...)
	return st
}

// SandboxDoctor runs every check the sandbox depends on, with real
// containers, for agent's workspace and network setting ("" = the default
// workspace, network checked too).
func (w *Warren) SandboxDoctor(ctx context.Context, agent string) ([]podman.Check, error) {
	ws, network := w.workspace, true
	if agent != "" {
		a, err := w.db.GetAgent(ctx, agent)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil, fmt.Errorf("%w %q", ErrUnknownAgent, agent)
			}
			return nil, err
		}
		ws, network = cmp.Or(a.Workspace, w.workspace), a.Network
	}
	return w.podman().Doctor(ctx, podman.DoctorOptions{Workspace: ws, Run: true, Network: network}), nil
}

// PruneSandbox removes containers left by crashed Warren processes (all:
// also those of other running Warren processes).
func (w *Warren) PruneSandbox(ctx context.Context, all bool) ([]podman.Pruned, error) {
	return w.podman().Prune(ctx, all)
}

// BuildSandboxImage builds the sandbox image offline (or pulls from).
func (w *Warren) BuildSandboxImage(ctx context.Context, from string) (podman.ImageReport, error) {
	rep, err := w.podman().BuildImage(ctx, podman.ImageOptions{From: from})
	if err == nil {
		w.forgetSandboxTest() // a test that failed on the missing image is stale
	}
	return rep, err
}

// mcpSandboxCommand builds the command that runs a sandboxed stdio MCP
// server inside a Podman container of its own: the sandbox's hardening,
// the default workspace mounted read-write at its own path, the server's
// files and runtime read-only, the network only when the server asks for
// it (see podman.StdioCommand). There is no fallback to the host, whatever
// the sandbox settings say: a server marked sandboxed is one its user does
// not trust with the host.
func (w *Warren) mcpSandboxCommand(ctx context.Context, s mcp.Server, env map[string]string) (*exec.Cmd, error) {
	cmd, err := w.podman().StdioCommand(ctx, podman.StdioSpec{
		Key:     "mcp:" + s.Name,
		Command: s.Command, Args: s.Args, Env: env, Dir: s.Cwd,
		Workspace: w.workspace, Network: s.SandboxNetwork,
	})
	if errors.Is(err, sandbox.ErrUnavailable) {
		return nil, fmt.Errorf("server %s runs in the sandbox, but Podman is unavailable: %w. "+
			"Start Podman's service (`systemctl --user start podman.socket`, or as root rerun scripts/podman-setup.sh), "+
			"check with `warren sandbox status`, or turn sandboxing off for this server", s.Name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("sandboxed server %s: %w", s.Name, err)
	}
	return cmd, nil
}
