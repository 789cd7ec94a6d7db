package messaging_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/messaging"
)

func sessionStore(t *testing.T) (sessions.Store, string) {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	st := sessions.NewSQLStore(db.SQL())
	s, err := st.Create(context.Background(), sessions.Session{Agent: "builder"})
	if err != nil {
		t.Fatal(err)
	}
	return st, s.ID
}

func registry(t *testing.T, d messaging.Deps) *tools.Registry {
	t.Helper()
	ts, err := messaging.Tools(d)
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{Bus: d.Bus})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func call(t *testing.T, r *tools.Registry, session, args string) tools.Result {
	t.Helper()
	res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: "message", Args: json.RawMessage(args),
		Context: tools.CallContext{Agent: "builder", SandboxKey: session}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// userMessage waits for the message.user event among the tool's own events.
func userMessage(t *testing.T, ch <-chan events.Event) messaging.Message {
	t.Helper()
	for ev := range ch {
		if ev.Topic == messaging.TopicUserMessage {
			return ev.Payload.(messaging.Message)
		}
	}
	t.Fatal("bus closed without a message.user event")
	return messaging.Message{}
}

// TestMessageWithoutNotifications: on a machine that cannot show
// notifications the message is still delivered, and the result says why
// the notification was skipped, without being an error.
func TestMessageWithoutNotifications(t *testing.T) {
	t.Parallel()
	st, sid := sessionStore(t)
	bus := events.New()
	ch, unsubscribe := bus.Subscribe(8)
	defer unsubscribe()
	reg := registry(t, messaging.Deps{Sessions: st, Bus: bus})
	res := call(t, reg, sid, `{"text":"Disk almost full","level":"warning"}`)
	if res.IsError || !strings.Contains(res.ForLLM, "shown in the conversation") || !strings.Contains(res.ForLLM, "OS notification unavailable: no notifier configured") {
		t.Fatalf("result %+v", res)
	}
	m := userMessage(t, ch)
	if m.Text != "Disk almost full" || m.Level != "warning" || m.Session != sid || m.Agent != "builder" || !strings.HasPrefix(m.ID, "msg-") || m.At.IsZero() {
		t.Fatalf("published %+v", m)
	}
	h, err := st.History(context.Background(), sid, 0)
	if err != nil || len(h) != 1 || h[0].Kind != sessions.KindNotification || h[0].Role != "assistant" || h[0].Content != "Disk almost full" {
		t.Fatalf("history %+v %v", h, err)
	}
}

func TestMessageArguments(t *testing.T) {
	t.Parallel()
	st, sid := sessionStore(t)
	reg := registry(t, messaging.Deps{Sessions: st, Bus: events.New()})
	cases := []struct {
		name, session, args string
		code                tools.ErrorCode
		want                string
	}{
		{"no text", sid, `{"title":"hi"}`, tools.CodeValidation, "text"},
		{"blank text", sid, `{"text":"  "}`, tools.CodeValidation, "text is required"},
		{"bad level", sid, `{"text":"x","level":"panic"}`, tools.CodeValidation, "level"},
		{"too long", sid, `{"text":"` + strings.Repeat("x", 5000) + `"}`, tools.CodeValidation, "under 4000"},
		{"title stored", sid, `{"text":"body","title":"Heading"}`, "", "shown in the conversation"},
		{"no session", "local:builder", `{"text":"from the CLI"}`, "", "no conversation to keep it in"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, reg, tc.session, tc.args)
			if res.Code() != tc.code || !strings.Contains(res.ForLLM, tc.want) {
				t.Fatalf("result %+v, want code %q containing %q", res, tc.code, tc.want)
			}
		})
	}
	h, _ := st.History(context.Background(), sid, 0)
	if len(h) != 1 || h[0].Content != "**Heading**\n\nbody" {
		t.Fatalf("history %+v", h)
	}
}
