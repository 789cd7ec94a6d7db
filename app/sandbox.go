package app

import (
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/sandbox/podman"
)

// SandboxContainer is one live sandbox container.
type SandboxContainer struct {
	Key         string  `json:"key"`
	ID          string  `json:"id"`
	Image       string  `json:"image"`
	State       string  `json:"state"`
	AgeSeconds  float64 `json:"age_seconds"`
	IdleSeconds float64 `json:"idle_seconds"`
	Workspace   string  `json:"workspace"`
	Network     bool    `json:"network"`
	Mine        bool    `json:"mine"`
}

// SandboxStatus is the sandbox panel's data: where commands run and why.
type SandboxStatus struct {
	Mode       string             `json:"mode"`
	Fallback   string             `json:"fallback"`
	Available  bool               `json:"available"`
	Socket     string             `json:"socket"`
	Rootless   bool               `json:"rootless"`
	Image      string             `json:"image"`
	ImageReady bool               `json:"image_ready"`
	Runtime    string             `json:"runtime"`
	Runner     string             `json:"runner"`
	Containers []SandboxContainer `json:"containers"`
	Warnings   []string           `json:"warnings"`
	// Problems say why sandboxed commands cannot run, one line each with
	// its fix ("… . Fix: …").
	Problems []string `json:"problems"`
}

// SandboxStatus reports where commands run, the Podman connection, image,
// live containers and warnings (such as limits the host does not enforce).
func (a *App) SandboxStatus() (SandboxStatus, error) {
	st := a.core.SandboxStatus(a.context())
	p := st.Podman
	out := SandboxStatus{
		Mode: st.Settings.Mode, Fallback: st.Settings.Fallback, Available: st.Available,
		Socket: p.Endpoint, Rootless: p.Rootless, Image: p.Image, ImageReady: p.ImagePresent,
		Runtime: p.Runtime, Runner: p.Runner, Warnings: append([]string{}, st.Warnings...),
		Containers: []SandboxContainer{}, Problems: append([]string{}, st.Problems...),
	}
	for _, c := range p.Containers {
		out.Containers = append(out.Containers, SandboxContainer{
			Key: c.Key, ID: c.ID, Image: p.Image, State: c.State, AgeSeconds: c.Age.Seconds(),
			IdleSeconds: c.Idle.Seconds(), Workspace: c.Workspace, Network: c.Network, Mine: c.Mine,
		})
	}
	return out, nil
}

// SandboxDoctor runs every check the sandbox depends on, starting real
// containers (one with the network opt-in), for agent's workspace and
// network ("" = the default workspace); each failed check says its fix.
func (a *App) SandboxDoctor(agent string) ([]podman.Check, error) {
	return a.core.SandboxDoctor(a.context(), agent)
}

// SetSandboxSettings changes where commands run ("podman" or "host"), the
// fallback ("deny" or "host") and the image ("" = the default).
func (a *App) SetSandboxSettings(mode, fallback, image string) error {
	return a.core.SetSandboxSettings(a.context(), warren.SandboxSettings{Mode: mode, Fallback: fallback, Image: image})
}

// PruneSandbox removes containers left behind by crashed Warren processes.
func (a *App) PruneSandbox() (int, error) {
	pruned, err := a.core.PruneSandbox(a.context(), false)
	return len(pruned), err
}

// TestSandbox runs the sandbox's real test (the doctor's checks, then a
// command in a real container on the default workspace) and keeps the
// result; the Sandbox page's headline comes from it.
func (a *App) TestSandbox() warren.SandboxTest { return a.core.TestSandbox(a.context()) }

// LastSandboxTest is the last TestSandbox result, or nil before the first.
func (a *App) LastSandboxTest() *warren.SandboxTest { return a.core.LastSandboxTest() }
