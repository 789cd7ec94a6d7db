package sessiontools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed sessions_list.md
var sessionsListDoc string

// SessionsListParams are the parameters of sessions_list.
type SessionsListParams struct {
	Agent string `json:"agent,omitempty" description:"Only sessions of this agent; all agents when empty"`
	Limit int    `json:"limit,omitempty" description:"Maximum sessions to return (default 20, at most 100)"`
}

func newList(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "sessions_list", Group: "sessions", LongDescription: sessionsListDoc,
		Description: "List recent sessions (conversations) with their id, agent, status and title.",
	}, func(ctx context.Context, p SessionsListParams) (tools.Result, error) {
		limit := p.Limit
		if limit <= 0 {
			limit = 20
		}
		limit = min(limit, 100)
		ss, err := d.Sessions.List(ctx, strings.TrimSpace(p.Agent), limit)
		if err != nil {
			return tools.Result{}, err
		}
		if len(ss) == 0 {
			return tools.Text("no sessions"), nil
		}
		var b strings.Builder
		for _, s := range ss {
			fmt.Fprintf(&b, "%s agent=%s status=%s updated=%s tokens=%d title=%q\n",
				s.ID, s.Agent, s.Status, s.Updated, s.PromptTokens+s.CompletionTokens, tools.Clip(s.Title, 80))
		}
		return tools.Text(strings.TrimSpace(b.String())), nil
	})
}
