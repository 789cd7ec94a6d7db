package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
)

// TestRunAnthropicAgent drives a whole agent turn through an Anthropic
// provider: the scripted server speaks the Messages API, the model streams
// a tool_use whose input arrives in pieces, Warren runs the tool and sends
// a tool_result back, and the final text streams to stdout.
func TestRunAnthropicAgent(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.LoadCassette(t, "testdata/cassettes/anthropic_tools.json"))
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("buy milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"providers", "add", "claude", "--kind", "anthropic", "--base-url", srv.URL, "--api-key", "sk-ant-test", "--model", "claude-sonnet-4-5"},
		{"agents", "edit", "default", "--provider", "claude", "--workspace", ws},
	} {
		if r := warren(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	r := warren(t, dir, "run", "what do my notes say?")
	if r.code != 0 || !strings.Contains(r.stdout, "Let me read them.") || !strings.Contains(r.stdout, "Your notes say: buy milk.") {
		t.Fatalf("run: %+v", r)
	}
	if !strings.Contains(r.stderr, `→ read_file {"path": "notes.md"}`) || !strings.Contains(r.stderr, "← read_file ok") ||
		!strings.Contains(r.stderr, "2 model call(s) · 670+33 tokens") {
		t.Fatalf("stderr: %s", r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || srv.Remaining() != 0 {
		t.Fatalf("%d requests, %d turns left", len(reqs), srv.Remaining())
	}
	for _, req := range reqs {
		if req.Path != "/v1/messages" || req.Header.Get("x-api-key") != "sk-ant-test" || req.Header.Get("anthropic-version") == "" {
			t.Fatalf("request %s %v", req.Path, req.Header)
		}
	}
	var body struct {
		Model    string `json:"model"`
		System   string `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				Content   string          `json:"content"`
			} `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "claude-sonnet-4-5" || !strings.Contains(body.System, "Warren") || len(body.Tools) == 0 || len(body.Tools[0].InputSchema) == 0 {
		t.Fatalf("model %q, system %.60q, %d tools", body.Model, body.System, len(body.Tools))
	}
	// user question; assistant text + tool_use; user tool_result for that id.
	if len(body.Messages) != 3 {
		t.Fatalf("%d messages: %+v", len(body.Messages), body.Messages)
	}
	asst, result := body.Messages[1], body.Messages[2]
	if asst.Role != "assistant" || len(asst.Content) != 2 || asst.Content[1].Type != "tool_use" || asst.Content[1].ID != "toolu_01" ||
		string(asst.Content[1].Input) != `{"path":"notes.md"}` {
		t.Fatalf("assistant message %+v", asst)
	}
	if result.Role != "user" || result.Content[0].Type != "tool_result" || result.Content[0].ToolUseID != "toolu_01" ||
		!strings.Contains(result.Content[0].Content, "buy milk") {
		t.Fatalf("tool result message %+v", result)
	}
}
