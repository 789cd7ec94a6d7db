// Package app is the surface the desktop UI calls through Wails bindings:
// thin methods over the core and the events the UI receives.
package app

import (
	"context"
	"strings"
	"sync"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
)

// Wails event names the UI subscribes to; dispatch picks one by topic.
const (
	// EventTool carries tool lifecycle events (and any topic not listed here).
	EventTool = "tool:event"
	// EventSubagent carries "subagent.*" events: an agent.Task when one
	// starts or ends, a warren.Announcement when results reach the parent.
	EventSubagent = "subagent:event"
	// EventMessage carries "message.*" events: messages agents send the user.
	EventMessage = "message:event"
	// EventMCP carries "mcp.status" events, their payload an mcp.Status.
	EventMCP = "mcp:event"
	// EventTeam carries team board and mailbox events (teams.Event).
	EventTeam = "team:event"
	// EventTeamNotice carries what a team needs the user to see
	// (warren.TeamNotice: a question, a blocker, a failed lead turn).
	EventTeamNotice = "team:notice"
	// EventMemory carries the memory index's progress (memory.IndexStatus).
	EventMemory = "memory:index"
)

// Emitter sends an event to the UI. It is swappable because Wails runtime
// calls made outside a running window kill the process (PLATFORM_NOTES).
type Emitter func(ctx context.Context, name string, data ...any)

// App is bound to the window; every exported method is callable from the UI.
type App struct {
	core     *warren.Warren
	emit     Emitter
	dialog   Dialog
	notify   Notify
	saveFile SaveFileDialog
	// chooseFolder is the native folder dialog (imports); nil offers none.
	chooseFolder ChooseFolderDialog
	claudePaths  mcpconfig.PathOptions
	// openURL opens a chat link in the system browser (chat.go).
	openURL func(ctx context.Context, url string)

	mu        sync.Mutex
	ctx       context.Context
	cancel    func()
	noDialogs bool
	// focused is what the frontend last reported (SetWindowFocused);
	// false until it does, so a request never goes unnoticed.
	focused bool
	// prompts withdraws the native dialog or notification of each request
	// once it is resolved, by request id (approvalprompt.go).
	prompts map[string]context.CancelFunc
	// dialogTurn is closed when the last prompt started so far is done:
	// native dialogs open one at a time and in the order the requests
	// came (each prompt waits for the one before it; approvalprompt.go).
	dialogTurn chan struct{}
	// notifyFailed logs once that approval notifications cannot be shown.
	notifyFailed sync.Once
	// running counts the window-lifetime goroutines Startup starts;
	// Shutdown waits for them so nothing touches the data dir after it.
	running sync.WaitGroup
}

// Options are the window-side functions App needs; nil ones are skipped.
type Options struct {
	Emit   Emitter
	Dialog Dialog
	// Notify shows a desktop notification: how an approval request reaches
	// someone whose window is in the background when native dialogs are off.
	Notify Notify
	// SaveFile is the native save dialog (MCP export); nil offers none.
	SaveFile SaveFileDialog
	// ChooseFolder is the native folder dialog (memory and skill imports);
	// nil offers none.
	ChooseFolder ChooseFolderDialog
	// ClaudeDesktop locates Claude Desktop's config for the first-run
	// import offer; the zero value means this machine.
	ClaudeDesktop mcpconfig.PathOptions
	// OpenURL opens a link in the system browser (the chat's links); nil
	// makes App.OpenURL report that links cannot open here.
	OpenURL func(ctx context.Context, url string)
}

// New returns the bound surface over core.
func New(core *warren.Warren, opts Options) *App {
	return &App{core: core, emit: opts.Emit, dialog: opts.Dialog, notify: opts.Notify, saveFile: opts.SaveFile, chooseFolder: opts.ChooseFolder, claudePaths: opts.ClaudeDesktop,
		openURL: opts.OpenURL, ctx: context.Background(), prompts: map[string]context.CancelFunc{}}
}

// Startup is called by Wails when the window is ready; it starts forwarding
// core events to the UI until Shutdown.
func (a *App) Startup(ctx context.Context) {
	ch, unsubscribe := a.core.Bus().Subscribe(256)
	fwdCtx, cancel := context.WithCancel(ctx)
	// The window shows MCP servers' questions (elicitation) as forms.
	detachElicitation := a.core.AttachElicitationUI()
	a.mu.Lock()
	a.ctx, a.cancel = ctx, func() { cancel(); unsubscribe(); detachElicitation() }
	a.mu.Unlock()
	a.running.Go(func() { a.forward(fwdCtx, ch) })
	// Scheduled agent runs (cron) belong to the window's lifetime.
	a.running.Go(func() { _ = a.core.RunScheduler(fwdCtx) })
	// So do the enabled MCP servers, and showing other Warren processes' approval requests.
	a.running.Go(func() { _ = a.core.RunMCP(fwdCtx) })
	a.running.Go(func() { _ = a.core.RunApprovalWatcher(fwdCtx) })
	// And the teams: tasks created or assigned start their members' turns.
	opts := warren.TeamLoopOptions{}
	if a.notify != nil {
		opts.Notifier = a.notify
	}
	a.running.Go(func() { _ = a.core.RunTeams(fwdCtx, opts) })
	// Warren's own docs, ready for search_system_knowledge.
	a.running.Go(func() { _ = a.core.PrepareSystemKnowledge(fwdCtx) })
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

// eventName is the Wails event a core topic is forwarded under.
func eventName(topic events.Topic) string {
	switch t := string(topic); {
	case topic == warren.TopicRunEvent:
		return EventAgent
	case strings.HasPrefix(t, "approval."):
		return EventApproval
	case strings.HasPrefix(t, "subagent."):
		return EventSubagent
	case strings.HasPrefix(t, "message."):
		return EventMessage
	case topic == mcp.TopicStatus:
		return EventMCP
	case topic == warren.TopicElicitation || topic == warren.TopicElicitationResolved:
		return EventMCPElicitation
	case topic == warren.TopicTeam:
		return EventTeam
	case topic == warren.TopicTeamNotice:
		return EventTeamNotice
	case topic == warren.TopicMemoryIndex:
		return EventMemory
	}
	return EventTool
}

// dispatch forwards one core event to the UI under its Wails event name and
// prompts for approval requests outside the window (native dialog or
// notification), withdrawing the prompt once the request is resolved.
func (a *App) dispatch(ctx context.Context, ev events.Event) {
	var data any = ev
	if ev.Topic == warren.TopicRunEvent {
		// A turn Warren started itself (answering subagent results): its
		// payload already has the shape of the runs SendMessage streams.
		data = ev.Payload
	}
	if a.emit != nil {
		a.emit(ctx, eventName(ev.Topic), data)
	}
	a.promptApproval(ctx, ev)
}

// Shutdown stops event forwarding.
// It returns once the goroutines Startup started have stopped, so the core
// can be closed right after.
func (a *App) Shutdown(context.Context) {
	a.mu.Lock()
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
	a.mu.Unlock()
	a.running.Wait()
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
