package gateway

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/warren-dev/warren/backend/approvals"
	wmcp "github.com/warren-dev/warren/backend/mcp"
)

// askByElicitation asks the calling client's user, through MCP
// elicitation, to answer the approval requests of one call (callID), when
// the client declared it can (and --approve does not answer them). The
// first answer wins as always: the window, `warren approvals answer` and
// the timeout still settle a request the user leaves open. The returned
// function stops asking.
func (g *Gateway) askByElicitation(ctx context.Context, callID string) (stop func()) {
	if g.opts.Approve != nil || !clientElicits(ctx) {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	asked := map[string]bool{}
	var asking sync.WaitGroup
	go func() {
		defer close(done)
		// Pending reads the shared database: sweep only now and then.
		g.watchRequests(ctx, 64, time.Second, func(req approvals.Request) {
			if req.CallID != callID || req.Origin != nil || asked[req.ID] {
				return
			}
			asked[req.ID] = true
			asking.Go(func() { g.elicitApproval(ctx, req) })
		}, nil)
	}()
	return func() { cancel(); <-done; asking.Wait() }
}

// forwardElicitation passes an upstream server's question (elicitation
// during a pass-through call) to the calling client's user, when that
// client declared elicitation; otherwise Warren's own rules apply (no
// window or terminal here: declined with a reason).
func (g *Gateway) forwardElicitation(_ context.Context, from wmcp.Requester, p mcp.ElicitationParams) (*mcp.ElicitationResult, bool, error) {
	if from.Call == nil || !clientElicits(from.Call) {
		return nil, false, nil
	}
	// The call's context names the client session to ask, and ends with the call.
	res, err := g.srv.RequestElicitation(from.Call, mcp.ElicitationRequest{Params: p})
	if err != nil {
		return nil, true, fmt.Errorf("asking the client of the gateway: %w", err)
	}
	return res, true, nil
}

// clientElicits reports whether the calling client declared elicitation.
func clientElicits(ctx context.Context) bool {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	return ok && s.GetClientCapabilities().Elicitation != nil
}

// decisionField is the one field of the approval form.
const decisionField = "decision"

// elicitApproval shows one approval request to the client's user and
// answers it with their choice: accept with yes/always/no, decline = no,
// cancel = no answer from here.
func (g *Gateway) elicitApproval(ctx context.Context, req approvals.Request) {
	msg := fmt.Sprintf("Warren asks: allow %s?\n%s\nWhy it needs approval: %s", req.Tool, g.core.Scrub(req.Summary), req.Reason)
	if req.Cwd != "" {
		msg += "\nIn: " + req.Cwd
	}
	ereq := mcp.ElicitationRequest{Params: mcp.ElicitationParams{
		Message: msg,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{decisionField: map[string]any{
				"type": "string", "title": "Answer",
				"enum":        []string{"yes", "always", "no"},
				"enumNames":   []string{"Allow once", "Always allow this", "Deny"},
				"description": "yes allows this once; always also stores the pattern; no denies",
			}},
			"required": []string{decisionField},
		},
	}}
	res, err := g.srv.RequestElicitation(ctx, ereq)
	if err != nil {
		if ctx.Err() == nil {
			g.log.Info("mcp gateway: could not ask the client about an approval; it waits for another answer",
				"id", req.ID, "tool", req.Tool, "err", err)
		}
		return
	}
	d, how := approvals.Deny, "declined"
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		content, _ := res.Content.(map[string]any)
		answer, _ := content[decisionField].(string)
		if d, err = approvals.ParseDecision(answer); err != nil {
			d, how = approvals.Deny, fmt.Sprintf("answered %q, read as no", answer)
		} else {
			how = "accepted"
		}
	case mcp.ElicitationResponseActionDecline:
	default:
		g.log.Info("mcp gateway: the client's user cancelled an approval question; it waits for another answer", "id", req.ID)
		return
	}
	if g.core.Approvals().Answer(req.ID, d) {
		g.log.Info("mcp gateway: approval answered through the client", "id", req.ID, "decision", d.String(), "how", how, "tool", req.Tool)
	}
}
