package app

import (
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/warren"
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
	Error      string             `json:"error"`
}

// SandboxStatus reports where commands run, the Podman connection, image,
// live containers and warnings (such as limits the host does not enforce).
func (a *App) SandboxStatus() (SandboxStatus, error) {
	st, err := a.core.SandboxStatus(a.context())
	if err != nil {
		// Still show the settings so the user can switch to host mode.
		s := a.core.SandboxSettings()
		return SandboxStatus{Mode: s.Mode, Fallback: s.Fallback, Image: s.Image, Error: err.Error(),
			Containers: []SandboxContainer{}, Warnings: []string{}}, nil
	}
	p := st.Podman
	out := SandboxStatus{
		Mode: st.Settings.Mode, Fallback: st.Settings.Fallback, Available: p.Connected && p.ImagePresent && p.RunnerError == "",
		Socket: p.Endpoint, Rootless: p.Rootless, Image: p.Image, ImageReady: p.ImagePresent,
		Runtime: p.Runtime, Runner: p.Runner, Warnings: append([]string{}, p.Warnings...),
		Containers: []SandboxContainer{},
	}
	var errs []string
	if p.Error != "" {
		errs = append(errs, p.Error)
	}
	if p.RunnerError != "" {
		errs = append(errs, p.RunnerError)
	}
	if p.Connected && !p.ImagePresent {
		errs = append(errs, fmt.Sprintf("image %s is missing: build it with `warren sandbox image build`", p.Image))
	}
	out.Error = strings.Join(errs, "; ")
	if st.Settings.Mode == warren.SandboxHost {
		out.Warnings = append([]string{"Sandboxing is off: agent commands run directly on this machine."}, out.Warnings...)
	} else if st.Settings.Fallback == "host" {
		out.Warnings = append(out.Warnings, "fallback=host: when Podman is unavailable, commands run unsandboxed on this machine (each result is flagged).")
	}
	for _, c := range p.Containers {
		out.Containers = append(out.Containers, SandboxContainer{
			Key: c.Key, ID: c.ID, Image: p.Image, State: c.State, AgeSeconds: c.Age.Seconds(),
			IdleSeconds: c.Idle.Seconds(), Workspace: c.Workspace, Network: c.Network, Mine: c.Mine,
		})
	}
	return out, nil
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
