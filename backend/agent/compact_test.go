package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/sessions"
)

// longHistory stores four earlier turns of ~7 KB each (a tool call and a
// big result), together beyond the 6,144-token budget of an unknown model.
func longHistory(t *testing.T, r *rig) string {
	t.Helper()
	ctx := context.Background()
	s, err := r.sessions.Create(ctx, sessions.Session{Agent: "default", Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("c%d", i)
		if err := r.sessions.Append(ctx, s.ID,
			sessions.Message{Role: "user", Content: fmt.Sprintf("question %d: read part %d", i, i)},
			sessions.Message{Role: "assistant", ToolCalls: []sessions.ToolCall{{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"part%d.txt"}`, i)}}},
			sessions.Message{Role: "tool", ToolCallID: id, Name: "read_file", Content: strings.Repeat(fmt.Sprintf("part %d text. ", i), 500)},
			sessions.Message{Role: "assistant", Content: fmt.Sprintf("answer %d", i)},
		); err != nil {
			t.Fatal(err)
		}
	}
	return s.ID
}

// TestSummariseOldestTurns: over budget, the oldest turns become one
// summary from the same model, stored and reused by the next turn; the
// newest earlier turn stays verbatim with its tool call and result.
func TestSummariseOldestTurns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRig(t)
	sid := longHistory(t, r)
	srv, prov := scripted(t,
		llmtest.Turn{Expect: "question 1", Chunks: []string{"Parts 1 to 3 were read; answers 1, 2 and 3."}},
		llmtest.Turn{Expect: "question 5", Chunks: []string{"Here is 5."}},
		llmtest.Turn{Expect: "question 6", Chunks: []string{"Here is 6."}},
	)
	var notices []string
	res, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Session: sid, Prompt: "question 5", Provider: prov, Model: "tiny"},
		func(ev agent.Event) {
			if ev.Kind == agent.EventNotice {
				notices = append(notices, ev.Text)
			}
		})
	if err != nil || res.Text != "Here is 5." {
		t.Fatalf("run: %+v %v", res, err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "summarised 12 earlier messages") {
		t.Fatalf("notices %q", notices)
	}
	reqs := srv.Requests()
	summaryReq := requestMessages(t, reqs[0].Body)
	if len(summaryReq) != 2 || !strings.Contains(summaryReq[1].Content, "question 3") || strings.Contains(summaryReq[1].Content, "question 4") {
		t.Fatalf("summary request should cover turns 1-3 only: %.300q", summaryReq[1].Content)
	}
	turn := requestMessages(t, reqs[1].Body)
	roles := make([]string, len(turn))
	for i, m := range turn {
		roles[i] = string(m.Role)
	}
	// system prompt, summary, turn 4 intact (call then its result), the new question.
	if got := strings.Join(roles, ","); got != "system,system,user,assistant,tool,assistant,user" {
		t.Fatalf("roles %s", got)
	}
	if !strings.HasPrefix(turn[1].Content, agent.SummaryPrefix+"Parts 1 to 3") || !strings.Contains(turn[2].Content, "question 4") ||
		turn[4].ToolCallID != turn[3].ToolCalls[0].ID {
		t.Fatalf("turn request %+v", turn[:5])
	}
	h, _ := r.sessions.History(ctx, sid, 0)
	var summary sessions.Message
	for _, m := range h {
		if m.Kind == sessions.KindSummary {
			summary = m
		}
	}
	if summary.Role != "system" || summary.CoversThrough != h[11].ID {
		t.Fatalf("stored summary %+v (message 12 is %d)", summary, h[11].ID)
	}
	// The next turn reuses the stored summary instead of summarising again.
	if _, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Session: sid, Prompt: "question 6", Provider: prov, Model: "tiny"}, nil); err != nil {
		t.Fatal(err)
	}
	next := requestMessages(t, srv.Requests()[2].Body)
	if len(next) != 9 || !strings.HasPrefix(next[1].Content, agent.SummaryPrefix) || srv.Remaining() != 0 {
		t.Fatalf("next turn sent %d messages, %d turns left", len(next), srv.Remaining())
	}
}

// TestSummaryFailureFallsBackToTrim: when the summary call fails, the turn
// trims the oldest turns instead, says why, and stores no summary.
func TestSummaryFailureFallsBackToTrim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRig(t)
	sid := longHistory(t, r)
	srv, prov := scripted(t,
		llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Body: `{"error":{"message":"context too long"}}`}}, Expect: "question 5", Chunks: []string{"Here is 5."}},
	)
	var notices []string
	res, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Session: sid, Prompt: "question 5", Provider: prov, Model: "tiny"},
		func(ev agent.Event) {
			if ev.Kind == agent.EventNotice {
				notices = append(notices, ev.Text)
			}
		})
	if err != nil || res.Text != "Here is 5." {
		t.Fatalf("run: %+v %v", res, err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "could not summarise") || !strings.Contains(notices[0], "context too long") {
		t.Fatalf("notices %q", notices)
	}
	turn := requestMessages(t, srv.Requests()[1].Body)
	if !strings.Contains(turn[1].Content, "earlier messages trimmed") || llm.EstimateTokens(turn, nil) > llm.ContextWindow("tiny")*3/4 {
		t.Fatalf("not trimmed: %d messages, second %.80q", len(turn), turn[1].Content)
	}
	h, _ := r.sessions.History(ctx, sid, 0)
	for _, m := range h {
		if m.Kind == sessions.KindSummary {
			t.Fatal("a summary was stored")
		}
	}
}
