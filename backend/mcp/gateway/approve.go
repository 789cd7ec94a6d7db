package gateway

import (
	"context"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
)

// sweepEvery bounds how long a request waits when its event was dropped
// (the bus never blocks publishers, so a busy subscriber can miss one).
const sweepEvery = 250 * time.Millisecond

// answerApprovals logs the approval requests of MCP calls and, with
// Options.Approve, answers them (as `warren tool call --approve` does).
// Without it, requests wait for another answerer (a running Warren window
// shows them through the shared database) or time out as denied; the tool
// result then says "not approved (timeout)". Only this process's requests of
// MCP sessions are touched: a core shared with the window keeps its own, and
// another `warren mcp serve` process's requests (listed by Pending with an
// Origin) are never answered by this one's --approve.
func (g *Gateway) answerApprovals(ctx context.Context) {
	seen := map[string]bool{}
	handle := func(req approvals.Request) {
		if req.Origin != nil || !strings.HasPrefix(req.Session, SessionPrefix) || seen[req.ID] {
			return
		}
		seen[req.ID] = true
		summary := g.core.Scrub(req.Summary)
		if g.opts.Approve == nil {
			g.log.Warn("mcp gateway: approval needed; answer it in the Warren window or with `warren approvals answer "+req.ID+
				" yes|no|always` (denied when it times out; see --approve)",
				"id", req.ID, "tool", req.Tool, "summary", summary, "why", req.Reason, "session", req.Session)
			return
		}
		d := *g.opts.Approve
		if !g.core.Approvals().Answer(req.ID, d) {
			return // already settled elsewhere
		}
		g.log.Info("mcp gateway: approval answered by --approve", "decision", d.String(),
			"tool", req.Tool, "summary", summary, "why", req.Reason, "session", req.Session)
	}
	g.watchRequests(ctx, 256, sweepEvery, handle, func(live map[string]bool) {
		for id := range seen {
			if !live[id] {
				delete(seen, id)
			}
		}
	})
}

// watchRequests hands handle every approval request published on the bus
// until ctx ends and, every sweep, every pending one (the bus drops events
// for a busy subscriber); swept, when set, then gets the pending IDs.
func (g *Gateway) watchRequests(ctx context.Context, buffer int, sweep time.Duration, handle func(approvals.Request), swept func(live map[string]bool)) {
	ch, unsubscribe := g.core.Bus().Subscribe(buffer)
	defer unsubscribe()
	tick := time.NewTicker(sweep)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-ch:
			if !ok {
				return
			}
			if req, isReq := ev.Payload.(approvals.Request); isReq && ev.Topic == approvals.TopicRequested {
				handle(req)
			}
		case <-tick.C:
			pending := g.core.Approvals().Pending()
			live := make(map[string]bool, len(pending))
			for _, req := range pending {
				live[req.ID] = true
				handle(req)
			}
			if swept != nil {
				swept(live)
			}
		}
	}
}
