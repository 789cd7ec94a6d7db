package teams

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Settings are a team's knobs; DefaultSettings gives the defaults.
type Settings struct {
	// BlockerEscalation on sends a blocker to the lead first; off sends it
	// straight to the user.
	BlockerEscalation bool `json:"blocker_escalation"`
	// TaskTimeoutSec bounds one dispatch of a task; 0 means no timeout.
	TaskTimeoutSec int `json:"task_timeout_sec"`
	// StalePendingSec and StaleReviewSec mark a task stale after that long
	// pending or in review; 0 turns the check off.
	StalePendingSec int `json:"stale_pending_sec"`
	StaleReviewSec  int `json:"stale_review_sec"`
	// MaxDispatches fails a task dispatched more often than this.
	MaxDispatches int `json:"max_dispatches"`
	// MaxWorking is how many members work at once; 0 means all of them.
	MaxWorking int `json:"max_working"`
	// AskReminderSec repeats an unanswered question to the user after that
	// long, and again after as long; 0 turns reminders off.
	AskReminderSec int `json:"ask_reminder_sec"`
	// AllowMemberRequests lets members create tasks, not only the lead.
	AllowMemberRequests bool `json:"allow_member_requests"`
	// Paused starts no member's turn (planning the board first, or
	// stopping new work); turns already running finish.
	Paused bool `json:"paused"`
}

// DefaultSettings are the settings of a new team.
func DefaultSettings() Settings {
	return Settings{BlockerEscalation: true, TaskTimeoutSec: 1800, StalePendingSec: 86400,
		StaleReviewSec: 86400, MaxDispatches: 3, AskReminderSec: 3600}
}

// Member is an agent on a team with its one-line role.
type Member struct {
	Agent string `json:"agent"`
	Role  string `json:"role"`
}

// Team is a lead, its members, a shared workspace and settings.
type Team struct {
	Key      string `json:"key"`
	Name     string `json:"name"`
	Lead     string `json:"lead"`
	LeadRole string `json:"lead_role"`
	// Workspace is the team's shared folder (absolute); attachments live in it.
	Workspace string    `json:"workspace"`
	Members   []Member  `json:"members"`
	Settings  Settings  `json:"settings"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
}

// HasMember reports whether agent is a member (the lead is not a member).
func (t Team) HasMember(agent string) bool {
	for _, m := range t.Members {
		if m.Agent == agent {
			return true
		}
	}
	return false
}

// roster lists the team's agents for error messages.
func (t Team) roster() string {
	names := []string{"'" + t.Lead + "' (lead)"}
	for _, m := range t.Members {
		names = append(names, "'"+m.Agent+"'")
	}
	return strings.Join(names, ", ")
}

// maxRole bounds a role: it is one line in a system prompt.
const maxRole = 300

func validKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i, r := range k {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_')
		if !ok {
			return false
		}
	}
	return true
}

func checkRole(who, r string) (string, error) {
	r = strings.TrimSpace(r)
	if strings.ContainsAny(r, "\r\n") {
		return "", invalidf("the role of '%s' must be one line", who)
	}
	if utf8.RuneCountInString(r) > maxRole {
		return "", invalidf("the role of '%s' is longer than %d characters", who, maxRole)
	}
	return r, nil
}

// prepare trims and checks a team; every agent must exist.
func (s *SQLStore) prepare(ctx context.Context, t Team) (Team, error) {
	t.Key, t.Name, t.Lead = strings.TrimSpace(t.Key), strings.TrimSpace(t.Name), strings.TrimSpace(t.Lead)
	if !validKey(t.Key) {
		return Team{}, invalidf("team key %q must be 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit", t.Key)
	}
	if t.Name == "" {
		t.Name = t.Key
	}
	if s.cfg.AgentExists == nil {
		return Team{}, fmt.Errorf("teams: no agent directory configured")
	}
	if t.Lead == "" {
		return Team{}, invalidf("team '%s' needs a lead agent", t.Key)
	}
	var err error
	if t.LeadRole, err = checkRole(t.Lead, t.LeadRole); err != nil {
		return Team{}, err
	}
	seen := map[string]bool{t.Lead: true}
	agents := []string{t.Lead}
	members := make([]Member, 0, len(t.Members))
	for _, m := range t.Members {
		m.Agent = strings.TrimSpace(m.Agent)
		switch {
		case m.Agent == "":
			return Team{}, invalidf("team '%s' has a member with no agent", t.Key)
		case m.Agent == t.Lead:
			return Team{}, invalidf("'%s' is the lead of team '%s'; the lead is not also listed as a member", m.Agent, t.Key)
		case seen[m.Agent]:
			return Team{}, invalidf("'%s' is listed twice in team '%s'", m.Agent, t.Key)
		}
		seen[m.Agent] = true
		if m.Role, err = checkRole(m.Agent, m.Role); err != nil {
			return Team{}, err
		}
		members = append(members, m)
		agents = append(agents, m.Agent)
	}
	t.Members = members
	for _, a := range agents {
		ok, err := s.cfg.AgentExists(ctx, a)
		if err != nil {
			return Team{}, fmt.Errorf("check agent %s: %w", a, err)
		}
		if !ok {
			return Team{}, notFoundf("agent '%s' does not exist: create it first, then add it to team '%s'", a, t.Key)
		}
	}
	t.Workspace = strings.TrimSpace(t.Workspace)
	if t.Workspace == "" && s.cfg.WorkspaceRoot != "" {
		t.Workspace = filepath.Join(s.cfg.WorkspaceRoot, t.Key)
	}
	if t.Workspace != "" {
		if !filepath.IsAbs(t.Workspace) {
			return Team{}, invalidf("the workspace of team '%s' must be an absolute path, not %q", t.Key, t.Workspace)
		}
		t.Workspace = filepath.Clean(t.Workspace)
	}
	st := t.Settings
	if st.MaxDispatches < 1 || st.TaskTimeoutSec < 0 || st.StalePendingSec < 0 || st.StaleReviewSec < 0 || st.MaxWorking < 0 || st.AskReminderSec < 0 {
		return Team{}, invalidf("team '%s' settings: max_dispatches must be at least 1; timeouts, stale thresholds, reminders and max_working cannot be negative", t.Key)
	}
	return t, nil
}

// CreateTeam stores a new team; only the user (or the system) edits teams.
func (s *SQLStore) CreateTeam(ctx context.Context, by Actor, t Team) (Team, error) {
	return s.saveTeam(ctx, by, t, true)
}

// UpdateTeam replaces a team's name, lead, members, workspace and settings.
// Tasks keep their owners even when a member leaves.
func (s *SQLStore) UpdateTeam(ctx context.Context, by Actor, t Team) (Team, error) {
	return s.saveTeam(ctx, by, t, false)
}

func (s *SQLStore) saveTeam(ctx context.Context, by Actor, t Team, create bool) (Team, error) {
	if by.Kind != ActorUser && by.Kind != ActorSystem {
		return Team{}, &Error{Code: CodeDenied, Msg: "only the user can create or edit teams; you are agent '" + by.Name + "'"}
	}
	t, err := s.prepare(ctx, t)
	if err != nil {
		return Team{}, err
	}
	now := fmtTime(s.cfg.Now())
	st := t.Settings
	var events []Event
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		var exists bool
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM teams WHERE key = ?)", t.Key).Scan(&exists); err != nil {
			return err
		}
		typ := EventTeamCreated
		switch {
		case create && exists:
			return conflictf("team '%s' already exists", t.Key)
		case !create && !exists:
			return notFoundf("team '%s' does not exist", t.Key)
		case create:
			_, err := tx.ExecContext(ctx, `INSERT INTO teams (key, name, lead, lead_role, workspace, blocker_escalation,
				task_timeout_sec, stale_pending_sec, stale_review_sec, max_dispatches, max_working, allow_member_requests, paused,
				ask_reminder_sec, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				t.Key, t.Name, t.Lead, t.LeadRole, t.Workspace, st.BlockerEscalation, st.TaskTimeoutSec, st.StalePendingSec,
				st.StaleReviewSec, st.MaxDispatches, st.MaxWorking, st.AllowMemberRequests, st.Paused, st.AskReminderSec, now, now)
			if err != nil {
				return fmt.Errorf("create team %s: %w", t.Key, err)
			}
		default:
			typ = EventTeamUpdated
			_, err := tx.ExecContext(ctx, `UPDATE teams SET name = ?, lead = ?, lead_role = ?, workspace = ?,
				blocker_escalation = ?, task_timeout_sec = ?, stale_pending_sec = ?, stale_review_sec = ?, max_dispatches = ?,
				max_working = ?, allow_member_requests = ?, paused = ?, ask_reminder_sec = ?, updated_at = ? WHERE key = ?`,
				t.Name, t.Lead, t.LeadRole, t.Workspace, st.BlockerEscalation, st.TaskTimeoutSec, st.StalePendingSec,
				st.StaleReviewSec, st.MaxDispatches, st.MaxWorking, st.AllowMemberRequests, st.Paused, st.AskReminderSec, now, t.Key)
			if err != nil {
				return fmt.Errorf("update team %s: %w", t.Key, err)
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM team_members WHERE team = ?", t.Key); err != nil {
				return fmt.Errorf("update team %s: %w", t.Key, err)
			}
		}
		for i, m := range t.Members {
			if _, err := tx.ExecContext(ctx, "INSERT INTO team_members (team, agent, role, position) VALUES (?, ?, ?, ?)",
				t.Key, m.Agent, m.Role, i); err != nil {
				return fmt.Errorf("team %s member %s: %w", t.Key, m.Agent, err)
			}
		}
		saved, err := loadTeam(ctx, tx, t.Key)
		if err != nil {
			return err
		}
		who, _ := resolve(saved, by)
		tn := &txn{ctx: ctx, q: tx, now: s.cfg.Now().UTC(), team: saved, who: who}
		members := make([]string, 0, len(t.Members))
		for _, m := range t.Members {
			members = append(members, m.Agent)
		}
		if err := tn.record("", typ, map[string]any{"lead": t.Lead, "members": members}); err != nil {
			return err
		}
		events = tn.events
		return nil
	})
	if err != nil {
		return Team{}, err
	}
	s.publish(events)
	return s.GetTeam(ctx, t.Key)
}

// DeleteTeam removes a team with its board, audit trail and mailbox.
func (s *SQLStore) DeleteTeam(ctx context.Context, by Actor, key string) error {
	if by.Kind != ActorUser && by.Kind != ActorSystem {
		return &Error{Code: CodeDenied, Msg: "only the user can delete teams; you are agent '" + by.Name + "'"}
	}
	res, err := s.db.SQL().ExecContext(ctx, "DELETE FROM teams WHERE key = ?", key)
	if err != nil {
		return fmt.Errorf("delete team %s: %w", key, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFoundf("team '%s' does not exist", key)
	}
	s.publish([]Event{{Team: key, Type: EventTeamDeleted, ActorKind: RecordKind(by.Kind), Actor: by.Name,
		Data: []byte("{}"), Time: s.cfg.Now().UTC()}})
	return nil
}
