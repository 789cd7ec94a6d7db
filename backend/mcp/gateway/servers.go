package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/warren-dev/warren/backend/warren"
)

// leaseEvery is how often the gateway re-reads which MCP servers its agent
// may use (servers added, enabled or granted while it serves).
const leaseEvery = 5 * time.Second

// leaseServers starts the configured MCP servers the served agent may use
// (the same policy and grants as its runs) and keeps them supervised until
// ctx ends; their tools then pass through the core like any other tool.
// The returned function stops the refreshing and the servers it started.
func (g *Gateway) leaseServers(ctx context.Context) (stop func(), err error) {
	lease, report, err := g.core.LeaseMCP(ctx, warren.MCPUse{Agent: g.opts.Agent, Profile: g.opts.Profile})
	if err != nil {
		return nil, err
	}
	g.logServers(report)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(leaseEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				report, err := lease.Refresh(ctx)
				if err != nil && ctx.Err() == nil {
					g.log.Warn("mcp gateway: refresh MCP servers", "err", err)
				}
				g.logServers(report)
				g.refreshCatalog(ctx, lease.Servers())
			}
		}
	}()
	g.refreshCatalog(ctx, lease.Servers())
	return func() { cancel(); <-done; lease.Release() }, nil
}

func (g *Gateway) logServers(report []warren.MCPServerReport) {
	for _, r := range report {
		if r.Problem != "" {
			g.log.Warn("mcp gateway: MCP server not available; its tools are not served", "server", r.Server, "problem", r.Problem)
			continue
		}
		g.log.Info("mcp gateway: serving MCP server", "server", r.Server, "tools", r.Tools)
	}
}

// refuseUnusable answers a tools/call for a tool the gateway does not serve
// but whose name belongs to a configured MCP server with the reason the
// agent may not use that server, instead of mcp-go's "tool not found".
func (g *Gateway) refuseUnusable(ctx context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &req) != nil || req.Method != "tools/call" || req.Params.Name == "" {
		return nil
	}
	if _, served := g.view.Load().allowed[req.Params.Name]; served {
		return nil
	}
	if why := g.core.MCPToolRefusal(ctx, g.opts.Agent, g.opts.Profile, req.Params.Name); why != "" {
		return errors.New(why)
	}
	return nil
}
