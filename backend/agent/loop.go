// Package agent runs the agent loop: the model is called with the agent's
// system prompt, history and policy-filtered tools; tool calls go through
// the registry (policy, approvals, sandbox, scrubbing); results are fed back
// until the model answers or the iteration limit is reached.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

// DefaultMaxIterations is the seed's loop limit.
const DefaultMaxIterations = 20

// Deps is what the loop needs from the rest of Warren.
type Deps struct {
	// Registry returns the agent's registry (base tools plus its own).
	Registry func(ctx context.Context, agent string) (*tools.Registry, error)
	// Allowed returns the names of the tools policy lets the agent use at a
	// subagent depth (0 = top level).
	Allowed func(ctx context.Context, agent string, depth int) (map[string]bool, error)
	// SystemPrompt builds the agent's system prompt (context files).
	SystemPrompt func(ctx context.Context, agent, user string) (string, error)
	Sessions     sessions.Store
	// Inbox, when set, lets others hand messages (subagent results) to a
	// turn while it runs.
	Inbox *Inbox
	// Logger receives diagnostics (a failed summary); nil discards them.
	Logger *slog.Logger
	// Hidden, when set, keeps allowed tools out of the model's tool list
	// for a session: deferred MCP tools until tool_search loads them.
	Hidden func(session, tool string) bool
}

// toolSearch is the tool that loads deferred tools: after a step that
// called it, the tool list is rebuilt so loaded tools are offered next.
const toolSearch = "tool_search"

// RunRequest is one user turn.
type RunRequest struct {
	Agent    string
	User     string
	Session  string // empty starts a new session
	Prompt   string
	Provider llm.Provider
	Model    string
	// PromptKind is the stored kind of the prompt message ("" for the
	// user's own words, sessions.KindSubagentResults for announcements).
	PromptKind string
	// Workspace, Sandbox and Network are passed to every tool call.
	Workspace string
	Sandbox   string
	Network   bool
	// Profile is the agent's policy profile ("" = global), checked again
	// by the registry's policy gate on every call.
	Profile string
	// EmulateTools describes tools in the system prompt and parses calls
	// from the reply, for models without native tool calling.
	EmulateTools bool
	// ParentSession and Depth are set for subagents.
	ParentSession string
	Depth         int
	// ReplaceFrom, when set, is the id of a user message of Session that
	// Prompt replaces (edit and resend, regenerate): it and every later
	// message are removed in the same transaction that stores Prompt.
	ReplaceFrom int64
	// SessionModel, when set, is the model chosen for the chat; a user's own
	// turn records it on the session, so a reopened chat shows it and later
	// turns without a model of their own keep using it.
	SessionModel string
	// MaxIterations bounds model calls; zero means DefaultMaxIterations.
	MaxIterations int
}

// EventKind names a streamed agent event.
type EventKind string

// Agent events, in the order a turn produces them.
const (
	EventSession   EventKind = "session"
	EventText      EventKind = "text"
	EventToolStart EventKind = "tool_start"
	EventToolEnd   EventKind = "tool_end"
	EventUsage     EventKind = "usage"
	EventDone      EventKind = "done"
	EventError     EventKind = "error"
	// EventInjected carries a message handed to the running turn (subagent
	// results) in Text; the model sees it before its next call.
	EventInjected EventKind = "injected"
	// EventNotice tells, in Text, something the loop did on its own: the
	// earlier conversation summarised, or trimmed because a summary failed.
	EventNotice EventKind = "notice"
	// EventPrompt carries, in MessageID, the stored id of the user's prompt
	// once it is saved, so the UI can edit or resend it later.
	EventPrompt EventKind = "prompt"
	// EventToolProgress carries a running tool's progress (MCP servers'
	// notifications/progress): Progress of Total (0 when unknown), Text.
	EventToolProgress EventKind = "tool_progress"
)

// Event is one streamed piece of a turn.
type Event struct {
	Kind       EventKind  `json:"kind"`
	Session    string     `json:"session"`
	Text       string     `json:"text,omitempty"`
	Tool       string     `json:"tool,omitempty"`
	CallID     string     `json:"call_id,omitempty"`
	Args       string     `json:"args,omitempty"`
	Result     string     `json:"result,omitempty"`
	Code       string     `json:"code,omitempty"`
	DurationMS float64    `json:"duration_ms,omitempty"`
	Usage      *llm.Usage `json:"usage,omitempty"`
	Error      string     `json:"error,omitempty"`
	// Model is, on the session event, the model answering this turn.
	Model string `json:"model,omitempty"`
	// MessageID is, on the prompt event, the stored prompt's id.
	MessageID int64 `json:"message_id,omitempty"`
	// Progress and Total are set on tool_progress events.
	Progress float64 `json:"progress,omitempty"`
	Total    float64 `json:"total,omitempty"`
}

// Result is the outcome of a turn.
type Result struct {
	Session    string
	Text       string
	Usage      llm.Usage
	Iterations int
}

// ErrMaxIterations is returned when the model keeps calling tools.
var ErrMaxIterations = errors.New("the agent reached its iteration limit without a final answer")

// Loop runs turns.
type Loop struct{ d Deps }

// New returns a Loop.
func New(d Deps) *Loop { return &Loop{d: d} }

// Run runs one user turn to completion, streaming events to on.
func (l *Loop) Run(ctx context.Context, req RunRequest, on func(Event)) (Result, error) {
	if on == nil {
		on = func(Event) {}
	}
	if req.Provider == nil {
		return Result{}, errors.New("agent run: no model provider configured")
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return Result{}, errors.New("agent run: empty prompt")
	}
	if req.MaxIterations <= 0 {
		req.MaxIterations = DefaultMaxIterations
	}
	sess, history, err := l.session(ctx, req)
	if err != nil {
		return Result{}, err
	}
	on(Event{Kind: EventSession, Session: sess.ID, Model: req.Model})
	res, err := l.turn(ctx, req, sess.ID, history, on)
	res.Session = sess.ID
	if err != nil {
		on(Event{Kind: EventError, Session: sess.ID, Error: err.Error()})
		return res, err
	}
	on(Event{Kind: EventDone, Session: sess.ID, Text: res.Text, Usage: &res.Usage})
	return res, nil
}

func (l *Loop) session(ctx context.Context, req RunRequest) (sessions.Session, []sessions.Message, error) {
	if req.Session == "" {
		if req.ReplaceFrom != 0 {
			return sessions.Session{}, nil, errors.New("agent run: a message to replace needs its session")
		}
		s, err := l.d.Sessions.Create(ctx, sessions.Session{Agent: req.Agent, ParentID: req.ParentSession, Title: title(req.Prompt),
			Model: req.SessionModel})
		return s, nil, err
	}
	s, err := l.d.Sessions.Get(ctx, req.Session)
	if err != nil {
		return sessions.Session{}, nil, err
	}
	if s.Agent != req.Agent {
		return sessions.Session{}, nil, fmt.Errorf("session %s belongs to agent %s, not %s", s.ID, s.Agent, req.Agent)
	}
	if req.PromptKind == "" && req.SessionModel != "" && s.Model != req.SessionModel {
		if err := l.d.Sessions.SetModel(ctx, s.ID, req.SessionModel); err != nil {
			return sessions.Session{}, nil, err
		}
	}
	stored, err := l.d.Sessions.History(ctx, s.ID, 0)
	if err != nil {
		return sessions.Session{}, nil, err
	}
	return s, kept(stored, req.ReplaceFrom), nil
}

// kept is the history a turn that replaces message from builds on: the
// messages before it (all of them when from is 0). The store removes the
// rest when the new prompt is saved.
func kept(stored []sessions.Message, from int64) []sessions.Message {
	if from == 0 {
		return stored
	}
	for i, m := range stored {
		if m.ID >= from {
			return stored[:i]
		}
	}
	return stored
}

// title names a new session after its first paragraph: what follows a
// blank line is usually pasted material or the chat's attachment list.
func title(prompt string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n\n")
	t := strings.Join(strings.Fields(first), " ")
	if r := []rune(t); len(r) > 60 {
		t = string(r[:60]) + "…" // by runes: a cut byte would be invalid UTF-8
	}
	return t
}

func (l *Loop) turn(ctx context.Context, req RunRequest, sid string, stored []sessions.Message, on func(Event)) (Result, error) {
	var res Result
	reg, err := l.d.Registry(ctx, req.Agent)
	if err != nil {
		return res, err
	}
	defs, err := l.toolDefs(ctx, reg, req.Agent, req.Depth, sid)
	if err != nil {
		return res, err
	}
	system, err := l.d.SystemPrompt(ctx, req.Agent, req.User)
	if err != nil {
		return res, err
	}
	if req.EmulateTools {
		system += "\n\n" + llm.EmulationPrompt(defs)
	}
	conv := newConversation(system, stored)
	user := llm.Message{Role: llm.RoleUser, Content: req.Prompt}
	if err := l.savePrompt(ctx, req, sid, user, on); err != nil {
		return res, err
	}
	conv.current = []llm.Message{user}
	mb := l.d.Inbox.open(sid)
	defer l.keepUndelivered(ctx, sid, mb)
	budget := llm.ContextWindow(req.Model) * 3 / 4
	for res.Iterations < req.MaxIterations {
		res.Iterations++
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("stopped: %w", err)
		}
		if err := l.inject(ctx, sid, conv, l.d.Inbox.take(mb, false), on); err != nil {
			return res, err
		}
		l.compact(ctx, req, sid, conv, budget, &res, on)
		creq := llm.Request{Model: req.Model, Messages: llm.Trim(conv.messages(), budget), Tools: defs}
		if req.EmulateTools {
			creq.Messages, creq.Tools = emulatedView(creq.Messages), nil
		}
		var partial strings.Builder
		resp, err := req.Provider.Stream(ctx, creq,
			func(ev llm.Event) {
				if ev.Type == llm.EventTextDelta {
					partial.WriteString(ev.Text)
					on(Event{Kind: EventText, Session: sid, Text: ev.Text})
				}
			})
		if err != nil {
			l.keepPartial(ctx, req, sid, partial.String(), err)
			return res, err
		}
		l.addUsage(ctx, sid, &res, resp.Usage, on)
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		if req.EmulateTools && len(msg.ToolCalls) == 0 {
			msg = parseEmulated(msg, res.Iterations)
		}
		conv.current = append(conv.current, msg)
		if len(msg.ToolCalls) == 0 {
			res.Text = msg.Content
			if err := l.persist(ctx, req, sid, msg); err != nil {
				return res, err
			}
			// Results that arrived while the model answered get one more
			// call; the inbox closes atomically when nothing is waiting.
			more := l.d.Inbox.take(mb, true)
			if len(more) == 0 {
				return res, nil
			}
			if err := l.inject(ctx, sid, conv, more, on); err != nil || res.Iterations >= req.MaxIterations {
				return res, err // at the limit the results stay stored for the next turn
			}
			continue
		}
		// The assistant message and its tool results are stored in one
		// transaction: a history never holds calls without their results.
		batch := []llm.Message{msg}
		searched := false
		for _, tc := range msg.ToolCalls {
			out := l.callTool(ctx, reg, req, sid, tc, on)
			conv.current = append(conv.current, out)
			batch = append(batch, out)
			searched = searched || tc.Name == toolSearch
		}
		if err := l.persist(ctx, req, sid, batch...); err != nil {
			return res, err
		}
		if searched && !req.EmulateTools {
			if defs, err = l.toolDefs(ctx, reg, req.Agent, req.Depth, sid); err != nil {
				return res, err
			}
		}
	}
	return res, ErrMaxIterations
}

func (l *Loop) addUsage(ctx context.Context, sid string, res *Result, u llm.Usage, on func(Event)) {
	res.Usage = addUsage(res.Usage, u)
	on(Event{Kind: EventUsage, Session: sid, Usage: &u})
	if u.PromptTokens+u.CompletionTokens > 0 {
		_ = l.d.Sessions.AddUsage(ctx, sid, u.PromptTokens, u.CompletionTokens)
	}
}

func (l *Loop) log() *slog.Logger {
	if l.d.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l.d.Logger
}

// callTool runs one tool call through the registry; every outcome, even an
// unknown tool or bad JSON, becomes a tool message the model can react to.
func (l *Loop) callTool(ctx context.Context, reg *tools.Registry, req RunRequest, sid string, tc llm.ToolCall, on func(Event)) llm.Message {
	on(Event{Kind: EventToolStart, Session: sid, Tool: tc.Name, CallID: tc.ID, Args: tc.Arguments})
	start := time.Now()
	ctx = tools.WithProgress(ctx, func(progress, total float64, message string) {
		on(Event{Kind: EventToolProgress, Session: sid, Tool: tc.Name, CallID: tc.ID, Progress: progress, Total: total, Text: message})
	})
	r, err := reg.ExecuteWithContext(ctx, tools.Call{
		ID: tc.ID, Name: tc.Name, Args: json.RawMessage(tc.Arguments),
		Context: tools.CallContext{
			Channel: "desktop", SandboxKey: sid, Workspace: req.Workspace, Agent: req.Agent,
			User: req.User, PeerKind: "direct", Sandbox: req.Sandbox, Network: req.Network, Profile: req.Profile, Depth: req.Depth,
		},
	})
	text := r.ForLLM
	if err != nil && !r.IsError {
		text = "ExecutionError: " + err.Error()
	}
	on(Event{Kind: EventToolEnd, Session: sid, Tool: tc.Name, CallID: tc.ID, Result: text,
		Code: string(r.Code()), DurationMS: float64(time.Since(start).Microseconds()) / 1000})
	return llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Content: text}
}

func (l *Loop) toolDefs(ctx context.Context, reg *tools.Registry, agent string, depth int, sid string) ([]llm.ToolDef, error) {
	allowed, err := l.d.Allowed(ctx, agent, depth)
	if err != nil {
		return nil, err
	}
	var defs []llm.ToolDef
	for _, t := range reg.List() {
		info := t.Info()
		if !allowed[info.Name] || (l.d.Hidden != nil && l.d.Hidden(sid, info.Name)) {
			continue
		}
		params := json.RawMessage(`{"type":"object","properties":{}}`)
		if info.Schema != nil {
			params = info.Schema.JSON()
		}
		defs = append(defs, llm.ToolDef{Name: info.Name, Description: info.Description, Parameters: params})
	}
	return defs, nil
}

func addUsage(a, b llm.Usage) llm.Usage {
	return llm.Usage{PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens,
		TotalTokens: a.TotalTokens + b.TotalTokens, Estimated: a.Estimated || b.Estimated}
}
