package teams

import (
	"context"
	"fmt"
)

const teamCols = `key, name, lead, lead_role, workspace, blocker_escalation, task_timeout_sec, stale_pending_sec,
	stale_review_sec, max_dispatches, max_working, allow_member_requests, paused, ask_reminder_sec, created_at, updated_at`

func scanTeam(row interface{ Scan(...any) error }) (Team, error) {
	var t Team
	var created, updated string
	st := &t.Settings
	err := row.Scan(&t.Key, &t.Name, &t.Lead, &t.LeadRole, &t.Workspace, &st.BlockerEscalation, &st.TaskTimeoutSec,
		&st.StalePendingSec, &st.StaleReviewSec, &st.MaxDispatches, &st.MaxWorking, &st.AllowMemberRequests, &st.Paused,
		&st.AskReminderSec, &created, &updated)
	t.Created, t.Updated = parseTime(created), parseTime(updated)
	return t, err
}

// loadTeam reads a team with its members.
func loadTeam(ctx context.Context, q querier, key string) (Team, error) {
	t, err := scanTeam(q.QueryRowContext(ctx, "SELECT "+teamCols+" FROM teams WHERE key = ?", key))
	if err != nil {
		return Team{}, noRows(err, "team '%s' does not exist", key)
	}
	rows, err := q.QueryContext(ctx, "SELECT agent, role FROM team_members WHERE team = ? ORDER BY position, agent", key)
	if err != nil {
		return Team{}, fmt.Errorf("team %s members: %w", key, err)
	}
	defer rows.Close()
	t.Members = []Member{}
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.Agent, &m.Role); err != nil {
			return Team{}, fmt.Errorf("team %s members: %w", key, err)
		}
		t.Members = append(t.Members, m)
	}
	return t, rows.Err()
}

// GetTeam returns one team with its members.
func (s *SQLStore) GetTeam(ctx context.Context, key string) (Team, error) {
	return loadTeam(ctx, s.db.SQL(), key)
}

// ListTeams returns every team by key.
func (s *SQLStore) ListTeams(ctx context.Context) ([]Team, error) {
	return s.teamsWhere(ctx, "SELECT key FROM teams ORDER BY key")
}

// TeamsOf returns the teams an agent leads or belongs to, by key.
func (s *SQLStore) TeamsOf(ctx context.Context, agent string) ([]Team, error) {
	return s.teamsWhere(ctx, `SELECT key FROM teams WHERE lead = ?
		UNION SELECT team FROM team_members WHERE agent = ? ORDER BY 1`, agent, agent)
}

func (s *SQLStore) teamsWhere(ctx context.Context, q string, args ...any) ([]Team, error) {
	var keys []string
	err := eachRow(ctx, s.db.SQL(), q, args, func(scan func(...any) error) error {
		var k string
		err := scan(&k)
		keys = append(keys, k)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	out := make([]Team, 0, len(keys))
	for _, k := range keys {
		t, err := s.GetTeam(ctx, k)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// ActorFor returns the agent's actor in a team: its lead or a member.
func (s *SQLStore) ActorFor(ctx context.Context, team, agent string) (Actor, error) {
	t, err := s.GetTeam(ctx, team)
	if err != nil {
		return Actor{}, err
	}
	r, err := resolve(t, Actor{Kind: ActorMember, Name: agent})
	if err != nil {
		return Actor{}, err
	}
	return Actor{Kind: r.kind, Name: r.name}, nil
}
