package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/backend/events"
)

// Scrubber redacts credentials from text.
type Scrubber interface {
	Scrub(text string) string
}

// RateLimiter decides whether a session may make another call now.
type RateLimiter interface {
	Allow(key string) (ok bool, retryAfter time.Duration)
}

// Gate is the policy check run before every call; reason explains a denial.
type Gate func(ctx context.Context, tool Info) (allowed bool, reason string)

// Approver asks a human before a tool that requires confirmation runs; it
// blocks until an answer, a timeout or ctx. reason explains a refusal.
type Approver func(ctx context.Context, info Info, args json.RawMessage) (allowed bool, reason string, err error)

// Options configures the cross-cutting concerns every call goes through.
type Options struct {
	Scrubber Scrubber
	Limiter  RateLimiter
	Bus      *events.Bus
	Logger   *slog.Logger
	Gate     Gate
	// Approver handles tools whose Info.RequiresConfirmation is set; with
	// no Approver such tools are refused, never run unconfirmed.
	Approver Approver
	// Unknown, when set, may explain a call of a tool the registry does not
	// have (a tool of an MCP server the agent may not use, say); false keeps
	// the plain "unknown tool" result.
	Unknown func(ctx context.Context, call Call) (Result, bool)
}

// Registry holds the tools an agent can call and runs every call through the
// same pipeline. It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
	opts  Options
	seq   *atomic.Uint64
	gen   atomic.Uint64
}

// NewRegistry returns an empty registry.
func NewRegistry(opts Options) *Registry {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Registry{tools: map[string]Tool{}, opts: opts, seq: new(atomic.Uint64)}
}

// Register adds a tool; a duplicate name is an error.
func (r *Registry) Register(t Tool) error {
	if t == nil {
		return fmt.Errorf("register: nil tool")
	}
	name := t.Info().Name
	if name == "" {
		return fmt.Errorf("register: tool without a name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[name]; dup {
		return fmt.Errorf("register: tool %q already registered", name)
	}
	r.tools[name] = t
	r.gen.Add(1)
	return nil
}

// RegisterAll registers each tool in turn and stops at the first error.
func (r *Registry) RegisterAll(ts ...Tool) error {
	for _, t := range ts {
		if err := r.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// Replace adds or replaces a tool (used for hot reloads).
func (r *Registry) Replace(t Tool) {
	r.mu.Lock()
	r.tools[t.Info().Name] = t
	r.gen.Add(1)
	r.mu.Unlock()
}

// Unregister removes a tool; it reports whether it was present.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.tools[name]
	delete(r.tools, name)
	r.gen.Add(1)
	return ok
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	return t, ok
}

// List returns all tools sorted by group, then name.
func (r *Registry) List() []Tool {
	r.mu.RLock()
	out := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Info(), out[j].Info()
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		return a.Name < b.Name
	})
	return out
}

// Clone returns a registry with the same tools and options whose tool set can
// change independently (per-agent registries).
func (r *Registry) Clone() *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := &Registry{tools: make(map[string]Tool, len(r.tools)), opts: r.opts, seq: r.seq}
	for k, v := range r.tools {
		c.tools[k] = v
	}
	return c
}

// WithGate returns a clone that checks calls with gate instead.
func (r *Registry) WithGate(gate Gate) *Registry {
	c := r.Clone()
	c.opts.Gate = gate
	return c
}

// Call is one tool invocation.
type Call struct {
	// ID identifies the call in events; generated when empty.
	ID      string
	Name    string
	Args    json.RawMessage
	Context CallContext
}

// ToolEvent is the payload of tool lifecycle events.
type ToolEvent struct {
	CallID     string    `json:"call_id"`
	Tool       string    `json:"tool"`
	Group      string    `json:"group,omitempty"`
	Agent      string    `json:"agent,omitempty"`
	Session    string    `json:"session,omitempty"`
	Args       string    `json:"args,omitempty"`
	Code       ErrorCode `json:"code,omitempty"`
	Message    string    `json:"message,omitempty"`
	DurationMS float64   `json:"duration_ms,omitempty"`
}

// ExecuteWithContext runs one call through the pipeline: find the tool,
// inject the per-call context values, check policy, rate limit, validate the
// arguments, execute (a panic becomes an ExecutionError result), scrub every
// text the result carries, then publish the outcome with its duration. The Go
// error is non-nil only for infrastructure failures; the Result then still
// carries an ExecutionError the model can read.
func (r *Registry) ExecuteWithContext(ctx context.Context, call Call) (Result, error) {
	start := time.Now()
	if call.ID == "" {
		call.ID = "call-" + strconv.FormatUint(r.seq.Add(1), 10)
	}
	t, ok := r.Get(call.Name)
	if !ok {
		res := Errorf(CodeNotFound, "unknown tool %q", call.Name)
		if r.opts.Unknown != nil {
			if why, ok := r.opts.Unknown(ctx, call); ok {
				res = r.scrubResult(why)
			}
		}
		res.Duration = time.Since(start)
		return res, nil
	}
	info := t.Info()
	call.Context.CallID = call.ID
	ctx = WithCallContext(ctx, call.Context)
	ev := ToolEvent{
		CallID: call.ID, Tool: info.Name, Group: info.Group,
		Agent: call.Context.Agent, Session: call.Context.SandboxKey,
		Args: r.scrub(Clip(string(call.Args), 2048)),
	}
	r.publish(events.TopicToolStart, ev)

	res, err := r.run(ctx, t, info, call)
	res = r.scrubResult(res)
	res.Duration = time.Since(start)

	ev.DurationMS = float64(res.Duration.Microseconds()) / 1000
	if res.IsError {
		ev.Code, ev.Message = res.Error.Code, res.Error.Message
		r.publish(events.TopicToolError, ev)
	} else {
		r.publish(events.TopicToolComplete, ev)
	}
	r.opts.Logger.LogAttrs(ctx, slog.LevelDebug, "tool call",
		slog.String("tool", info.Name), slog.String("code", string(res.Code())),
		slog.Duration("duration", res.Duration))
	return res, err
}

func (r *Registry) run(ctx context.Context, t Tool, info Info, call Call) (res Result, err error) {
	if r.opts.Gate != nil {
		if ok, reason := r.opts.Gate(ctx, info); !ok {
			return Errorf(CodePolicyDenied, "tool %s is not allowed: %s", info.Name, reason), nil
		}
	}
	if r.opts.Limiter != nil {
		if ok, wait := r.opts.Limiter.Allow(call.Context.SandboxKey); !ok {
			res := Errorf(CodeRateLimited, "rate limit exceeded for this session; retry in %s", wait.Round(time.Millisecond))
			res.Error.RetryAfterMS = wait.Milliseconds()
			return res, nil
		}
	}
	if info.Schema != nil {
		if verr := info.Schema.Validate(call.Args); verr != nil {
			return Errorf(CodeValidation, "%s: %v", info.Name, verr), nil
		}
	}
	if pc, ok := t.(Prechecker); ok {
		if refusal, ok := pc.Precheck(ctx, call.Args); !ok {
			return refusal, nil
		}
	}
	if info.RequiresConfirmation {
		if r.opts.Approver == nil {
			return Errorf(CodePermission, "%s requires confirmation and no one can approve it here", info.Name), nil
		}
		ok, reason, aerr := r.opts.Approver(ctx, info, call.Args)
		if aerr != nil {
			return Errorf(CodeExecution, "%s: approval failed: %v", info.Name, aerr), fmt.Errorf("approve %s: %w", info.Name, aerr)
		}
		if !ok {
			return Errorf(CodePermission, "%s was not approved: %s", info.Name, reason), nil
		}
	}
	if cerr := ctx.Err(); cerr != nil {
		return Errorf(CodeTimeout, "%s was cancelled before it started: %v", info.Name, cerr), nil
	}
	defer func() {
		if p := recover(); p != nil {
			r.opts.Logger.Error("tool panicked", "tool", info.Name, "panic", p, "stack", string(debug.Stack()))
			res, err = Errorf(CodeExecution, "%s failed unexpectedly (internal error: %v)", info.Name, p), nil
		}
	}()
	res, err = t.Execute(ctx, call.Args)
	if err != nil {
		if !res.IsError {
			res = Errorf(CodeExecution, "%s failed: %v", info.Name, err)
		}
		return res, fmt.Errorf("tool %s: %w", info.Name, err)
	}
	if res.IsError && res.Error == nil {
		res.Error = &ResultError{Code: CodeExecution, Message: res.ForLLM}
	}
	return res, nil
}

func (r *Registry) scrub(s string) string {
	if r.opts.Scrubber == nil || s == "" {
		return s
	}
	return r.opts.Scrubber.Scrub(s)
}

func (r *Registry) scrubResult(res Result) Result {
	same := res.ForUser == res.ForLLM // Text results carry one string twice
	res.ForLLM = r.scrub(res.ForLLM)
	if same {
		res.ForUser = res.ForLLM
	} else {
		res.ForUser = r.scrub(res.ForUser)
	}
	if res.Error != nil {
		e := *res.Error
		e.Message = r.scrub(e.Message)
		res.Error = &e
	}
	return res
}

func (r *Registry) publish(topic events.Topic, ev ToolEvent) {
	if r.opts.Bus != nil {
		r.opts.Bus.Publish(events.Event{Topic: topic, Payload: ev})
	}
}

// WithTools returns a clone with engine-scoped or runtime-injected tools
// added for one run or task (mistermorph's phases A.5 and B); the base
// registry never sees them, so concurrent tasks cannot leak tools into each
// other. Static tools belong in the base registry and are refused here.
func (r *Registry) WithTools(ts ...Tool) (*Registry, error) {
	c := r.Clone()
	for _, t := range ts {
		if t == nil {
			return nil, fmt.Errorf("inject: nil tool")
		}
		if info := t.Info(); info.Class == ClassStatic {
			return nil, fmt.Errorf("inject %s: static tools are registered at start-up, not per task", info.Name)
		}
		if err := c.Register(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Generation changes whenever the tool set changes, so callers can cache
// anything derived from it (such as policy decisions).
func (r *Registry) Generation() uint64 { return r.gen.Load() }
