// Package gateway serves Warren's tool registry to MCP clients (Claude
// Desktop, IDEs): `warren mcp serve`. Clients see exactly the tools one agent
// may use, and every call runs through the core's full pipeline (policy gate,
// rate limit, approvals, sandbox routing, scrubbing, events) by way of
// warren.CallTool; the gateway adds transport, never a shortcut.
package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/warren"
)

// Channel is the CallRequest channel of every call the gateway makes.
const Channel = "mcp"

// SessionPrefix starts the session key of every gateway call ("mcp:claude-ai").
const SessionPrefix = "mcp:"

// DefaultRefreshInterval is how often the tool list is compared with the
// registry and the policy (custom tools hot reload, even from other processes).
const DefaultRefreshInterval = time.Second

// Options configures a Gateway.
type Options struct {
	// Agent whose policy filters the tools; empty means "default".
	Agent string
	// Profile is the policy profile tools are listed and calls judged by;
	// empty means the active one.
	Profile string
	// Logger receives diagnostics; nil discards them. In stdio mode it must
	// not write to stdout.
	Logger *slog.Logger
	// Approve, when set, answers approval requests of MCP calls
	// automatically; nil leaves them to another answerer or the timeout.
	Approve *approvals.Decision
	// RefreshInterval overrides DefaultRefreshInterval.
	RefreshInterval time.Duration
	// AllowedOrigins are browser origins ("http://localhost:6274") whose
	// pages may call the HTTP transport besides the server's own loopback
	// origin; they also get CORS answers. The bearer token is still needed.
	// "*" and "null" are refused (see originGuard).
	AllowedOrigins []string
}

// Gateway is an MCP server over one Warren core.
type Gateway struct {
	core *warren.Warren
	opts Options
	log  *slog.Logger
	srv  *server.MCPServer

	refreshMu sync.Mutex
	view      atomic.Pointer[toolView]
	// catalogMu guards catalogSum, the pass-through resources and prompts
	// last served (catalog.go).
	catalogMu  sync.Mutex
	catalogSum [32]byte
	// calls numbers the calls, so their approval requests can be found (elicit.go).
	calls atomic.Uint64
}

// toolView is the policy picture the MCP tool list was built from.
type toolView struct {
	fingerprint [32]byte
	allowed     map[string]bool
}

// New returns a gateway; the tool list is built by Refresh or when serving starts.
func New(core *warren.Warren, opts Options) *Gateway {
	if opts.Agent == "" {
		opts.Agent = "default"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.RefreshInterval <= 0 {
		opts.RefreshInterval = DefaultRefreshInterval
	}
	g := &Gateway{core: core, opts: opts, log: opts.Logger}
	g.view.Store(&toolView{allowed: map[string]bool{}})
	hooks := &server.Hooks{}
	hooks.AddOnRequestInitialization(g.refuseUnusable)
	g.srv = server.NewMCPServer("warren", warren.Version,
		server.WithHooks(hooks),
		server.WithTitle("Warren"),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithToolFilter(g.filterTools),
		server.WithRecovery(),
		server.WithInstructions(g.instructions()),
	)
	core.ForwardElicitation(g.forwardElicitation)
	return g
}

// Server returns the underlying mcp-go server (for other transports).
func (g *Gateway) Server() *server.MCPServer { return g.srv }

// Agent returns the agent whose tools are served.
func (g *Gateway) Agent() string { return g.opts.Agent }

func (g *Gateway) instructions() string {
	return fmt.Sprintf("Warren's tools for agent %q. File paths are relative to the workspace %s "+
		"(the workspace_dir tool prints it). Risky commands need a human's approval and may be refused; "+
		"error results start with a code such as PolicyDenied or PermissionDenied and say why.",
		g.opts.Agent, g.core.Workspace())
}

// Refresh rebuilds the tool list when the registry or the policy changed
// since the last call and then notifies clients (tools/list_changed). An
// unknown agent or profile is an error (warren.ErrUnknownAgent,
// policy.ErrUnknownProfile).
func (g *Gateway) Refresh(ctx context.Context) error {
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	inv, err := g.core.Inventory(ctx, warren.InventoryRequest{Profile: g.opts.Profile, Agent: g.opts.Agent})
	if err != nil {
		return err
	}
	// Calls are judged by the same profile (warren.CallRequest.Profile).
	view := &toolView{allowed: map[string]bool{}}
	h := sha256.New()
	entries := make([]server.ServerTool, 0, len(inv))
	var skipped []string
	for _, t := range inv {
		view.allowed[t.Name] = t.Allowed
		tool := mcpTool(t)
		if err := mcp.ValidateParamHeaderAnnotations(&tool); err != nil {
			// mcp-go panics on such a definition; skip the tool, keep serving.
			skipped = append(skipped, fmt.Sprintf("%s (%v)", t.Name, err))
			h.Write([]byte(skipped[len(skipped)-1]))
			continue
		}
		b, _ := json.Marshal(struct {
			T       mcp.Tool
			Allowed bool
			Reason  string
		}{tool, t.Allowed, t.Reason})
		h.Write(b)
		entries = append(entries, server.ServerTool{Tool: tool, Handler: g.callTool})
	}
	copy(view.fingerprint[:], h.Sum(nil))
	if old := g.view.Load(); old.fingerprint == view.fingerprint {
		return nil
	}
	// Blocked tools are registered too, hidden from tools/list by
	// filterTools, so a call by name gets a result naming the policy reason
	// instead of "tool not found". A lone blocked tool would show in the
	// list (see filterTools), so it is left out.
	if len(entries) == 1 && !view.allowed[entries[0].Tool.Name] {
		entries = nil
	}
	g.view.Store(view)
	g.srv.SetTools(entries...) // sends notifications/tools/list_changed
	g.log.Debug("mcp gateway: tool list updated", "tools", len(entries))
	if len(skipped) > 0 {
		g.log.Warn("mcp gateway: tools with invalid x-mcp-header annotations are not served", "tools", skipped)
	}
	return nil
}

// filterTools hides blocked tools from tools/list. mcp-go also runs the
// filters at call time with only the requested tool; that one passes so
// callTool can refuse it with the reason.
func (g *Gateway) filterTools(_ context.Context, in []mcp.Tool) []mcp.Tool {
	if len(in) == 1 {
		return in
	}
	view := g.view.Load()
	out := make([]mcp.Tool, 0, len(in))
	for _, t := range in {
		if view.allowed[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// mcpTool converts an inventory row to an MCP tool definition.
func mcpTool(t warren.ToolInfo) mcp.Tool {
	desc := t.Description
	if t.LongDescription != "" {
		desc += "\n\n" + t.LongDescription
	}
	schema := t.Schema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	tool := mcp.NewToolWithRawSchema(t.Name, desc, schema)
	readOnly := t.Danger == "safe"
	destructive := t.Danger == "dangerous" || t.Danger == "critical"
	tool.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &readOnly, DestructiveHint: &destructive}
	return tool
}

// watch refreshes the tool list until ctx ends.
func (g *Gateway) watch(ctx context.Context) {
	tick := time.NewTicker(g.opts.RefreshInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if err := g.Refresh(ctx); err != nil && ctx.Err() == nil {
				g.log.Warn("mcp gateway: refresh tool list", "err", err)
			}
		}
	}
}

// start runs the background work of one transport (tool-list refresh,
// approval answers); the returned function stops it and waits.
func (g *Gateway) start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { g.watch(ctx) })
	wg.Go(func() { g.answerApprovals(ctx) })
	return func() { cancel(); wg.Wait() }
}
