package mcp

import (
	"context"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/tools"
)

// Client features: what a server may ask of Warren while connected —
// roots/list, sampling/createMessage, elicitation/create. Warren declares a
// capability only when its handler is set, so a server that needs one
// (server-everything registers its sampling, elicitation and roots tools
// only then) sees exactly what Warren can answer.

// ClientHandlers answer a server's requests; nil handlers are not declared.
type ClientHandlers struct {
	// Roots lists the roots the server may work in (the agent's workspace).
	Roots func(ctx context.Context, from Requester) ([]mcp.Root, error)
	// Sample answers sampling/createMessage (after the user approved it).
	Sample func(ctx context.Context, from Requester, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	// Elicit asks the user what the server wants to know.
	Elicit func(ctx context.Context, from Requester, p mcp.ElicitationParams) (*mcp.ElicitationResult, error)
}

// Requester is who a server's request is made on behalf of.
type Requester struct {
	Server string
	// Agent is the agent whose tool call is in flight on the connection, or
	// whose own connection it is; "" when neither tells.
	Agent string
	// Call is the context of that tool call (nil when none): it carries the
	// call's tools.CallContext and ends when the call ends.
	Call context.Context
}

// CallContext is the tool call's context, zero when there is none.
func (r Requester) CallContext() tools.CallContext {
	if r.Call == nil {
		return tools.CallContext{}
	}
	return tools.CallContextFrom(r.Call)
}

// ErrAmbiguousCaller refuses a request that calls of several agents could
// have caused: answering it for the wrong agent would lend one agent's
// model, workspace or user to another.
var ErrAmbiguousCaller = errors.New("calls of several agents are in flight on this connection; Warren cannot tell whose request this is")

// inflight is one connection's tool calls in progress.
type inflight struct {
	mu    sync.Mutex
	next  uint64
	calls map[uint64]context.Context
}

func (f *inflight) add(ctx context.Context) (remove func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[uint64]context.Context{}
	}
	f.next++
	id := f.next
	f.calls[id] = ctx
	return func() {
		f.mu.Lock()
		delete(f.calls, id)
		f.mu.Unlock()
	}
}

// current is the latest call in flight and its agent; ambiguous is set when
// calls of different agents are in flight.
func (f *inflight) current() (call context.Context, agent string, ambiguous bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var latest uint64
	agents := map[string]bool{}
	for id, ctx := range f.calls {
		agents[tools.AgentFrom(ctx)] = true
		if id > latest {
			latest, call = id, ctx
		}
	}
	if call == nil {
		return nil, "", false
	}
	return call, tools.AgentFrom(call), len(agents) > 1
}

// clientFeatures adapts ClientHandlers to mcp-go's handler interfaces for
// one connection.
type clientFeatures struct {
	h      *ClientHandlers
	server string
	agent  string // the agent of an agent's own connection
	calls  *inflight
}

func (f *clientFeatures) requester() (Requester, error) {
	call, agent, ambiguous := f.calls.current()
	if f.agent != "" {
		if call != nil && agent != f.agent {
			return Requester{}, ErrAmbiguousCaller
		}
		agent = f.agent
	}
	if ambiguous {
		return Requester{}, ErrAmbiguousCaller
	}
	return Requester{Server: f.server, Agent: agent, Call: call}, nil
}

// bound ends ctx when the call the request belongs to ends too.
func bound(ctx context.Context, from Requester) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if from.Call == nil {
		return ctx, cancel
	}
	stop := context.AfterFunc(from.Call, cancel)
	return ctx, func() { stop(); cancel() }
}

func (f *clientFeatures) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	from, err := f.requester()
	if err != nil {
		return nil, err
	}
	ctx, cancel := bound(ctx, from)
	defer cancel()
	roots, err := f.h.Roots(ctx, from)
	if err != nil {
		return nil, err
	}
	if roots == nil {
		roots = []mcp.Root{}
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

func (f *clientFeatures) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	from, err := f.requester()
	if err != nil {
		return nil, err
	}
	ctx, cancel := bound(ctx, from)
	defer cancel()
	return f.h.Sample(ctx, from, req.CreateMessageParams)
}

func (f *clientFeatures) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	from, err := f.requester()
	if err != nil {
		return nil, err
	}
	ctx, cancel := bound(ctx, from)
	defer cancel()
	return f.h.Elicit(ctx, from, req.Params)
}

// options are the mcp-go client options declaring what h can answer.
func (f *clientFeatures) options() []client.ClientOption {
	if f == nil || f.h == nil {
		return nil
	}
	var opts []client.ClientOption
	if f.h.Roots != nil {
		opts = append(opts, client.WithRootsHandler(f))
	}
	if f.h.Sample != nil {
		opts = append(opts, client.WithSamplingHandler(f))
	}
	if f.h.Elicit != nil {
		opts = append(opts, client.WithElicitationHandler(f))
	}
	return opts
}

// RootsChanged tells every connected server that declared interest that
// the roots changed (an agent's workspace moved); servers ask roots/list again.
func (m *Manager) RootsChanged(ctx context.Context) {
	if m.opts.Client == nil || m.opts.Client.Roots == nil {
		return
	}
	for _, s := range m.allSupervised() {
		s.mu.Lock()
		c := s.conn
		s.mu.Unlock()
		if c != nil && c.client != nil {
			if err := c.client.RootListChanges(ctx); err != nil {
				m.opts.Logger.Debug("mcp roots/list_changed", "server", s.cfg.Name, "err", err)
			}
		}
	}
}
