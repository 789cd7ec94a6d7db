package runtime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
)

// TestHostApprovalNamesTheCall: a command exec asks about on the host
// carries the call's id, agent and session, so the chat can ask on the
// card of the call that waits.
func TestHostApprovalNamesTheCall(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	bus := events.New()
	svc := approvals.New(approvals.Options{Store: approvals.NewSQLStore(db.SQL()), Bus: bus})
	ch, unsubscribe := bus.Subscribe(16)
	t.Cleanup(unsubscribe)
	asked := make(chan approvals.Request, 4)
	go func() {
		for ev := range ch {
			if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
				asked <- req
				svc.Answer(req.ID, approvals.Deny)
			}
		}
	}()
	host := &sandbox.Host{}
	ts, err := Tools(Deps{Workspace: t.TempDir(), Approvals: svc,
		Runner: func(context.Context, string) (sandbox.Runner, error) { return host, nil }})
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := json.Marshal(map[string]any{"command": "ldd /bin/true"})
	res, err := r.ExecuteWithContext(context.Background(), tools.Call{ID: "call_exec_9", Name: "exec", Args: raw,
		Context: tools.CallContext{Agent: "coder", SandboxKey: "sess-1"}})
	if err != nil || res.Code() != tools.CodePermission {
		t.Fatalf("result %+v %v", res, err)
	}
	req := <-asked
	if req.CallID != "call_exec_9" || req.Agent != "coder" || req.Session != "sess-1" || req.Tool != "exec" {
		t.Fatalf("request %+v", req)
	}
}
