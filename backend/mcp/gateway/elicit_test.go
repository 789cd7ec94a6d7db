package gateway_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
)

// elicitor answers elicitation requests like a client's user would.
type elicitor struct {
	mu       sync.Mutex
	messages []string
	answer   func() *mcp.ElicitationResult
}

func (e *elicitor) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.mu.Lock()
	e.messages = append(e.messages, req.Params.Message)
	answer := e.answer
	e.mu.Unlock()
	return answer(), nil
}

// elicitingClient connects to the gateway at url as a client that answers
// elicitation with e.
func elicitingClient(t *testing.T, url string, e *elicitor) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithContinuousListening()) //nolint:staticcheck // SA1019: server-initiated requests need the pre-2026 protocol
	must(t, err)
	t.Cleanup(func() { _ = c.Close() })
	c = client.NewClient(c.GetTransport(), client.WithElicitationHandler(e))
	must(t, c.Start(context.Background()))
	initialize(t, c)
	return c
}

func accept(decision string) func() *mcp.ElicitationResult {
	return func() *mcp.ElicitationResult {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
			Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"decision": decision}}}
	}
}

// TestApprovalByElicitation: a client that supports elicitation is asked
// about its own calls' approvals, and its user's answer settles them.
func TestApprovalByElicitation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	core := openCore(t, warren.Options{ApprovalTimeout: 30 * time.Second})
	url := serveHTTP(t, gateway.New(core, gateway.Options{}))
	e := &elicitor{answer: accept("yes")}
	c := elicitingClient(t, url, e)

	text, isErr := call(t, c, "exec", map[string]any{"command": "ldd /bin/true"})
	if isErr || !strings.Contains(text, "libc") {
		t.Fatalf("exec allowed through elicitation: %v %q", isErr, text)
	}
	e.mu.Lock()
	if len(e.messages) != 1 || !strings.Contains(e.messages[0], "allow exec") || !strings.Contains(e.messages[0], "ldd") {
		t.Fatalf("elicitation messages: %q", e.messages)
	}
	e.answer = func() *mcp.ElicitationResult {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}
	}
	e.mu.Unlock()
	text, isErr = call(t, c, "exec", map[string]any{"command": "ldd /bin/true"})
	if !isErr || !strings.Contains(text, "not approved") {
		t.Fatalf("exec declined through elicitation: %v %q", isErr, text)
	}
	audit, err := core.Approvals().Audit(ctx, 10)
	must(t, err)
	if len(audit) < 2 || audit[0].Decision != "deny" {
		t.Fatalf("audit: %+v", audit)
	}
}

// TestUpstreamElicitationPassesThrough: a pass-through server's question
// during a call reaches the gateway's client (when it elicits), and the
// client user's answer reaches the server.
func TestUpstreamElicitationPassesThrough(t *testing.T) {
	t.Parallel()
	core := openCore(t, warren.Options{})
	addPassThrough(t, core)
	url := serveHTTP(t, gateway.New(core, gateway.Options{RefreshInterval: 50 * time.Millisecond}))
	e := &elicitor{answer: func() *mcp.ElicitationResult {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
			Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada via the gateway"}}}
	}}
	c := elicitingClient(t, url, e)
	text, isErr := call(t, c, "mcp_ev_trigger-elicitation-request", map[string]any{})
	if isErr || !strings.Contains(text, "Ada via the gateway") {
		t.Fatalf("pass-through elicitation: %v %q", isErr, text)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.messages) != 1 || !strings.Contains(e.messages[0], "Please provide inputs") {
		t.Fatalf("the client was asked %q", e.messages)
	}
}
