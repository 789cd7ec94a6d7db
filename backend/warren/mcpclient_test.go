package warren_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
)

// answerSampling answers every sampling approval request with the next
// decision, in order.
func answerSampling(t *testing.T, w *warren.Warren, decisions ...approvals.Decision) {
	t.Helper()
	ch, cancel := w.Bus().Subscribe(64)
	t.Cleanup(cancel)
	go func() {
		for ev := range ch {
			req, ok := ev.Payload.(approvals.Request)
			if ev.Topic != approvals.TopicRequested || !ok || req.Tool != "mcp_sampling" || len(decisions) == 0 {
				continue
			}
			d := decisions[0]
			decisions = decisions[1:]
			w.Approvals().Answer(req.ID, d)
		}
	}()
}

// A server's sampling request runs on the calling agent's own model, only
// after the user approved it; a denied one reaches the server as an error.
func TestMCPSamplingNeedsApproval(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{{Chunks: []string{"the sampled answer"}}}})
	w := open(t, t.TempDir())
	withProvider(t, w, srv)
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	answerSampling(t, w, approvals.AllowOnce, approvals.Deny)

	res := call(t, w, "default", "mcp_ev_trigger-sampling-request", `{"prompt":"say hi","maxTokens":37}`)
	if res.IsError || !strings.Contains(res.ForLLM, "the sampled answer") || !strings.Contains(res.ForLLM, `"model": "m1"`) {
		t.Fatalf("approved sampling = %+v", res)
	}
	var body struct {
		MaxTokens int `json:"max_tokens"`
		Messages  []struct{ Role, Content string }
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was not asked")
	}
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.MaxTokens != 37 || len(body.Messages) != 2 || !strings.Contains(body.Messages[1].Content, "say hi") {
		t.Fatalf("model request = %+v", body)
	}

	res = call(t, w, "default", "mcp_ev_trigger-sampling-request", `{"prompt":"again","maxTokens":10}`)
	if !res.IsError || !strings.Contains(res.ForLLM, "declined the sampling request") {
		t.Fatalf("denied sampling = %+v", res)
	}
	if len(srv.Requests()) != len(reqs) {
		t.Fatal("a denied sampling request reached the model")
	}
}

// Elicitation is declined with a reason when nobody can be asked, and
// answered from the form otherwise; roots are the workspace.
func TestMCPElicitationAndRoots(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})

	res := call(t, w, "default", "mcp_ev_trigger-elicitation-request", `{}`)
	if !strings.Contains(res.ForLLM, "decline") {
		t.Fatalf("with nobody to ask: %+v", res)
	}

	detach := w.AttachElicitationUI()
	defer detach()
	ch, cancel := w.Bus().Subscribe(64)
	defer cancel()
	errs := make(chan error, 1)
	go func() {
		for ev := range ch {
			req, ok := ev.Payload.(warren.ElicitationRequest)
			if ev.Topic != warren.TopicElicitation || !ok {
				continue
			}
			fields, err := warren.ParseElicitSchema(req.Schema)
			if err != nil || len(fields) == 0 {
				errs <- err
				return
			}
			if _, err := w.AnswerElicitation(warren.ElicitationAnswer{ID: req.ID, Action: "accept", Content: map[string]any{"name": 42.0}}); err == nil {
				errs <- nil // a number for a text field was taken
				return
			}
			ok, err = w.AnswerElicitation(warren.ElicitationAnswer{ID: req.ID, Action: "accept",
				Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7.0}})
			if !ok || err != nil {
				errs <- err
				return
			}
			errs <- nil
			return
		}
	}()
	res = call(t, w, "default", "mcp_ev_trigger-elicitation-request", `{}`)
	select {
	case err := <-errs:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no elicitation request was published")
	}
	if res.IsError || !strings.Contains(res.ForLLM, "Ada Lovelace") {
		t.Fatalf("answered elicitation = %+v", res)
	}
	if len(w.PendingElicitations()) != 0 {
		t.Fatal("an answered request is still pending")
	}

	res = call(t, w, "default", "mcp_ev_get-roots-list", `{}`)
	if res.IsError || !strings.Contains(res.ForLLM, "file://"+w.Workspace()) {
		t.Fatalf("roots = %+v (workspace %s)", res, w.Workspace())
	}
}

// A run's MCP tool call reports its server's progress as tool_progress
// events (the chat's progress bar, the CLI's line).
func TestMCPProgressReachesRunEvents(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "slow", Name: "mcp_ev_trigger-long-running-operation", Arguments: []string{`{"duration":0.6,"steps":3}`}}}},
		{Chunks: []string{"done"}},
	}})
	w := open(t, t.TempDir())
	withProvider(t, w, srv)
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	var rec events
	res, err := w.RunAgent(context.Background(), warren.RunRequest{Agent: "default", Prompt: "go"}, rec.on)
	if err != nil || res.Text != "done" {
		t.Fatalf("run = %+v, %v", res, err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var seen []float64
	for _, ev := range rec.all {
		if ev.Kind == agent.EventToolProgress {
			if ev.CallID != "slow" || ev.Total != 3 {
				t.Fatalf("progress event = %+v", ev)
			}
			seen = append(seen, ev.Progress)
		}
	}
	if len(seen) != 3 || seen[2] != 3 {
		t.Fatalf("progress seen = %v", seen)
	}
}
