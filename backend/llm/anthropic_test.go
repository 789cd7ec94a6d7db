package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
)

func TestAnthropicStreamsTextAndToolUse(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, cassette(t, "anthropic"))
	p := llm.NewAnthropic(llm.AnthropicOptions{BaseURL: srv.URL, APIKey: "ak-test", RetryOptions: llm.RetryOptions{Backoff: tinyBackoff}})
	req := llm.Request{Model: "claude-sonnet-4-5", Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "Be brief."},
		{Role: llm.RoleUser, Content: "What is the weather in Paris?"},
	}, Tools: []llm.ToolDef{{Name: "get_weather", Description: "Weather by city", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}}
	var rec recorder
	resp, err := p.Stream(context.Background(), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := llm.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: `{"city": "Paris"}`}
	if resp.Message.Content != "Checking the weather." || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0] != want {
		t.Fatalf("message = %+v", resp.Message)
	}
	if resp.FinishReason != llm.FinishToolCalls {
		t.Errorf("finish = %q", resp.FinishReason)
	}
	if resp.Usage != (llm.Usage{PromptTokens: 25, CompletionTokens: 17, TotalTokens: 42}) {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if n := len(rec.ofType(llm.EventToolCallDelta)); n != 4 { // the start plus three input_json_delta pieces
		t.Errorf("tool deltas = %d", n)
	}
	first := srv.Requests()[0]
	if first.Header.Get("x-api-key") != "ak-test" || first.Header.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("headers = %v", first.Header)
	}
	var body struct {
		System    string `json:"system"`
		MaxTokens int    `json:"max_tokens"`
		Stream    bool   `json:"stream"`
		Messages  []struct {
			Role string `json:"role"`
		} `json:"messages"`
		Tools []struct {
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(first.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.System != "Be brief." || !body.Stream || body.MaxTokens != 4096 || len(body.Messages) != 1 || len(body.Tools) != 1 {
		t.Errorf("request = %s", first.Body)
	}

	// The tool result travels as a tool_result block in a user turn after the tool_use block.
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleTool, ToolCallID: "toolu_1", Content: "sunny, 24°C"})
	resp2, err := p.Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp2.Message.Content != "It is sunny in Paris." || resp2.FinishReason != llm.FinishStop {
		t.Errorf("second turn = %+v", resp2)
	}
	second := string(srv.Requests()[1].Body)
	for _, frag := range []string{
		`{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny, 24°C"}]}`,
	} {
		if !strings.Contains(second, frag) {
			t.Errorf("second request lacks %s:\n%s", frag, second)
		}
	}
}

func TestAnthropicDroppedAndErrors(t *testing.T) {
	t.Parallel()
	drop := 3 // message_start, block start, first text delta
	c := llmtest.Cassette{Turns: []llmtest.Turn{
		{Faults: []llmtest.Fault{{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}}, Chunks: []string{"ok"}},
		{Faults: []llmtest.Fault{{DropAfterChunks: &drop}}, Chunks: []string{"a", "b"}},
		{Faults: []llmtest.Fault{{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}}},
	}}
	srv := llmtest.NewServer(t, c)
	p := llm.NewAnthropic(llm.AnthropicOptions{BaseURL: srv.URL, RetryOptions: llm.RetryOptions{Backoff: tinyBackoff}})
	req := llm.Request{Model: "claude-haiku-4-5", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}
	if resp, err := p.Stream(context.Background(), req, nil); err != nil || resp.Message.Content != "ok" {
		t.Fatalf("overloaded then ok: %+v, %v", resp, err)
	}
	if _, err := p.Stream(context.Background(), req, nil); !errors.Is(err, llm.ErrStreamDropped) {
		t.Fatalf("drop: err = %v", err)
	}
	// The client gave up on the dropped attempt, so the turn is still current and serves next.
	if resp, err := p.Stream(context.Background(), req, nil); err != nil || resp.Message.Content != "ab" {
		t.Fatalf("after drop: %+v, %v", resp, err)
	}
	_, err := p.Stream(context.Background(), req, nil)
	if err == nil || !strings.Contains(err.Error(), "anthropic: POST "+srv.URL+"/v1/messages: 401 Unauthorized: invalid x-api-key") {
		t.Fatalf("401: err = %v", err)
	}
}

func TestAnthropicModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, cassette(t, "anthropic"))
	p := llm.NewAnthropic(llm.AnthropicOptions{BaseURL: srv.URL})
	models, err := p.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].ID != "claude-sonnet-4-5" {
		t.Errorf("models = %+v", models)
	}
}

func TestStreamCancelledWhileWaitingToRetry(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 429, RetryAfter: 30}}}}})
	p := llm.NewAnthropic(llm.AnthropicOptions{BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	var rec recorder
	done := make(chan error, 1)
	go func() {
		_, err := p.Stream(ctx, llm.Request{Model: "claude-haiku-4-5", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, rec.on)
		done <- err
	}()
	for len(srv.Requests()) == 0 {
		runtime.Gosched()
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
