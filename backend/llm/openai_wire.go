package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

type oaRequest struct {
	Model         string          `json:"model"`
	Messages      []oaMessage     `json:"messages"`
	Tools         []oaTool        `json:"tools,omitempty"`
	Temperature   *float64        `json:"temperature,omitempty"`
	MaxTokens     int             `json:"max_tokens,omitempty"`
	Stream        bool            `json:"stream"`
	StreamOptions oaStreamOptions `json:"stream_options"`
}

type oaStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type oaMessage struct {
	Role       Role         `json:"role"`
	Content    string       `json:"content"`
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
	Name       string       `json:"name,omitempty"`
}

type oaToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type oaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	} `json:"function"`
}

type oaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type oaChunk struct {
	Choices []struct {
		Delta struct {
			Content   string       `json:"content"`
			ToolCalls []oaToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *oaUsage       `json:"usage"`
	Error *oaStreamError `json:"error"`
}

type oaStreamError struct {
	Message string `json:"message"`
}

func toOpenAIRequest(req Request) oaRequest {
	out := oaRequest{
		Model: req.Model, Temperature: req.Temperature, MaxTokens: req.MaxTokens,
		Stream: true, StreamOptions: oaStreamOptions{IncludeUsage: true},
	}
	for _, m := range req.Messages {
		om := oaMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
		for _, tc := range m.ToolCalls {
			var w oaToolCall
			w.ID, w.Type = tc.ID, "function"
			w.Function.Name, w.Function.Arguments = tc.Name, tc.Arguments
			om.ToolCalls = append(om.ToolCalls, w)
		}
		out.Messages = append(out.Messages, om)
	}
	for _, t := range req.Tools {
		var w oaTool
		w.Type = "function"
		w.Function.Name, w.Function.Description, w.Function.Parameters = t.Name, t.Description, t.Parameters
		if len(w.Function.Parameters) == 0 {
			w.Function.Parameters = json.RawMessage(`{"type":"object","properties":{}}`) // llama.cpp requires one
		}
		out.Tools = append(out.Tools, w)
	}
	return out
}

var doneMarker = []byte("[DONE]")

// parseOpenAIStream reads chat.completion.chunk events until [DONE].
func parseOpenAIStream(ctx context.Context, r io.Reader, req Request, emit func(Event)) (Response, error) {
	a := newAssembler(emit)
	var usage *Usage
	finish := ""
	sawDone := false
	err := readSSE(r, func(ev sseEvent) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if bytes.Equal(bytes.TrimSpace(ev.Data), doneMarker) {
			sawDone = true
			return errStopSSE
		}
		var c oaChunk
		if err := json.Unmarshal(ev.Data, &c); err != nil {
			return fmt.Errorf("decode chunk %.80q: %w", ev.Data, err)
		}
		if c.Error != nil {
			return fmt.Errorf("server error in stream: %s", c.Error.Message)
		}
		for _, ch := range c.Choices {
			a.textDelta(ch.Delta.Content)
			for i, tc := range ch.Delta.ToolCalls {
				idx := i // servers that omit index send one whole call per entry
				if tc.Index != nil {
					idx = *tc.Index
				}
				a.toolDelta(idx, tc.ID, tc.Function.Name, tc.Function.Arguments)
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finish = *ch.FinishReason
				a.finishCalls()
			}
		}
		if c.Usage != nil {
			usage = &Usage{PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens, TotalTokens: c.Usage.TotalTokens}
			if usage.TotalTokens == 0 {
				usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
			}
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	if !sawDone && finish == "" {
		return Response{}, fmt.Errorf("%w: no [DONE] or finish_reason", ErrStreamDropped)
	}
	if usage == nil {
		u := a.estimatedUsage(req)
		usage = &u
	}
	if len(a.calls) > 0 && (finish == "" || finish == FinishStop) {
		finish = FinishToolCalls // some local servers say "stop" even when they called tools
	}
	resp := a.response(*usage, finish)
	emit(Event{Type: EventUsage, Usage: usage})
	emit(Event{Type: EventDone, FinishReason: resp.FinishReason})
	return resp, nil
}
