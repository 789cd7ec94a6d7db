package sessiontools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

func setup(t *testing.T, send func(context.Context, string, string) (string, error)) (*tools.Registry, *sessions.SQLStore) {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	st := sessions.NewSQLStore(db.SQL())
	ts, err := Tools(Deps{Sessions: st, Send: send})
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r, st
}

func call(t *testing.T, r *tools.Registry, name, args, self string) tools.Result {
	t.Helper()
	res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: name, Args: json.RawMessage(args),
		Context: tools.CallContext{Agent: "coder", SandboxKey: self}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSessionTools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var sent []string
	r, st := setup(t, func(_ context.Context, id, text string) (string, error) {
		sent = append(sent, id+":"+text)
		if text == "fail" {
			return "", errors.New("model down")
		}
		return "pong from " + id, nil
	})
	a, _ := st.Create(ctx, sessions.Session{ID: "s-a", Agent: "coder", Title: "fix the build"})
	b, _ := st.Create(ctx, sessions.Session{ID: "s-b", Agent: "writer", Title: "draft post"})
	if err := st.Append(ctx, a.ID,
		sessions.Message{Role: "user", Content: "why does the build fail?"},
		sessions.Message{Role: "assistant", ToolCalls: []sessions.ToolCall{{ID: "c1", Name: "exec", Arguments: `{"command":"go build ./..."}`}}},
		sessions.Message{Role: "tool", Name: "exec", ToolCallID: "c1", Content: "undefined: foo"},
		sessions.Message{Role: "assistant", Content: "foo is undefined " + strings.Repeat("x", 3000)},
	); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		tool, args, self string
		code             tools.ErrorCode
		want, not        string
	}{
		{"sessions_list", `{}`, "", "", "s-b agent=writer", ""},
		{"sessions_list", `{"agent":"coder"}`, "", "", `s-a agent=coder status=active`, "s-b"},
		{"sessions_list", `{"agent":"nobody"}`, "", "", "no sessions", ""},
		{"sessions_history", `{"session_id":"s-a"}`, "", "", "[user] why does the build fail?\n[assistant]\n  → call exec({\"command\":\"go build ./...\"}) id=c1\n[tool result exec c1] undefined: foo", ""},
		{"sessions_history", `{"session_id":"s-a"}`, "", "", "x…", strings.Repeat("x", 2100)},
		{"sessions_history", `{"session_id":"s-a","limit":1}`, "", "", "[assistant] foo is undefined", "[user]"},
		{"sessions_history", `{"session_id":"s-b"}`, "", "", "no messages", ""},
		{"sessions_history", `{"session_id":"nope"}`, "", tools.CodeNotFound, "no session", ""},
		{"sessions_send", `{"session_id":"s-b","message":"ping"}`, "s-a", "", "pong from s-b", ""},
		{"sessions_send", `{"session_id":"s-b","message":"fail"}`, "s-a", tools.CodeExecution, "model down", ""},
		{"sessions_send", `{"session_id":"s-a","message":"loop"}`, "s-a", tools.CodeValidation, "own session", ""},
		{"sessions_send", `{"session_id":"nope","message":"x"}`, "s-a", tools.CodeNotFound, "no session", ""},
		{"sessions_send", `{"session_id":"s-b","message":" "}`, "s-a", tools.CodeValidation, "required", ""},
	}
	for _, c := range cases {
		res := call(t, r, c.tool, c.args, c.self)
		if res.Code() != c.code || !strings.Contains(res.ForLLM, c.want) || (c.not != "" && strings.Contains(res.ForLLM, c.not)) {
			t.Fatalf("%s %s: code=%q %s\nwant code %q containing %q", c.tool, c.args, res.Code(), res.ForLLM, c.code, c.want)
		}
	}
	if len(sent) != 2 || sent[0] != "s-b:ping" || b.ID != "s-b" {
		t.Fatalf("sent = %v", sent)
	}
}

func TestSendUnavailable(t *testing.T) {
	t.Parallel()
	r, st := setup(t, nil)
	if _, err := st.Create(context.Background(), sessions.Session{ID: "s-x", Agent: "coder"}); err != nil {
		t.Fatal(err)
	}
	res := call(t, r, "sessions_send", `{"session_id":"s-x","message":"hi"}`, "")
	if !res.IsError || !strings.Contains(res.ForLLM, "unavailable") {
		t.Fatalf("without Send: %s", res.ForLLM)
	}
	if _, err := Tools(Deps{}); err == nil {
		t.Fatal("Tools without a store should fail")
	}
}

func TestRenderCapsHistory(t *testing.T) {
	t.Parallel()
	var msgs []sessions.Message
	for range 40 {
		msgs = append(msgs, sessions.Message{Role: "user", Content: strings.Repeat("y", 1000)})
	}
	out := render(msgs)
	if len(out) > maxHistoryChars+200 || !strings.HasPrefix(out, "(") || !strings.Contains(out, "earlier messages omitted") {
		t.Fatalf("render: %d chars, starts %q", len(out), out[:40])
	}
}
