package teams

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	board "github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools"
)

//go:embed team_message.md
var teamMessageDoc string

// TeamMessageParams are the parameters of team_message.
type TeamMessageParams struct {
	Action string `json:"action" enum:"send|broadcast|read" description:"What to do"`
	Team   string `json:"team,omitempty" description:"Team key; only needed when you are on several teams"`
	To     string `json:"to,omitempty" description:"The teammate to message (send)"`
	Text   string `json:"text,omitempty" description:"The message (send, broadcast)"`
}

func newTeamMessage(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "team_message", Group: "teams", LongDescription: teamMessageDoc, Danger: tools.DangerSafe,
		Description: "Your team's mailbox: send a message to one teammate, broadcast to all of them, or read your unread messages.",
	}, func(ctx context.Context, p TeamMessageParams) (tools.Result, error) {
		c, r, err := d.caller(ctx, p.Team)
		if r != nil || err != nil {
			return deref(r), err
		}
		switch p.Action {
		case "send":
			if strings.TrimSpace(p.To) == "" {
				return tools.Errorf(tools.CodeValidation, "send needs to: the teammate to message"), nil
			}
			m, err := d.Store.Send(ctx, c, p.To, p.Text)
			if err != nil {
				return fail(err)
			}
			return tools.Text(fmt.Sprintf("sent message %d to %s", m.ID, m.To[0])), nil
		case "broadcast":
			m, err := d.Store.Broadcast(ctx, c, p.Text)
			if err != nil {
				return fail(err)
			}
			return tools.Text(fmt.Sprintf("broadcast message %d to %s", m.ID, strings.Join(m.To, ", "))), nil
		case "read":
			ms, err := d.Store.Read(ctx, c)
			if err != nil {
				return fail(err)
			}
			return tools.Text(inboxText(ms)), nil
		}
		return tools.Errorf(tools.CodeValidation, "unknown action %q: use send, broadcast or read", p.Action), nil
	})
}

// inboxText shows each message with where it came from, the way a message
// reaches a member's session: "[Team message from lead alice] …".
func inboxText(ms []board.Message) string {
	if len(ms) == 0 {
		return "no unread messages"
	}
	lines := []string{fmt.Sprintf("%d unread messages, oldest first:", len(ms))}
	for _, m := range ms {
		kind := "Team message"
		if m.Broadcast {
			kind = "Team broadcast"
		}
		lines = append(lines, fmt.Sprintf("[%s from %s %s, %s] %s", kind, m.FromKind, m.From,
			m.Created.Format("2006-01-02 15:04"), m.Text))
	}
	return strings.Join(lines, "\n")
}
