package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

type anRequest struct {
	Model       string      `json:"model"`
	System      string      `json:"system,omitempty"`
	Messages    []anMessage `json:"messages"`
	Tools       []anTool    `json:"tools,omitempty"`
	MaxTokens   int         `json:"max_tokens"`
	Temperature *float64    `json:"temperature,omitempty"`
	Stream      bool        `json:"stream"`
}

type anMessage struct {
	Role    Role      `json:"role"`
	Content []anBlock `json:"content"`
}

type anBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
}

type anTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// toAnthropicRequest maps the neutral conversation onto the Messages API: system text moves to the
// top level, tool results become tool_result blocks in a user turn, and consecutive same-role
// messages merge because the API insists on alternating roles.
func toAnthropicRequest(req Request, defaultMax int) anRequest {
	out := anRequest{Model: req.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature, Stream: true}
	if out.MaxTokens == 0 {
		out.MaxTokens = defaultMax
	}
	var system []string
	for _, m := range req.Messages {
		var role Role
		var blocks []anBlock
		switch m.Role {
		case RoleSystem:
			system = append(system, m.Content)
			continue
		case RoleTool:
			role = RoleUser
			blocks = []anBlock{{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Content}}
		case RoleAssistant:
			role = RoleAssistant
			if m.Content != "" {
				blocks = append(blocks, anBlock{Type: "text", Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, anBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: toolInput(tc.Arguments)})
			}
		default:
			role = RoleUser
			if m.Content != "" { // the API rejects empty text blocks
				blocks = []anBlock{{Type: "text", Text: m.Content}}
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out.Messages); n > 0 && out.Messages[n-1].Role == role {
			out.Messages[n-1].Content = append(out.Messages[n-1].Content, blocks...)
			continue
		}
		out.Messages = append(out.Messages, anMessage{Role: role, Content: blocks})
	}
	out.System = strings.Join(system, "\n\n")
	for _, t := range req.Tools {
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, anTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out
}

// toolInput turns stored arguments into the JSON object tool_use requires.
func toolInput(args string) json.RawMessage {
	if fixed, ok := RepairArguments(args); ok && strings.HasPrefix(fixed, "{") {
		return json.RawMessage(fixed)
	}
	return json.RawMessage(`{}`) // the API rejects the whole request otherwise
}

type anEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		Usage anUsage `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anUsage `json:"usage"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type anUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// parseAnthropicStream reads Messages API events until message_stop.
func parseAnthropicStream(ctx context.Context, r io.Reader, emit func(Event)) (Response, error) {
	a := newAssembler(emit)
	var usage Usage
	stop := ""
	stopped := false
	toolIndex := map[int]int{} // content block index -> tool call ordinal
	err := readSSE(r, func(ev sseEvent) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var e anEvent
		if err := json.Unmarshal(ev.Data, &e); err != nil {
			return fmt.Errorf("decode event %.80q: %w", ev.Data, err)
		}
		switch e.Type {
		case "message_start":
			usage.PromptTokens = e.Message.Usage.InputTokens
			usage.CompletionTokens = e.Message.Usage.OutputTokens
		case "content_block_start":
			switch e.ContentBlock.Type {
			case "text":
				a.textDelta(e.ContentBlock.Text)
			case "tool_use":
				toolIndex[e.Index] = len(toolIndex)
				a.toolDelta(toolIndex[e.Index], e.ContentBlock.ID, e.ContentBlock.Name, "")
			}
		case "content_block_delta":
			switch e.Delta.Type {
			case "text_delta":
				a.textDelta(e.Delta.Text)
			case "input_json_delta":
				if i, ok := toolIndex[e.Index]; ok {
					a.toolDelta(i, "", "", e.Delta.PartialJSON)
				}
			}
		case "message_delta":
			if e.Delta.StopReason != "" {
				stop = e.Delta.StopReason
			}
			if e.Usage != nil {
				usage.CompletionTokens = e.Usage.OutputTokens
			}
		case "message_stop":
			stopped = true
			return errStopSSE
		case "error":
			return fmt.Errorf("server error in stream: %s: %s", e.Error.Type, e.Error.Message)
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	if !stopped && stop == "" {
		return Response{}, fmt.Errorf("%w: no message_stop or stop_reason", ErrStreamDropped)
	}
	usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	resp := a.response(usage, anthropicFinish(stop))
	emit(Event{Type: EventUsage, Usage: &usage})
	emit(Event{Type: EventDone, FinishReason: resp.FinishReason})
	return resp, nil
}

// anthropicFinish maps stop reasons onto the OpenAI vocabulary the agent loop switches on.
func anthropicFinish(stop string) string {
	switch stop {
	case "tool_use":
		return FinishToolCalls
	case "max_tokens":
		return FinishLength
	case "end_turn", "stop_sequence", "":
		return FinishStop
	}
	return stop
}
