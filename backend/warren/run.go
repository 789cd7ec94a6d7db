package warren

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/fs"
)

// RunRequest is one agent turn from the UI or `warren run`.
type RunRequest struct {
	Agent   string
	Session string
	Prompt  string
	// BaseURL and Model override the agent's provider with an
	// OpenAI-compatible endpoint for this run.
	BaseURL   string
	Model     string
	Workspace string
	// EmulateTools forces prompt-based tool calling for this run.
	EmulateTools bool
	// ParentSession and Depth are set when a subagent runs.
	ParentSession string
	Depth         int
	// ReplaceFrom, when set, is the id of a user message of Session that
	// Prompt replaces (edit and resend, regenerate); see agent.RunRequest.
	ReplaceFrom int64
	// provider carries a parent's resolved model to its subagents and to
	// the turns that answer their results (set internally).
	provider llm.Provider
	// promptKind is the stored kind of the prompt (subagent results).
	promptKind string
}

// contextFileOrder is the order context files appear in the system prompt.
var contextFileOrder = []string{"IDENTITY.md", "SOUL.md", "AGENTS.md", "TOOLS.md", "USER.md", "BOOTSTRAP.md"}

// Sessions returns the session store.
func (w *Warren) Sessions() sessions.Store { return sessions.NewSQLStore(w.db.SQL()) }

// Providers returns the LLM provider settings store.
func (w *Warren) Providers() *store.Providers { return store.NewProviders(w.db, w.box) }

// RunAgent runs one turn of an agent, streaming events to on.
func (w *Warren) RunAgent(ctx context.Context, req RunRequest, on func(agent.Event)) (agent.Result, error) {
	if req.Agent == "" {
		req.Agent = "default"
	}
	a, err := w.db.GetAgent(ctx, req.Agent)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return agent.Result{}, fmt.Errorf("%w %q", ErrUnknownAgent, req.Agent)
		}
		return agent.Result{}, err
	}
	chosen := w.chosenModel(ctx, &req)
	prov, model, emulate := req.provider, req.Model, req.EmulateTools
	if prov == nil {
		var mode string
		if prov, model, mode, err = w.provider(ctx, a, req); err != nil {
			return agent.Result{}, err
		}
		emulate = emulate || mode == "emulated"
	}
	ws := firstNonEmpty(req.Workspace, a.Workspace, w.workspace)
	if ws, err = filepath.Abs(ws); err != nil {
		return agent.Result{}, err
	}
	sandboxMode := ""
	if !a.Sandbox {
		sandboxMode = SandboxHost
	}
	lease, missing, err := w.mcpForRun(ctx, a, req.Depth, on)
	if err != nil {
		return agent.Result{}, err
	}
	defer lease.Release()
	reg, err := w.taskRegistry(ctx, taskRun{agent: a.Key, provider: prov, model: model, emulate: emulate, base: req})
	if err != nil {
		return agent.Result{}, err
	}
	deferAll := false
	if d, err := w.decisionAt(reg, a.Profile, a.Key, req.Depth); err == nil {
		deferAll = w.deferAllMCP(reg, d, a.Key)
	}
	loop := agent.New(agent.Deps{
		Registry: func(context.Context, string) (*tools.Registry, error) { return reg, nil },
		Allowed: func(ctx context.Context, name string, depth int) (map[string]bool, error) {
			d, err := w.decisionAt(reg, a.Profile, name, depth)
			if err != nil {
				return nil, err
			}
			out := map[string]bool{}
			for _, n := range d.Names() {
				out[n] = true
			}
			return out, nil
		},
		SystemPrompt: func(ctx context.Context, name, user string) (string, error) {
			p, err := w.systemPrompt(ctx, a, user, ws)
			return p + missing, err
		},
		Sessions: w.Sessions(),
		Inbox:    w.announcer.inbox,
		Logger:   w.log,
		Hidden:   func(session, tool string) bool { return w.deferred.hidden(reg, session, tool, deferAll) },
	})
	return loop.Run(ctx, agent.RunRequest{
		Agent: a.Key, User: "local", Session: req.Session, Prompt: req.Prompt, PromptKind: req.promptKind,
		Provider: prov, Model: model, Workspace: ws, Sandbox: sandboxMode, Network: a.Network, Profile: a.Profile,
		ParentSession: req.ParentSession, Depth: req.Depth, EmulateTools: emulate,
		ReplaceFrom: req.ReplaceFrom, SessionModel: chosen,
	}, on)
}

// provider resolves the model endpoint, the model and the tool mode.
func (w *Warren) provider(ctx context.Context, a store.Agent, req RunRequest) (llm.Provider, string, string, error) {
	if req.BaseURL != "" {
		if req.Model == "" {
			return nil, "", "", errors.New("--base-url needs --model (the model name the server knows)")
		}
		return llm.NewOpenAI(llm.OpenAIOptions{Name: "override", BaseURL: strings.TrimRight(req.BaseURL, "/")}), req.Model, "native", nil
	}
	if a.Provider == "" {
		return nil, "", "", fmt.Errorf("agent %s has no model provider: add one (warren providers add …) or pass --base-url and --model", a.Key)
	}
	p, err := w.Providers().Get(ctx, a.Provider)
	if err != nil {
		return nil, "", "", err
	}
	model := firstNonEmpty(req.Model, a.Model, p.DefaultModel)
	if model == "" {
		return nil, "", "", fmt.Errorf("agent %s: no model set (agent, provider %s default, or --model)", a.Key, p.Name)
	}
	if p.Kind == store.ProviderAnthropic {
		return llm.NewAnthropic(llm.AnthropicOptions{BaseURL: p.BaseURL, APIKey: p.APIKey}), model, p.ToolMode, nil
	}
	return llm.NewOpenAI(llm.OpenAIOptions{Name: p.Name, BaseURL: p.BaseURL, APIKey: p.APIKey}), model, p.ToolMode, nil
}

// systemPrompt assembles the agent's context files with the same routing
// the file tools use (open vs predefined agents, per-user files).
func (w *Warren) systemPrompt(ctx context.Context, a store.Agent, user, ws string) (string, error) {
	ic := fs.NewContextFileInterceptor(w.db)
	ctx = tools.WithCallContext(ctx, tools.CallContext{Agent: a.Key, User: user, Workspace: ws})
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s, an AI agent running in Warren on the user's own computer.\n", a.Name)
	fmt.Fprintf(&b, "Your workspace is %s; file and shell tools work relative to it.\n", ws)
	b.WriteString("Use tools when they help; when a tool returns an error code, read it and adjust instead of repeating the same call.\n")
	for _, name := range contextFileOrder {
		content, ok, err := ic.Read(ctx, name)
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("context file %s: %w", name, err)
		}
		if ok && inPrompt(name, content) {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", name, strings.TrimSpace(content))
		}
	}
	team, err := w.teamSection(ctx, a.Key)
	if err != nil {
		return "", err
	}
	b.WriteString(team)
	b.WriteString(w.skillsSection(ctx, a.Key, ws))
	return b.String(), nil
}

// inPrompt is the one rule for which context files the system prompt
// includes: the listed ones, when they say something.
func inPrompt(name, content string) bool {
	return slices.Contains(contextFileOrder, name) && strings.TrimSpace(content) != ""
}

// TestProvider connects to a configured provider and lists its models.
func (w *Warren) TestProvider(ctx context.Context, name string) ([]llm.Model, error) {
	p, err := w.Providers().Get(ctx, name)
	if err != nil {
		return nil, err
	}
	var prov llm.Provider = llm.NewOpenAI(llm.OpenAIOptions{Name: p.Name, BaseURL: p.BaseURL, APIKey: p.APIKey})
	if p.Kind == store.ProviderAnthropic {
		prov = llm.NewAnthropic(llm.AnthropicOptions{BaseURL: p.BaseURL, APIKey: p.APIKey})
	}
	return prov.Models(ctx)
}
