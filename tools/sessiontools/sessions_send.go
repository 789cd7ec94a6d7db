package sessiontools

import (
	"context"
	_ "embed"
	"errors"
	"strings"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

//go:embed sessions_send.md
var sessionsSendDoc string

// SessionsSendParams are the parameters of sessions_send.
type SessionsSendParams struct {
	SessionID string `json:"session_id" description:"The target session id (from sessions_list)"`
	Message   string `json:"message" description:"The message to send as the session's user"`
}

func newSend(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "sessions_send", Group: "sessions", LongDescription: sessionsSendDoc, Danger: tools.DangerWarning,
		Description: "Send a message to another session and return its agent's reply.",
	}, func(ctx context.Context, p SessionsSendParams) (tools.Result, error) {
		id, msg := strings.TrimSpace(p.SessionID), strings.TrimSpace(p.Message)
		if id == "" || msg == "" {
			return tools.Errorf(tools.CodeValidation, "session_id and message are required"), nil
		}
		if id == tools.SandboxKeyFrom(ctx) {
			return tools.Errorf(tools.CodeValidation, "cannot send to your own session"), nil
		}
		if _, err := d.Sessions.Get(ctx, id); errors.Is(err, sessions.ErrNotFound) {
			return tools.Errorf(tools.CodeNotFound, "no session %q (see sessions_list)", id), nil
		} else if err != nil {
			return tools.Result{}, err
		}
		if d.Send == nil {
			return tools.Errorf(tools.CodeExecution, "sessions_send is unavailable: this Warren cannot run other sessions here"), nil
		}
		reply, err := d.Send(ctx, id, msg)
		if err != nil {
			return tools.Errorf(tools.CodeExecution, "session %s failed to answer: %v", id, err), nil
		}
		return tools.Text(reply), nil
	})
}
