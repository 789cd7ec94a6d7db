package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/llm"
)

// emulatedView rewrites a conversation for a model without native tool
// calling: its tool calls become the fenced JSON it was taught to write, and
// tool results become user messages, since such servers reject role "tool".
func emulatedView(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			var b strings.Builder
			b.WriteString(m.Content)
			for _, tc := range m.ToolCalls {
				args := json.RawMessage(tc.Arguments)
				if !json.Valid(args) {
					args = json.RawMessage(`{}`)
				}
				call, _ := json.Marshal(map[string]any{"tool": tc.Name, "arguments": args})
				fmt.Fprintf(&b, "\n```json\n%s\n```", call)
			}
			out = append(out, llm.Message{Role: llm.RoleAssistant, Content: strings.TrimSpace(b.String())})
		case m.Role == llm.RoleTool:
			out = append(out, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("[result of tool %s]\n%s", m.Name, m.Content)})
		default:
			out = append(out, m)
		}
	}
	return out
}

// parseEmulated turns tool calls written as text into real ones, with ids
// unique within the session (the parser numbers from zero every time).
func parseEmulated(msg llm.Message, iteration int) llm.Message {
	calls, rest := llm.ParseEmulated(msg.Content)
	if len(calls) == 0 {
		return msg
	}
	for i := range calls {
		calls[i].ID = fmt.Sprintf("emu-%d-%d", iteration, i)
	}
	msg.ToolCalls, msg.Content = calls, strings.TrimSpace(rest)
	return msg
}
