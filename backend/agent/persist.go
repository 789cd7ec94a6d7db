package agent

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
)

// partialSaveTimeout bounds storing a cut-off reply after its turn's
// context ended (the user pressed Stop).
const partialSaveTimeout = 5 * time.Second

// savePrompt stores the turn's prompt, replacing req.ReplaceFrom and what
// follows it when set, and tells the UI the prompt's id (for the user's own
// words; announcements are not edited).
func (l *Loop) savePrompt(ctx context.Context, req RunRequest, sid string, user llm.Message, on func(Event)) error {
	m := toStored(user)
	m.Kind = req.PromptKind
	ids, err := l.d.Sessions.ReplaceFrom(ctx, sid, req.ReplaceFrom, m)
	if err != nil {
		return err
	}
	if req.PromptKind == "" && len(ids) == 1 {
		on(Event{Kind: EventPrompt, Session: sid, MessageID: ids[0]})
	}
	return nil
}

// keepPartial stores the text a model call streamed before it failed, marked
// incomplete with why, so the history shows what the user saw. It runs after
// a Stop too, so it outlives ctx (briefly); a failure is only logged, the
// turn's own error is what the user needs to see.
func (l *Loop) keepPartial(ctx context.Context, req RunRequest, sid, text string, cause error) {
	if text == "" {
		return
	}
	reason := sessions.IncompleteError
	switch {
	case ctx.Err() != nil:
		reason = sessions.IncompleteStopped
	case errors.Is(cause, llm.ErrStreamDropped), errors.Is(cause, io.ErrUnexpectedEOF):
		reason = sessions.IncompleteDropped
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), partialSaveTimeout)
	defer cancel()
	m := sessions.Message{Role: string(llm.RoleAssistant), Content: text, Model: req.Model, Incomplete: reason}
	if err := l.d.Sessions.Append(sctx, sid, m); err != nil {
		l.log().Warn("a cut-off reply was not stored", "session", sid, "err", err)
	}
}

// persist stores a step's messages in one transaction, the assistant's
// with the model that wrote them.
func (l *Loop) persist(ctx context.Context, req RunRequest, sid string, ms ...llm.Message) error {
	stored := make([]sessions.Message, len(ms))
	for i, m := range ms {
		stored[i] = toStored(m)
		if m.Role == llm.RoleAssistant {
			stored[i].Model = req.Model
		}
	}
	return l.d.Sessions.Append(ctx, sid, stored...)
}

// persistKind stores messages of one kind in one transaction.
func (l *Loop) persistKind(ctx context.Context, sid, kind string, ms ...llm.Message) error {
	stored := make([]sessions.Message, len(ms))
	for i, m := range ms {
		stored[i] = toStored(m)
		stored[i].Kind = kind
	}
	return l.d.Sessions.Append(ctx, sid, stored...)
}

func toStored(m llm.Message) sessions.Message {
	out := sessions.Message{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, sessions.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
	}
	return out
}
