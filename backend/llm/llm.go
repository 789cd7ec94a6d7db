// Package llm talks to language models: OpenAI-compatible servers (Ollama, LM Studio, llama.cpp,
// OpenAI) and Anthropic, behind one streaming Provider interface, plus the helpers an agent loop
// needs around them: tool-call emulation, argument repair, token estimates and context trimming.
package llm

import (
	"context"
	"encoding/json"
	"errors"
)

// Role is who wrote a message.
type Role string

// The roles a conversation uses.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation in a provider-neutral shape.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// ToolCall is a model's request to run a tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is raw JSON text; after a stream completes it has been repaired when that was safe.
	Arguments string `json:"arguments"`
}

// ToolDef describes a tool offered to the model; Parameters is a JSON schema.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Usage counts tokens of one model call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// Estimated is true when the server reported no usage and EstimateTokens filled it in.
	Estimated bool `json:"estimated,omitempty"`
}

// Request is one model call.
type Request struct {
	Model       string
	Messages    []Message
	Tools       []ToolDef
	Temperature *float64
	MaxTokens   int
}

// EventType tells what a stream Event carries.
type EventType string

// The events a Stream delivers.
const (
	EventTextDelta     EventType = "text_delta"
	EventToolCallDelta EventType = "tool_call_delta"
	EventToolCallDone  EventType = "tool_call_done"
	EventUsage         EventType = "usage"
	EventDone          EventType = "done"
	EventError         EventType = "error"
)

// Event is one streamed piece of a response.
//
// text_delta: Text. tool_call_delta: Index and a ToolCall holding the ID/Name when first known and
// this piece of Arguments. tool_call_done: Index and the complete ToolCall; Err wraps
// ErrMalformedArguments when its arguments were not valid JSON and could not be repaired.
// usage: Usage. done: FinishReason. error: Err, sent once just before Stream returns an error.
type Event struct {
	Type         EventType
	Text         string
	ToolCall     *ToolCall
	Index        int
	Usage        *Usage
	Err          error
	FinishReason string
}

// Response is the assembled result of a Stream.
type Response struct {
	Message      Message
	Usage        Usage
	FinishReason string
}

// Model is a model a provider offers.
type Model struct {
	ID string `json:"id"`
}

// Provider is a model backend.
type Provider interface {
	// Name identifies the provider in errors and logs.
	Name() string
	// Stream runs req, calling on for every event as it arrives, and returns the assembled response.
	Stream(ctx context.Context, req Request, on func(Event)) (Response, error)
	// Models lists the models the backend serves.
	Models(ctx context.Context) ([]Model, error)
}

// Finish reasons, normalised to the OpenAI vocabulary for every provider.
const (
	FinishStop      = "stop"
	FinishToolCalls = "tool_calls"
	FinishLength    = "length"
)

var (
	// ErrStreamDropped means the connection ended before the response was complete.
	ErrStreamDropped = errors.New("stream dropped before completion")
	// ErrMalformedArguments means a tool call's arguments were not valid JSON and could not be repaired.
	ErrMalformedArguments = errors.New("malformed tool call arguments")
)
