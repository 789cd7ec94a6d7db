package sessiontools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

//go:embed sessions_history.md
var sessionsHistoryDoc string

// Caps keep one history call from flooding the context window.
const (
	maxMessageChars = 2000
	maxArgsChars    = 300
	maxHistoryChars = 16000
)

// SessionsHistoryParams are the parameters of sessions_history.
type SessionsHistoryParams struct {
	SessionID string `json:"session_id" description:"The session id (from sessions_list)"`
	Limit     int    `json:"limit,omitempty" description:"How many of the latest messages (default 30, at most 200)"`
}

func newHistory(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "sessions_history", Group: "sessions", LongDescription: sessionsHistoryDoc,
		Description: "Read the latest messages and tool calls of a session.",
	}, func(ctx context.Context, p SessionsHistoryParams) (tools.Result, error) {
		limit := p.Limit
		if limit <= 0 {
			limit = 30
		}
		limit = min(limit, 200)
		msgs, err := d.Sessions.History(ctx, strings.TrimSpace(p.SessionID), limit)
		if errors.Is(err, sessions.ErrNotFound) {
			return tools.Errorf(tools.CodeNotFound, "no session %q (see sessions_list)", p.SessionID), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		if len(msgs) == 0 {
			return tools.Text("the session has no messages"), nil
		}
		return tools.Text(render(msgs)), nil
	})
}

// render formats messages readably, keeping the newest when over the cap.
func render(msgs []sessions.Message) string {
	blocks := make([]string, len(msgs))
	for i, m := range msgs {
		var b strings.Builder
		switch m.Role {
		case "tool":
			fmt.Fprintf(&b, "[tool result %s %s]", m.Name, m.ToolCallID)
		default:
			fmt.Fprintf(&b, "[%s]", m.Role)
		}
		if c := strings.TrimSpace(m.Content); c != "" {
			b.WriteString(" " + tools.Clip(c, maxMessageChars))
		}
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&b, "\n  → call %s(%s) id=%s", tc.Name, tools.Clip(tc.Arguments, maxArgsChars), tc.ID)
		}
		blocks[i] = b.String()
	}
	total, start := 0, len(blocks)
	for start > 0 && total+len(blocks[start-1]) <= maxHistoryChars {
		start--
		total += len(blocks[start]) + 1
	}
	if start == len(blocks) { // even the newest is too long: show it clipped
		start = len(blocks) - 1
		blocks[start] = tools.Clip(blocks[start], maxHistoryChars)
	}
	out := strings.Join(blocks[start:], "\n")
	if start > 0 {
		out = fmt.Sprintf("(%d earlier messages omitted)\n", start) + out
	}
	return out
}
