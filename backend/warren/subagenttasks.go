package warren

import (
	"github.com/warren-dev/warren/backend/agent"
)

// SubagentTasks returns the subagents a session started, oldest first,
// including finished ones not yet archived (never nil).
func (w *Warren) SubagentTasks(session string) []agent.Task {
	if session == "" {
		return []agent.Task{}
	}
	out := w.subagents.List(session)
	if out == nil {
		out = []agent.Task{}
	}
	return out
}

// CancelSubagent stops one running subagent of a session (or "all" or
// "last") and waits until it has stopped; it returns the ids it cancelled.
func (w *Warren) CancelSubagent(session, id string) ([]string, error) {
	return w.subagents.Cancel(session, id)
}
