package warren

import (
	"context"
	"sync"

	"github.com/warren-dev/warren/backend/mcp"
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
	var out []tools.Info
	for _, t := range reg.List() {
		if b, ok := t.(mcp.Bridged); ok && b.Deferred() && dec.Allowed(t.Info().Name) {
			out = append(out, t.Info())
		}
	}
	return out, nil
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

// hidden reports whether a tool is deferred and not loaded in the session,
// so the model's tool list leaves it out.
func (d *deferredTools) hidden(reg *tools.Registry, session, name string) bool {
	t, ok := reg.Get(name)
	if !ok {
		return false
	}
	b, ok := t.(mcp.Bridged)
	if !ok || !b.Deferred() {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.loaded[session][name]
}
