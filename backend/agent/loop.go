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
}

// RunRequest is one user turn.
type RunRequest struct {
	Agent    string
	User     string
	Session  string // empty starts a new session
	Prompt   string
	Provider llm.Provider
	Model    string
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
	on(Event{Kind: EventSession, Session: sess.ID})
	res, err := l.turn(ctx, req, sess.ID, history, on)
	res.Session = sess.ID
	if err != nil {
		on(Event{Kind: EventError, Session: sess.ID, Error: err.Error()})
		return res, err
	}
	on(Event{Kind: EventDone, Session: sess.ID, Text: res.Text, Usage: &res.Usage})
	return res, nil
}

func (l *Loop) session(ctx context.Context, req RunRequest) (sessions.Session, []llm.Message, error) {
	if req.Session == "" {
		s, err := l.d.Sessions.Create(ctx, sessions.Session{Agent: req.Agent, ParentID: req.ParentSession, Title: title(req.Prompt)})
		return s, nil, err
	}
	s, err := l.d.Sessions.Get(ctx, req.Session)
	if err != nil {
		return sessions.Session{}, nil, err
	}
	if s.Agent != req.Agent {
		return sessions.Session{}, nil, fmt.Errorf("session %s belongs to agent %s, not %s", s.ID, s.Agent, req.Agent)
	}
	stored, err := l.d.Sessions.History(ctx, s.ID, 0)
	if err != nil {
		return sessions.Session{}, nil, err
	}
	return s, fromStored(stored), nil
}

func title(prompt string) string {
	t := strings.Join(strings.Fields(prompt), " ")
	if len(t) > 60 {
		t = t[:60] + "…"
	}
	return t
}

func (l *Loop) turn(ctx context.Context, req RunRequest, sid string, history []llm.Message, on func(Event)) (Result, error) {
	var res Result
	reg, err := l.d.Registry(ctx, req.Agent)
	if err != nil {
		return res, err
	}
	defs, err := l.toolDefs(ctx, reg, req.Agent, req.Depth)
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
	user := llm.Message{Role: llm.RoleUser, Content: req.Prompt}
	if err := l.persist(ctx, sid, user); err != nil {
		return res, err
	}
	msgs := append(append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, history...), user)
	for res.Iterations < req.MaxIterations {
		res.Iterations++
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("stopped: %w", err)
		}
		window := llm.ContextWindow(req.Model)
		creq := llm.Request{Model: req.Model, Messages: llm.Trim(msgs, window*3/4), Tools: defs}
		if req.EmulateTools {
			creq.Messages, creq.Tools = emulatedView(creq.Messages), nil
		}
		resp, err := req.Provider.Stream(ctx, creq,
			func(ev llm.Event) {
				if ev.Type == llm.EventTextDelta {
					on(Event{Kind: EventText, Session: sid, Text: ev.Text})
				}
			})
		if err != nil {
			return res, err
		}
		res.Usage = addUsage(res.Usage, resp.Usage)
		on(Event{Kind: EventUsage, Session: sid, Usage: &resp.Usage})
		if resp.Usage.PromptTokens+resp.Usage.CompletionTokens > 0 {
			_ = l.d.Sessions.AddUsage(ctx, sid, resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		}
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		if req.EmulateTools && len(msg.ToolCalls) == 0 {
			msg = parseEmulated(msg, res.Iterations)
		}
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			res.Text = msg.Content
			return res, l.persist(ctx, sid, msg)
		}
		// The assistant message and its tool results are stored in one
		// transaction: a history never holds calls without their results.
		batch := []llm.Message{msg}
		for _, tc := range msg.ToolCalls {
			out := l.callTool(ctx, reg, req, sid, tc, on)
			msgs = append(msgs, out)
			batch = append(batch, out)
		}
		if err := l.persist(ctx, sid, batch...); err != nil {
			return res, err
		}
	}
	return res, ErrMaxIterations
}

// callTool runs one tool call through the registry; every outcome, even an
// unknown tool or bad JSON, becomes a tool message the model can react to.
func (l *Loop) callTool(ctx context.Context, reg *tools.Registry, req RunRequest, sid string, tc llm.ToolCall, on func(Event)) llm.Message {
	on(Event{Kind: EventToolStart, Session: sid, Tool: tc.Name, CallID: tc.ID, Args: tc.Arguments})
	start := time.Now()
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

func (l *Loop) toolDefs(ctx context.Context, reg *tools.Registry, agent string, depth int) ([]llm.ToolDef, error) {
	allowed, err := l.d.Allowed(ctx, agent, depth)
	if err != nil {
		return nil, err
	}
	var defs []llm.ToolDef
	for _, t := range reg.List() {
		info := t.Info()
		if !allowed[info.Name] {
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

func (l *Loop) persist(ctx context.Context, sid string, ms ...llm.Message) error {
	stored := make([]sessions.Message, len(ms))
	for i, m := range ms {
		stored[i] = toStored(m)
	}
	return l.d.Sessions.Append(ctx, sid, stored...)
}

func addUsage(a, b llm.Usage) llm.Usage {
	return llm.Usage{PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens,
		TotalTokens: a.TotalTokens + b.TotalTokens, Estimated: a.Estimated || b.Estimated}
}

func toStored(m llm.Message) sessions.Message {
	out := sessions.Message{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, sessions.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return out
}

func fromStored(ms []sessions.Message) []llm.Message {
	out := make([]llm.Message, 0, len(ms))
	for _, m := range ms {
		msg := llm.Message{Role: llm.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
		}
		out = append(out, msg)
	}
	return out
}
