package agent

import (
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
)

// conversation is what a turn sends to the model, kept in the parts that
// summarising replaces separately.
type conversation struct {
	system llm.Message
	// summary is the newest stored summary; it stands in for every
	// message it covers.
	summary *llm.Message
	// prior are the stored messages after the summary (earlier turns),
	// priorIDs their ids, so a new summary can record what it covers.
	prior    []llm.Message
	priorIDs []int64
	// current is this turn: its prompt and everything after it. It is
	// never summarised (Trim may still drop its oldest tool groups).
	current []llm.Message
	// summaryFailed stops a turn from retrying a failed summary before
	// every model call; it trims instead.
	summaryFailed bool
}

// newConversation builds the model's view of a stored history: the newest
// summary replaces the messages it covers, older summaries are superseded,
// and notifications (the message tool's deliveries) stay out, since the
// model already has the tool call that made them.
func newConversation(system string, stored []sessions.Message) *conversation {
	c := &conversation{system: llm.Message{Role: llm.RoleSystem, Content: system}}
	var covers int64
	for i := len(stored) - 1; i >= 0; i-- {
		if m := stored[i]; m.Kind == sessions.KindSummary {
			c.summary = &llm.Message{Role: llm.RoleSystem, Content: m.Content}
			covers = m.CoversThrough
			break
		}
	}
	for _, m := range stored {
		if m.ID <= covers || m.Kind == sessions.KindSummary || m.Kind == sessions.KindNotification {
			continue
		}
		c.prior = append(c.prior, fromStored(m))
		c.priorIDs = append(c.priorIDs, m.ID)
	}
	return c
}

// messages is the whole conversation in order.
func (c *conversation) messages() []llm.Message {
	out := make([]llm.Message, 0, 2+len(c.prior)+len(c.current))
	out = append(out, c.system)
	if c.summary != nil {
		out = append(out, *c.summary)
	}
	out = append(out, c.prior...)
	return append(out, c.current...)
}

func fromStored(m sessions.Message) llm.Message {
	msg := llm.Message{Role: llm.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
	for _, tc := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return msg
}
