package warren

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/knowledge"
)

// deferredTools implements tool_search's catalog: tools of deferred MCP
// servers stay registered (so policy, grants and approvals judge every
// call) but are offered to a model only once its session loaded them.
type deferredTools struct {
	w  *Warren
	mu sync.Mutex
	// loaded is per session: tool name set.
	loaded map[string]map[string]bool
}

func (w *Warren) initToolSearch() error {
	w.deferred = &deferredTools{w: w, loaded: map[string]map[string]bool{}}
	t, err := knowledge.NewToolSearch(w.deferred)
	if err != nil {
		return err
	}
	return w.registry.Register(t)
}

// Deferred lists the deferred tools the calling agent's policy and grants allow.
func (d *deferredTools) Deferred(ctx context.Context) ([]tools.Info, error) {
	cc := tools.CallContextFrom(ctx)
	reg, err := d.w.registryFor(ctx, cc.Agent)
	if err != nil {
		return nil, err
	}
	dec, err := d.w.decisionAt(reg, cc.Profile, cc.Agent, cc.Depth)
	if err != nil {
		return nil, err
	}
	all := d.w.deferAllMCP(reg, dec, cc.Agent)
	var out []tools.Info
	for _, t := range reg.List() {
		if b, ok := t.(mcp.Bridged); ok && (all || b.Deferred()) && dec.Allowed(t.Info().Name) {
			out = append(out, t.Info())
		}
	}
	return out, nil
}

// deferAllMCP reports whether the agent is offered more MCP tools than its
// mcp.defer_above threshold, so all of them wait behind tool_search.
func (w *Warren) deferAllMCP(reg *tools.Registry, dec policy.Decision, agent string) bool {
	limit := deferAbove(w.settings.get(SettingMCPDeferAbove), agent)
	if limit <= 0 {
		return false
	}
	n := 0
	for _, t := range reg.List() {
		if _, ok := t.(mcp.Bridged); ok && dec.Allowed(t.Info().Name) {
			n++
		}
	}
	return n > limit
}

// SettingMCPDeferAbove is the MCP tool count above which an agent's MCP
// tools all wait behind tool_search: "N" or "N,AGENT=N,…".
const SettingMCPDeferAbove = "mcp.defer_above"

// parseDeferAbove checks and normalises an mcp.defer_above value.
func parseDeferAbove(v string) (string, error) {
	parts := strings.Split(v, ",")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		agent, num, hasAgent := strings.Cut(p, "=")
		if !hasAgent {
			num, agent = p, ""
		}
		agent, num = strings.TrimSpace(agent), strings.TrimSpace(num)
		switch {
		case i == 0 && hasAgent:
			return "", fmt.Errorf("%q: start with the number for every agent, e.g. 40,%s", v, p)
		case i > 0 && !hasAgent:
			return "", fmt.Errorf("%q: after the first number, give AGENT=NUMBER (got %q)", v, p)
		case hasAgent && agent == "":
			return "", fmt.Errorf("%q: %q names no agent", v, p)
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 {
			return "", fmt.Errorf("%q: %q is not a whole number of tools (0 or more)", v, num)
		}
		if hasAgent {
			out = append(out, agent+"="+strconv.Itoa(n))
		} else {
			out = append(out, strconv.Itoa(n))
		}
	}
	return strings.Join(out, ","), nil
}

// deferAbove reads agent's threshold from a normalised mcp.defer_above value.
func deferAbove(v, agent string) int {
	parts := strings.Split(v, ",")
	limit, _ := strconv.Atoi(parts[0])
	for _, p := range parts[1:] {
		if a, num, _ := strings.Cut(p, "="); a == agent {
			limit, _ = strconv.Atoi(num)
		}
	}
	return limit
}

// Load marks tools as loaded for the call's session.
func (d *deferredTools) Load(ctx context.Context, names []string) {
	session := tools.CallContextFrom(ctx).SandboxKey
	d.mu.Lock()
	defer d.mu.Unlock()
	set := d.loaded[session]
	if set == nil {
		set = map[string]bool{}
		d.loaded[session] = set
	}
	for _, n := range names {
		set[n] = true
	}
}

// hidden reports whether a tool is deferred (all MCP tools are, with
// all) and not loaded in the session, so the model's tool list leaves it out.
func (d *deferredTools) hidden(reg *tools.Registry, session, name string, all bool) bool {
	t, ok := reg.Get(name)
	if !ok {
		return false
	}
	b, ok := t.(mcp.Bridged)
	if !ok || (!all && !b.Deferred()) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.loaded[session][name]
}
