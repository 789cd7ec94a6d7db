package app

import (
	"os"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/sandbox/podman"
)

// The first-run setup's surface (FirstRun.svelte) and the forms' drafts.

// DetectModelServers lists the local OpenAI-compatible servers that answer
// (Ollama, LM Studio, llama.cpp, vLLM, and warren.EnvModelServerURLs), with
// their models.
func (a *App) DetectModelServers() []warren.ModelServer {
	return a.core.DetectModelServers(a.context(), os.Getenv)
}

// TestModelProviderDraft connects to a provider configuration without
// saving it and lists its models; the key given is used, never stored.
func (a *App) TestModelProviderDraft(p store.Provider) ([]llm.Model, error) {
	return a.core.TestProviderDraft(a.context(), p)
}

// FirstRunPending reports whether the window should open the first-run setup.
func (a *App) FirstRunPending() (bool, error) { return a.core.FirstRunPending(a.context()) }

// FinishFirstRun records that the setup was finished or skipped.
func (a *App) FinishFirstRun() error {
	return a.core.SetSetting(a.context(), warren.SettingFirstRunDone, "true")
}

// CompleteFirstRun saves the provider and makes it, with model, the
// default agent's provider and model.
func (a *App) CompleteFirstRun(p store.Provider, model string) error {
	return a.core.CompleteFirstRun(a.context(), p, model)
}

// NewAgentDefaults is what the new-agent form starts with (sandbox on).
func (a *App) NewAgentDefaults() (store.Agent, error) { return a.core.NewAgentDefaults(a.context()) }

// BuildSandboxImage builds the sandbox image offline, as
// `warren sandbox image build` does.
func (a *App) BuildSandboxImage() (podman.ImageReport, error) {
	return a.core.BuildSandboxImage(a.context(), "")
}
