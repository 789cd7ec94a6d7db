// Package llmtest is a scripted LLM server for tests: it replays a cassette of model turns over
// real HTTP in both the OpenAI and the Anthropic streaming formats. See README.md for the format.
package llmtest

import (
	"encoding/json"
	"os"
	"testing"
)

// Cassette is a scripted conversation: the responses a model gives, in order.
type Cassette struct {
	Name string `json:"name,omitempty"`
	// Models are listed by /v1/models and /api/tags.
	Models []string `json:"models,omitempty"`
	// ModelsStatus, when set, makes /v1/models fail with this status (to exercise fallbacks).
	ModelsStatus int `json:"models_status,omitempty"`
	// Concurrent serves each request the first unserved turn whose expect
	// its last message contains, instead of strictly the next turn: for
	// clients that call the model in parallel (a parent and its background
	// subagents). Give every turn an expect that tells it apart.
	Concurrent bool   `json:"concurrent,omitempty"`
	Turns      []Turn `json:"turns"`
}

// Turn is one model response, preceded by any faults injected into earlier attempts.
type Turn struct {
	// Expect, when set, must be a substring of the request's last message.
	Expect string `json:"expect,omitempty"`
	// Faults each spoil one request before the turn is served; the client is expected to retry.
	Faults       []Fault    `json:"faults,omitempty"`
	Chunks       []string   `json:"chunks,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	Usage        *Usage     `json:"usage,omitempty"`
	FinishReason string     `json:"finish_reason,omitempty"`
	// DelayMS holds the answer this long (a slow model); a client that
	// hangs up meanwhile gets nothing, and the turn counts as served.
	DelayMS int `json:"delay_ms,omitempty"`
}

// Fault spoils one request: an HTTP error status, or a stream cut after some events.
type Fault struct {
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as the Retry-After header, in seconds (fractions allowed).
	RetryAfter float64 `json:"retry_after,omitempty"`
	// Body is the error body; default {"error":{"message":"injected <status>"}}.
	Body string `json:"body,omitempty"`
	// DropAfterChunks ends the stream cleanly but early after this many SSE events.
	DropAfterChunks *int `json:"drop_after_chunks,omitempty"`
}

// ToolCall is a scripted tool call; Arguments are the pieces streamed one per chunk.
type ToolCall struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Arguments []string `json:"arguments"`
}

// Usage is reported at the end of the stream; omit it to test clients' estimates.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// LoadCassette reads a cassette JSON file, failing the test when it cannot.
func LoadCassette(t testing.TB, path string) Cassette {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("llmtest: read cassette: %v", err)
	}
	var c Cassette
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("llmtest: parse cassette %s: %v", path, err)
	}
	return c
}

// finish is the OpenAI finish reason of the turn.
func (t Turn) finish() string {
	switch {
	case t.FinishReason != "":
		return t.FinishReason
	case len(t.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}
