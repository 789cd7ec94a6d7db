package system

import (
	"context"
	_ "embed"
	"encoding/json"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed session_status.md
var sessionStatusDoc string

// SessionStatusParams are the (empty) parameters of session_status.
type SessionStatusParams struct{}

type sessionStatus struct {
	Session   string `json:"session"`
	Agent     string `json:"agent"`
	User      string `json:"user"`
	Channel   string `json:"channel"`
	ChatID    string `json:"chat_id,omitempty"`
	PeerKind  string `json:"peer_kind,omitempty"`
	Workspace string `json:"workspace"`
	Time      string `json:"time"`
	Uptime    string `json:"warren_uptime"`
}

func newSessionStatus(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "session_status", Group: "sessions", LongDescription: sessionStatusDoc,
		Description: "Status of the current session (agent, user, channel, workspace).",
	}, func(ctx context.Context, _ SessionStatusParams) (tools.Result, error) {
		cc := tools.CallContextFrom(ctx)
		now := d.Now()
		st := sessionStatus{
			Session: orDefault(cc.SandboxKey, "(none)"), Agent: orDefault(cc.Agent, "default"),
			User: orDefault(cc.User, "local"), Channel: orDefault(cc.Channel, "desktop"),
			ChatID: cc.ChatID, PeerKind: cc.PeerKind,
			Workspace: workspace(cc.Workspace, d.Workspace),
			Time:      now.Format(time.RFC3339), Uptime: now.Sub(d.Started).Round(time.Second).String(),
		}
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(string(b)), nil
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
