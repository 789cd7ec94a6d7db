// Package sessiontools lets an agent look at and talk to other sessions:
// sessions_list, sessions_history and sessions_send.
package sessiontools

import (
	"context"
	"errors"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

// Deps configures the session tools.
type Deps struct {
	Sessions sessions.Store
	// Send runs a turn in another session with text as the user message and
	// returns the reply (usually agent.Loop.Run with Session set, which also
	// stores the user message). Nil makes sessions_send report unavailable.
	Send func(ctx context.Context, sessionID, text string) (reply string, err error)
}

// Tools builds the session tools.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Sessions == nil {
		return nil, errors.New("session tools: no session store")
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newList, newHistory, newSend} {
		t, err := b(d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
