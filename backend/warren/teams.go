package warren

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
	teamtools "github.com/warren-dev/warren/tools/teams"
)

// TopicTeam carries every board and mailbox event (teams.Event) to the UI.
const TopicTeam events.Topic = "team.event"

// initTeams opens the team board over Warren's database and registers
// team_tasks and team_message. Board events go on the bus as TopicTeam.
func (w *Warren) initTeams() error {
	w.teams = teams.New(w.db, teams.Config{
		AgentExists: func(ctx context.Context, key string) (bool, error) {
			switch _, err := w.db.GetAgent(ctx, key); {
			case err == nil:
				return true, nil
			case errors.Is(err, store.ErrNotFound):
				return false, nil
			default:
				return false, err
			}
		},
		Publish: func(e teams.Event) {
			switch e.Type {
			case teams.EventTeamCreated, teams.EventTeamUpdated, teams.EventTeamDeleted:
				// Team agents get the team tools: who is on a team changed.
				w.forgetAgentPolicies()
			}
			w.bus.Publish(events.Event{Topic: TopicTeam, Payload: e})
		},
		WorkspaceRoot: filepath.Join(filepath.Dir(w.workspace), filepath.Base(w.workspace)+"-teams"),
	})
	ts, err := teamtools.Tools(teamtools.Deps{Store: w.teams, OnOutcome: w.teamOutcome})
	if err != nil {
		return err
	}
	return w.registry.RegisterAll(ts...)
}

// Teams returns the team board.
func (w *Warren) Teams() teams.Store { return w.teams }

// teamOutcome receives what a board change a tool made left behind. The
// turn it ends stops here, before the tool returns, so the member's loop
// makes no further model call; the loop starts the ready tasks.
func (w *Warren) teamOutcome(_ context.Context, team string, out teams.Outcome) {
	o := w.orchestrator()
	if o == nil {
		return
	}
	if out.EndTurn != "" {
		o.endTurn(team, out.EndTurn, out.Task.ID)
	}
	o.poke(team)
}
