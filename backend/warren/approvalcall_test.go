package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/warren"
)

// TestApprovalNamesTheChatCall: a tool call the model makes in a chat asks
// for approval with the call's id and session, so the chat can ask on that
// call's card; the answer given for that id reaches the run.
func TestApprovalNamesTheChatCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "tidy up", ToolCalls: []llmtest.ToolCall{{ID: "call_del_1", Name: "delete_file", Arguments: []string{`{"path":"old.txt"}`}}}, FinishReason: "tool_calls"},
		{Expect: "not approved", Chunks: []string{"I left it."}},
	}})
	w := open(t, t.TempDir())
	withProvider(t, w, srv)
	victim := filepath.Join(w.Workspace(), "old.txt")
	if err := os.WriteFile(victim, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	bus, unsubscribe := w.Bus().Subscribe(64)
	defer unsubscribe()

	var ev events
	type outcome struct {
		res agent.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "tidy up"}, ev.on)
		done <- outcome{res, err}
	}()
	var req approvals.Request
	for req.ID == "" {
		select {
		case e := <-bus:
			if r, ok := e.Payload.(approvals.Request); ok && e.Topic == approvals.TopicRequested {
				req = r
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no approval request")
		}
	}
	if req.CallID != "call_del_1" || req.Tool != "delete_file" || req.Session == "" || req.Agent != "default" {
		t.Fatalf("request %+v", req)
	}
	if !w.Approvals().Answer(req.ID, approvals.Deny) {
		t.Fatal("the answer was refused")
	}
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	if out.res.Session != req.Session {
		t.Fatalf("request session %q, run session %q", req.Session, out.res.Session)
	}
	starts := ev.of(agent.EventToolStart)
	if len(starts) != 1 || starts[0].CallID != req.CallID {
		t.Fatalf("tool start events %+v", starts)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the denied call deleted the file: %v", err)
	}
}
