package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
)

func tinyBackoff(int) time.Duration { return time.Millisecond }

func cassette(t *testing.T, name string) llmtest.Cassette {
	return llmtest.LoadCassette(t, filepath.Join("testdata", "cassettes", name+".json"))
}

func openAIFor(t *testing.T, name string) (*llmtest.Server, *llm.OpenAI) {
	t.Helper()
	srv := llmtest.NewServer(t, cassette(t, name))
	p := llm.NewOpenAI(llm.OpenAIOptions{
		Name: "ollama", BaseURL: srv.URL + "/v1", APIKey: "sk-test",
		RetryOptions: llm.RetryOptions{Backoff: tinyBackoff},
	})
	return srv, p
}

func userReq(text string) llm.Request {
	return llm.Request{Model: "llama3.1:8b", Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are terse."},
		{Role: llm.RoleUser, Content: text},
	}}
}

// recorder collects events; Stream calls on synchronously, so no locking is needed.
type recorder struct{ events []llm.Event }

func (r *recorder) on(e llm.Event) { r.events = append(r.events, e) }

func (r *recorder) ofType(typ llm.EventType) []llm.Event {
	var out []llm.Event
	for _, e := range r.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestOpenAIStreamsText(t *testing.T) {
	t.Parallel()
	srv, p := openAIFor(t, "text")
	var rec recorder
	resp, err := p.Stream(context.Background(), userReq("please greet me"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "Hello, world!" || resp.Message.Role != llm.RoleAssistant {
		t.Fatalf("message = %+v", resp.Message)
	}
	if got := len(rec.ofType(llm.EventTextDelta)); got != 4 {
		t.Errorf("text deltas = %d, want 4", got)
	}
	if resp.Usage != (llm.Usage{PromptTokens: 12, CompletionTokens: 4, TotalTokens: 16}) {
		t.Errorf("usage = %+v", resp.Usage)
	}
	last := rec.events[len(rec.events)-1]
	if last.Type != llm.EventDone || last.FinishReason != "stop" || resp.FinishReason != "stop" {
		t.Errorf("last event = %+v, finish %q", last, resp.FinishReason)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-test" {
		t.Fatalf("requests = %+v", reqs)
	}
	var body map[string]any
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["stream"] != true || body["stream_options"].(map[string]any)["include_usage"] != true {
		t.Errorf("request body = %s", reqs[0].Body)
	}
}

func TestOpenAIAssemblesStreamedToolCall(t *testing.T) {
	t.Parallel()
	srv, p := openAIFor(t, "tool_call")
	var rec recorder
	req := userReq("read the notes")
	req.Tools = []llm.ToolDef{{Name: "read_file", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object"}`)}}
	resp, err := p.Stream(context.Background(), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := llm.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path": "notes.md"}`}
	if len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0] != want {
		t.Fatalf("tool calls = %+v", resp.Message.ToolCalls)
	}
	if resp.FinishReason != "tool_calls" || resp.Message.Content != "Let me look." {
		t.Errorf("finish %q content %q", resp.FinishReason, resp.Message.Content)
	}
	if got := len(rec.ofType(llm.EventToolCallDelta)); got != 3 {
		t.Errorf("tool_call_delta events = %d, want 3", got)
	}
	done := rec.ofType(llm.EventToolCallDone)
	if len(done) != 1 || *done[0].ToolCall != want || done[0].Err != nil {
		t.Errorf("tool_call_done = %+v", done)
	}

	// Second turn: the tool result goes back with its call id, and the cassette checks it arrived.
	req.Messages = append(req.Messages, resp.Message,
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_1", Name: "read_file", Content: "# Notes\nhello"})
	resp2, err := p.Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp2.Message.Content != "The notes say hello." {
		t.Errorf("second turn = %q", resp2.Message.Content)
	}
	body := string(srv.Requests()[1].Body)
	for _, frag := range []string{`"tool_call_id":"call_1"`, `"tool_calls":[{"id":"call_1","type":"function"`} {
		if !strings.Contains(body, frag) {
			t.Errorf("second request lacks %s: %s", frag, body)
		}
	}
}

func TestOpenAIParallelToolCalls(t *testing.T) {
	t.Parallel()
	_, p := openAIFor(t, "parallel")
	var rec recorder
	resp, err := p.Stream(context.Background(), userReq("compare"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path": "a.go"}`},
		{ID: "call_b", Name: "read_file", Arguments: `{"path": "b.go"}`},
		{ID: "call_c", Name: "list_dir", Arguments: `{}`},
	}
	if len(resp.Message.ToolCalls) != len(want) {
		t.Fatalf("tool calls = %+v", resp.Message.ToolCalls)
	}
	for i := range want {
		if resp.Message.ToolCalls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, resp.Message.ToolCalls[i], want[i])
		}
	}
	done := rec.ofType(llm.EventToolCallDone)
	if len(done) != 3 || done[0].Index != 0 || done[2].Index != 2 {
		t.Errorf("done events = %+v", done)
	}
	if !resp.Usage.Estimated || resp.Usage.PromptTokens == 0 {
		t.Errorf("usage should be estimated when the server sends none: %+v", resp.Usage)
	}
}

func TestOpenAIMalformedArguments(t *testing.T) {
	t.Parallel()
	_, p := openAIFor(t, "malformed")
	var rec recorder
	resp, err := p.Stream(context.Background(), userReq("write"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 {
		t.Fatalf("calls = %+v", calls)
	}
	if calls[0].Arguments != `{"path": "a.txt", "append": true}` {
		t.Errorf("repaired arguments = %s", calls[0].Arguments)
	}
	if !strings.HasPrefix(calls[1].Arguments, `{"path": "b.txt"`) {
		t.Errorf("unrepairable arguments should stay raw: %s", calls[1].Arguments)
	}
	done := rec.ofType(llm.EventToolCallDone)
	if done[0].Err != nil || !errors.Is(done[1].Err, llm.ErrMalformedArguments) {
		t.Errorf("done errs = %v, %v", done[0].Err, done[1].Err)
	}
}

func TestOpenAIRetries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cassette string
		attempts int
		minWait  time.Duration
		want     string
	}{
		{"retry_429", 2, 200 * time.Millisecond, "after the rate limit"},
		{"retry_500", 3, 0, "recovered"},
		{"dropped", 2, 0, "clean retry"},
	}
	for _, tc := range cases {
		t.Run(tc.cassette, func(t *testing.T) {
			t.Parallel()
			srv, p := openAIFor(t, tc.cassette)
			var rec recorder
			start := time.Now()
			resp, err := p.Stream(context.Background(), userReq("go"), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != tc.want {
				t.Errorf("content = %q", resp.Message.Content)
			}
			if n := len(srv.Requests()); n != tc.attempts {
				t.Errorf("attempts = %d, want %d", n, tc.attempts)
			}
			if waited := time.Since(start); waited < tc.minWait {
				t.Errorf("retried after %v, Retry-After asked for %v", waited, tc.minWait)
			}
			if len(rec.ofType(llm.EventError)) != 0 {
				t.Errorf("error events on success: %+v", rec.ofType(llm.EventError))
			}
		})
	}
}

func TestOpenAIDropAfterOutputIsNotRetried(t *testing.T) {
	t.Parallel()
	srv, p := openAIFor(t, "dropped")
	if _, err := p.Stream(context.Background(), userReq("go"), nil); err != nil {
		t.Fatal(err) // turn 1 recovers by retrying
	}
	var rec recorder
	_, err := p.Stream(context.Background(), userReq("go"), rec.on)
	if !errors.Is(err, llm.ErrStreamDropped) {
		t.Fatalf("err = %v, want ErrStreamDropped", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("requests = %d: a stream that already emitted text must not be retried", n)
	}
	if got := len(rec.ofType(llm.EventTextDelta)); got != 2 {
		t.Errorf("text deltas before the drop = %d, want 2", got)
	}
	if errs := rec.ofType(llm.EventError); len(errs) != 1 || !errors.Is(errs[0].Err, llm.ErrStreamDropped) {
		t.Errorf("error events = %+v", errs)
	}
}

func TestOpenAINotFoundError(t *testing.T) {
	t.Parallel()
	srv, p := openAIFor(t, "not_found")
	_, err := p.Stream(context.Background(), userReq("hi"), nil)
	want := `ollama: POST ` + srv.URL + `/v1/chat/completions: 404 Not Found: model "llama9" not found`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant  %s", err, want)
	}
	var he *llm.HTTPError
	if !errors.As(err, &he) || he.Status != 404 || len(srv.Requests()) != 1 {
		t.Errorf("404 must not be retried: %#v, %d requests", he, len(srv.Requests()))
	}
}

func TestOpenAIRetriesExhausted(t *testing.T) {
	t.Parallel()
	c := llmtest.Cassette{Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 502}, {Status: 502}, {Status: 502}}}}}
	srv := llmtest.NewServer(t, c)
	p := llm.NewOpenAI(llm.OpenAIOptions{BaseURL: srv.URL + "/v1", RetryOptions: llm.RetryOptions{MaxRetries: 2, Backoff: tinyBackoff}})
	_, err := p.Stream(context.Background(), userReq("hi"), nil)
	var he *llm.HTTPError
	if !errors.As(err, &he) || he.Status != 502 || len(srv.Requests()) != 3 {
		t.Fatalf("err = %v after %d requests", err, len(srv.Requests()))
	}
}

func TestOpenAIConnectionRefused(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{})
	url := srv.URL
	srv.Close()
	p := llm.NewOpenAI(llm.OpenAIOptions{Name: "lmstudio", BaseURL: url + "/v1", RetryOptions: llm.RetryOptions{MaxRetries: 1, Backoff: tinyBackoff}})
	_, err := p.Stream(context.Background(), userReq("hi"), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "lmstudio: POST "+url+"/v1/chat/completions") {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAIModels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cassette string
		want     []string
	}{
		{"models", []string{"llama3.1:8b", "qwen2.5-coder:7b"}},
		{"ollama_tags", []string{"llama3.2:3b"}},
	} {
		t.Run(tc.cassette, func(t *testing.T) {
			t.Parallel()
			_, p := openAIFor(t, tc.cassette)
			models, err := p.Models(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range models {
				ids = append(ids, m.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tc.want, ",") {
				t.Errorf("models = %v, want %v", ids, tc.want)
			}
		})
	}
}
