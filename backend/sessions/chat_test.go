package sessions_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/sessions"
)

// TestReplaceFrom: an edited message replaces its turn and everything after
// it in one step; refused cuts (a tool result, another session's message)
// change nothing.
func TestReplaceFrom(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	s, _ := st.Create(ctx, sessions.Session{Agent: "default"})
	other, _ := st.Create(ctx, sessions.Session{Agent: "default"})
	if err := st.Append(ctx, s.ID,
		sessions.Message{Role: "user", Content: "first"},
		sessions.Message{Role: "assistant", Content: "one", Model: "m1"},
		sessions.Message{Role: "user", Content: "second"},
		sessions.Message{Role: "assistant", ToolCalls: []sessions.ToolCall{{ID: "c1", Name: "read_file", Arguments: "{}"}}},
		sessions.Message{Role: "tool", ToolCallID: "c1", Name: "read_file", Content: "text"},
		sessions.Message{Role: "assistant", Content: "two", Model: "m1"},
	); err != nil {
		t.Fatal(err)
	}
	_ = st.Append(ctx, other.ID, sessions.Message{Role: "user", Content: "elsewhere"})
	h, _ := st.History(ctx, s.ID, 0)
	oh, _ := st.History(ctx, other.ID, 0)
	second, tool := h[2].ID, h[4].ID

	for name, from := range map[string]int64{"a tool result": tool, "an assistant reply": h[1].ID, "another session's": oh[0].ID, "a missing one": 1 << 40} {
		t.Run(name, func(t *testing.T) {
			if _, err := st.ReplaceFrom(ctx, s.ID, from, sessions.Message{Role: "user", Content: "x"}); !errors.Is(err, sessions.ErrNotUserMessage) {
				t.Fatalf("cut at %s: %v", name, err)
			}
		})
	}
	if got, _ := st.History(ctx, s.ID, 0); len(got) != 6 {
		t.Fatalf("a refused cut changed the history: %+v", got)
	}
	// A failing insert (bad role) rolls the cut back too.
	if _, err := st.ReplaceFrom(ctx, s.ID, second, sessions.Message{Role: "wizard"}); err == nil {
		t.Fatal("bad role accepted")
	}
	if got, _ := st.History(ctx, s.ID, 0); len(got) != 6 {
		t.Fatalf("a failed replace lost messages: %+v", got)
	}
	ids, err := st.ReplaceFrom(ctx, s.ID, second, sessions.Message{Role: "user", Content: "second, edited"})
	if err != nil || len(ids) != 1 || ids[0] <= h[5].ID {
		t.Fatalf("replace: %v %v", ids, err)
	}
	got, _ := st.History(ctx, s.ID, 0)
	if len(got) != 3 || got[0].Content != "first" || got[1].Model != "m1" || got[2].Content != "second, edited" || got[2].ID != ids[0] {
		t.Fatalf("after replace: %+v", got)
	}
	if oh2, _ := st.History(ctx, other.ID, 0); len(oh2) != 1 {
		t.Fatalf("the other session changed: %+v", oh2)
	}
}

// TestModelsAndIncomplete: the model that answered, a partial reply's
// reason and a chat's chosen model round-trip; unknown reasons are refused.
func TestModelsAndIncomplete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	s, err := st.Create(ctx, sessions.Session{Agent: "default", Model: "big"})
	if err != nil || s.Model != "big" {
		t.Fatalf("create: %+v %v", s, err)
	}
	if err := st.SetModel(ctx, s.ID, "small"); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Get(ctx, s.ID); got.Model != "small" {
		t.Fatalf("model: %+v", got)
	}
	if err := st.SetModel(ctx, "s-nope", "x"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	if err := st.Append(ctx, s.ID, sessions.Message{Role: "user", Content: "hi"},
		sessions.Message{Role: "assistant", Content: "Hel", Model: "small", Incomplete: sessions.IncompleteStopped}); err != nil {
		t.Fatal(err)
	}
	h, _ := st.History(ctx, s.ID, 0)
	if h[1].Model != "small" || h[1].Incomplete != sessions.IncompleteStopped || h[0].Model != "" {
		t.Fatalf("history: %+v", h)
	}
	if err := st.Append(ctx, s.ID, sessions.Message{Role: "assistant", Incomplete: "tired"}); err == nil {
		t.Fatal("unknown reason accepted")
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newStore(t)
	garden, _ := st.Create(ctx, sessions.Session{Agent: "default", Title: "Garden plans"})
	_ = st.Append(ctx, garden.ID, sessions.Message{Role: "user", Content: "When do I plant carrots?"},
		sessions.Message{Role: "assistant", Content: "Plant CARROTS in early spring, " + strings.Repeat("then water them well. ", 10)})
	taxes, _ := st.Create(ctx, sessions.Session{Agent: "default", Title: "Taxes"})
	_ = st.Append(ctx, taxes.ID, sessions.Message{Role: "user", Content: "Sum the 100% column"},
		sessions.Message{Role: "tool", ToolCallID: "c1", Content: "carrots.csv"}) // tool output is not searched
	coder, _ := st.Create(ctx, sessions.Session{Agent: "coder", Title: "carrot counter"})

	ids := func(hits []sessions.SearchHit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.Session.ID)
		}
		return out
	}
	for _, tc := range []struct {
		agent, query string
		want         []string
	}{
		{"default", "carrots", []string{garden.ID}},
		{"default", "  Carrots  ", []string{garden.ID}},
		{"", "carrot", []string{coder.ID, garden.ID}},
		{"default", "garden", []string{garden.ID}},
		{"default", "100%", []string{taxes.ID}},
		{"default", "%", []string{taxes.ID}}, // literal, not a wildcard
		{"default", "_", nil},
		{"default", "", nil},
		{"coder", "plant", nil},
	} {
		t.Run(tc.agent+"/"+tc.query, func(t *testing.T) {
			hits, err := st.Search(ctx, tc.agent, tc.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Newest first; sessions touched in the same millisecond tie, so compare as sets.
			got := ids(hits)
			slices.Sort(got)
			slices.Sort(tc.want)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	hits, _ := st.Search(ctx, "default", "carrots", 0)
	if sn := hits[0].Snippet; !strings.HasPrefix(sn, "Plant CARROTS in early spring") || !strings.HasSuffix(sn, "…") || len([]rune(sn)) > 120 {
		t.Fatalf("snippet %q", sn)
	}
	if hits, _ := st.Search(ctx, "default", "garden", 0); hits[0].Snippet != "" {
		t.Fatalf("a title match has no snippet: %q", hits[0].Snippet)
	}
}
