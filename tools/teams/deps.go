// Package teams holds the team tools: team_tasks (the task board) and
// team_message (the mailbox). Both act as the calling agent inside its team,
// through backend/teams, which checks every permission.
package teams

import (
	"context"
	"errors"
	"strings"

	board "github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools"
)

// Deps configures the team tools.
type Deps struct {
	// Store is the teams store; required.
	Store board.Store
	// OnOutcome, when set, receives the outcome of every board change the
	// tools make, so the orchestrator can start the ready tasks and end the
	// turns it names in the same step.
	OnOutcome func(ctx context.Context, team string, out board.Outcome)
}

// Tools builds team_tasks and team_message.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Store == nil {
		return nil, errors.New("team tools: no teams store")
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newTeamTasks, newTeamMessage} {
		t, err := b(d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// caller finds the calling agent's team and its actor there. An agent on
// one team needs no team argument; one on several must name it.
func (d Deps) caller(ctx context.Context, team string) (board.Call, *tools.Result, error) {
	agent := tools.AgentFrom(ctx)
	if agent == "" {
		r := tools.Errorf(tools.CodeValidation, "team tools need an agent context")
		return board.Call{}, &r, nil
	}
	team = strings.TrimSpace(team)
	if team == "" {
		ts, err := d.Store.TeamsOf(ctx, agent)
		if err != nil {
			return board.Call{}, nil, err
		}
		switch len(ts) {
		case 0:
			r := tools.Errorf(tools.CodePermission, "agent '%s' is not on any team", agent)
			return board.Call{}, &r, nil
		case 1:
			team = ts[0].Key
		default:
			keys := make([]string, len(ts))
			for i, t := range ts {
				keys[i] = t.Key
			}
			r := tools.Errorf(tools.CodeValidation, "agent '%s' is on several teams (%s): pass team", agent, strings.Join(keys, ", "))
			return board.Call{}, &r, nil
		}
	}
	actor, err := d.Store.ActorFor(ctx, team, agent)
	if err != nil {
		r, goErr := refusal(err)
		return board.Call{}, r, goErr
	}
	return board.Call{Team: team, By: actor}, nil, nil
}

// refusal turns a store refusal into an error result the model can act on
// (nil Go error) and passes infrastructure failures through.
func refusal(err error) (*tools.Result, error) {
	var code tools.ErrorCode
	switch board.CodeOf(err) {
	case board.CodeInvalid:
		code = tools.CodeValidation
	case board.CodeNotFound:
		code = tools.CodeNotFound
	case board.CodeDenied:
		code = tools.CodePermission
	case board.CodeConflict:
		// The board changed under the model (someone else claimed the
		// task, its state moved on): an execution error it can react to.
		code = tools.CodeExecution
	default:
		return nil, err
	}
	r := tools.Errorf(code, "%s", err.Error())
	return &r, nil
}

// fail returns refusal as the tool's (Result, error) pair.
func fail(err error) (tools.Result, error) {
	r, goErr := refusal(err)
	if goErr != nil {
		return tools.Result{}, goErr
	}
	return *r, nil
}
