// Package app is the surface the desktop UI calls through Wails bindings:
// thin methods over the core and the events the UI receives.
package app

import (
	"context"
	"strings"
	"sync"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
)

// EventTool is the Wails event name carrying tool lifecycle events.
const EventTool = "tool:event"

// Emitter sends an event to the UI. It is swappable because Wails runtime
// calls made outside a running window kill the process (PLATFORM_NOTES).
type Emitter func(ctx context.Context, name string, data ...any)

// App is bound to the window; every exported method is callable from the UI.
type App struct {
	core   *warren.Warren
	emit   Emitter
	dialog Dialog

	mu        sync.Mutex
	ctx       context.Context
	cancel    func()
	noDialogs bool
}

// Options are the window-side functions App needs; nil ones are skipped.
type Options struct {
	Emit   Emitter
	Dialog Dialog
}

// New returns the bound surface over core.
func New(core *warren.Warren, opts Options) *App {
	return &App{core: core, emit: opts.Emit, dialog: opts.Dialog, ctx: context.Background()}
}

// Startup is called by Wails when the window is ready; it starts forwarding
// core events to the UI until Shutdown.
func (a *App) Startup(ctx context.Context) {
	ch, unsubscribe := a.core.Bus().Subscribe(256)
	fwdCtx, cancel := context.WithCancel(ctx)
	a.mu.Lock()
	a.ctx, a.cancel = ctx, func() { cancel(); unsubscribe() }
	a.mu.Unlock()
	go a.forward(fwdCtx, ch)
	// Scheduled agent runs (cron) belong to the window's lifetime.
	go func() { _ = a.core.RunScheduler(fwdCtx) }()
}

func (a *App) forward(ctx context.Context, ch <-chan events.Event) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-ch:
			if !ok {
				return
			}
			a.dispatch(ctx, ev)
		}
	}
}

// dispatch forwards one core event to the UI under its Wails event name and
// pops the native dialog for approval requests.
func (a *App) dispatch(ctx context.Context, ev events.Event) {
	name := EventTool
	if strings.HasPrefix(string(ev.Topic), "approval.") {
		name = EventApproval
	}
	if a.emit != nil {
		a.emit(ctx, name, ev)
	}
	if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
		go a.showApprovalDialog(ctx, req)
	}
}

// Shutdown stops event forwarding.
func (a *App) Shutdown(context.Context) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
}

func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// Tools returns the inventory under profile ("" = active) for agent.
func (a *App) Tools(profile, agent string) ([]warren.ToolInfo, error) {
	return a.core.Inventory(a.context(), warren.InventoryRequest{Profile: profile, Agent: agent})
}

// Profiles lists the policy profiles.
func (a *App) Profiles() []string { return a.core.Profiles() }

// ActiveProfile returns the active global profile.
func (a *App) ActiveProfile() (string, error) { return a.core.ActiveProfile(), nil }

// SetActiveProfile persists a new global profile.
func (a *App) SetActiveProfile(profile string) error {
	return a.core.SetActiveProfile(a.context(), profile)
}

// Explain traces one tool through the policy pipeline.
func (a *App) Explain(tool, profile, agent string) (policy.Explanation, error) {
	return a.core.ExplainTool(a.context(), tool, profile, agent)
}

// Version returns Warren's version.
func (a *App) Version() string { return warren.Version }

// CallResult is the outcome of a tool call made from the UI.
type CallResult struct {
	Status     string  `json:"status"`
	ForLLM     string  `json:"for_llm"`
	ForUser    string  `json:"for_user"`
	Code       string  `json:"code,omitempty"`
	Message    string  `json:"message,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// CallTool runs one tool through the full pipeline (policy, approvals,
// scrubbing) as the given agent; argsJSON is the arguments object.
func (a *App) CallTool(name, argsJSON, agent string) (CallResult, error) {
	res, err := a.core.CallTool(a.context(), warren.CallRequest{
		Name: name, Args: []byte(argsJSON), Agent: agent, Channel: "desktop",
	})
	out := CallResult{Status: "success", ForLLM: res.ForLLM, ForUser: res.ForUser,
		DurationMS: float64(res.Duration.Microseconds()) / 1000}
	if res.IsError {
		out.Status, out.Code, out.Message = "error", string(res.Error.Code), res.Error.Message
	}
	if err != nil && !res.IsError {
		return out, err
	}
	return out, nil
}
