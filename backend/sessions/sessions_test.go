package sessions_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
)

func newStore(t *testing.T) sessions.Store {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return sessions.NewSQLStore(db.SQL())
}

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	s, err := st.Create(ctx, sessions.Session{Agent: "default", Title: "first"})
	if err != nil || s.ID == "" || s.Status != "active" {
		t.Fatalf("create: %+v %v", s, err)
	}
	msgs := []sessions.Message{
		{Role: "user", Content: "list files"},
		{Role: "assistant", ToolCalls: []sessions.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}, {ID: "c2", Name: "glob", Arguments: `{"pattern":"*.go"}`}}},
		{Role: "tool", ToolCallID: "c1", Name: "list_files", Content: "a.go\n"},
		{Role: "tool", ToolCallID: "c2", Name: "glob", Content: "a.go\n"},
		{Role: "assistant", Content: "There is a.go."},
	}
	if err := st.Append(ctx, s.ID, msgs...); err != nil {
		t.Fatal(err)
	}
	h, err := st.History(ctx, s.ID, 0)
	if err != nil || len(h) != 5 || len(h[1].ToolCalls) != 2 || h[1].ToolCalls[1].Arguments != `{"pattern":"*.go"}` || h[3].ToolCallID != "c2" {
		t.Fatalf("history: %+v %v", h, err)
	}
	last, _ := st.History(ctx, s.ID, 2)
	if len(last) != 2 || last[1].Content != "There is a.go." {
		t.Fatalf("last two: %+v", last)
	}
	if err := st.AddUsage(ctx, s.ID, 100, 20); err != nil {
		t.Fatal(err)
	}
	_ = st.AddUsage(ctx, s.ID, 50, 5)
	if got, _ := st.Get(ctx, s.ID); got.PromptTokens != 150 || got.CompletionTokens != 25 {
		t.Fatalf("usage %+v", got)
	}
	if err := st.Append(ctx, s.ID, sessions.Message{Role: "wizard"}); err == nil {
		t.Fatal("bad role accepted")
	}
	if err := st.Append(ctx, "s-nope", sessions.Message{Role: "user"}); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("append to unknown: %v", err)
	}
	child, _ := st.Create(ctx, sessions.Session{Agent: "default", ParentID: s.ID})
	other, _ := st.Create(ctx, sessions.Session{Agent: "coder"})
	if list, _ := st.List(ctx, "default", 10); len(list) != 2 {
		t.Fatalf("list default: %+v", list)
	}
	if list, _ := st.List(ctx, "", 10); len(list) != 3 {
		t.Fatalf("list all: %+v", list)
	}
	if err := st.SetStatus(ctx, child.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.History(ctx, s.ID, 0); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("history after delete: %v", err)
	}
	if _, err := st.Get(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, sessions.Session{}); err == nil {
		t.Fatal("session without agent accepted")
	}
}

func TestConcurrentAppends(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	s, _ := st.Create(ctx, sessions.Session{Agent: "default"})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := st.Append(ctx, s.ID, sessions.Message{Role: "user", Content: "x"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if h, _ := st.History(ctx, s.ID, 0); len(h) != 160 {
		t.Fatalf("%d messages", len(h))
	}
}

// TestMessageKinds: kinds and a summary's coverage round-trip; unknown
// kinds are refused by the schema.
func TestMessageKinds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	s, err := st.Create(ctx, sessions.Session{Agent: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, s.ID,
		sessions.Message{Role: "user", Content: "hi"},
		sessions.Message{Role: "assistant", Content: "Build finished", Kind: sessions.KindNotification},
		sessions.Message{Role: "user", Content: "[Subagent results] …", Kind: sessions.KindSubagentResults},
	); err != nil {
		t.Fatal(err)
	}
	h, _ := st.History(ctx, s.ID, 0)
	if err := st.Append(ctx, s.ID, sessions.Message{Role: "system", Content: "summary", Kind: sessions.KindSummary, CoversThrough: h[2].ID}); err != nil {
		t.Fatal(err)
	}
	h, _ = st.History(ctx, s.ID, 0)
	if h[0].Kind != "" || h[1].Kind != sessions.KindNotification || h[2].Kind != sessions.KindSubagentResults ||
		h[3].Kind != sessions.KindSummary || h[3].CoversThrough != h[2].ID {
		t.Fatalf("history %+v", h)
	}
	if err := st.Append(ctx, s.ID, sessions.Message{Role: "user", Kind: "gossip"}); err == nil {
		t.Fatal("unknown kind accepted")
	}
}
