package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// The Teams tab's calls (issue 11 §6): thin wrappers over the team board in
// which the person at the window always acts as teams.User(). Refusals come
// back as the board's own sentences (they name the rule that refused).

// TeamTaskInput is what the Teams tab's "new task" form sends.
type TeamTaskInput struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	// Priority runs from 0 (normal) to 3 (most urgent).
	Priority int `json:"priority"`
	// Assignee is a team agent; "" leaves the task to be claimed.
	Assignee        string   `json:"assignee"`
	BlockedBy       []string `json:"blocked_by"`
	RequireApproval bool     `json:"require_approval"`
}

// boardPage is how many tasks one List call fetches while the board loads
// every task of a team.
const boardPage = 500

// board is the team board; Warren does not open without it, so it is
// always there (the error keeps the callers' shape).
func (a *App) board() (teams.Store, error) { return a.core.Teams(), nil }

func (a *App) userCall(team, task string) teams.Call {
	return teams.Call{Team: strings.TrimSpace(team), Task: strings.TrimSpace(task), By: teams.User()}
}

// Teams lists every team with its members and settings.
func (a *App) Teams() ([]teams.Team, error) {
	s, err := a.board()
	if err != nil {
		return nil, err
	}
	out, err := s.ListTeams(a.context())
	if out == nil {
		out = []teams.Team{}
	}
	return out, err
}

// Team returns one team.
func (a *App) Team(key string) (teams.Team, error) {
	s, err := a.board()
	if err != nil {
		return teams.Team{}, err
	}
	return s.GetTeam(a.context(), strings.TrimSpace(key))
}

// DefaultTeamSettings are the settings a new team starts with.
func (a *App) DefaultTeamSettings() teams.Settings { return teams.DefaultSettings() }

// CreateTeam stores a new team; its lead and members must be existing agents.
func (a *App) CreateTeam(t teams.Team) (teams.Team, error) {
	s, err := a.board()
	if err != nil {
		return teams.Team{}, err
	}
	return s.CreateTeam(a.context(), teams.User(), t)
}

// UpdateTeam replaces a team's name, lead, members, roles and settings.
func (a *App) UpdateTeam(t teams.Team) (teams.Team, error) {
	s, err := a.board()
	if err != nil {
		return teams.Team{}, err
	}
	return s.UpdateTeam(a.context(), teams.User(), t)
}

// DeleteTeam removes a team with its board and mailbox.
func (a *App) DeleteTeam(key string) error {
	s, err := a.board()
	if err != nil {
		return err
	}
	return s.DeleteTeam(a.context(), teams.User(), strings.TrimSpace(key))
}

// TeamTasks returns every task of a team, in every state, most urgent first.
func (a *App) TeamTasks(team string) ([]teams.Task, error) {
	s, err := a.board()
	if err != nil {
		return nil, err
	}
	out := []teams.Task{}
	for offset := 0; ; offset += boardPage {
		page, err := s.List(a.context(), a.userCall(team, ""), teams.ListFilter{Limit: boardPage, Offset: offset})
		if err != nil {
			return nil, err
		}
		out = append(out, page.Tasks...)
		if len(page.Tasks) < boardPage || len(out) >= page.Total {
			return out, nil
		}
	}
}

// TeamTask returns a task with its comments, attachments and history.
func (a *App) TeamTask(team, id string) (teams.TaskDetail, error) {
	s, err := a.board()
	if err != nil {
		return teams.TaskDetail{}, err
	}
	return s.Get(a.context(), a.userCall(team, id))
}

// CreateTeamTask puts a task on a team's board as the user.
func (a *App) CreateTeamTask(team string, in TeamTaskInput) (teams.Task, error) {
	return a.act(team, "", func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.CreateTask(a.context(), c, teams.NewTask{Subject: in.Subject, Description: in.Description,
			Priority: in.Priority, Assignee: strings.TrimSpace(in.Assignee), BlockedBy: in.BlockedBy,
			RequireApproval: in.RequireApproval})
	})
}

// CancelTeamTask cancels a task (and stops its member's running turn).
func (a *App) CancelTeamTask(team, id, reason string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Cancel(a.context(), c, reason)
	})
}

// RetryTeamTask runs a failed, stale, cancelled or completed task again,
// optionally with another assignee and a note for it.
func (a *App) RetryTeamTask(team, id, assignee, note string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Retry(a.context(), c, teams.RetryOptions{Assignee: strings.TrimSpace(assignee), Note: note})
	})
}

// ApproveTeamTask approves a task in review.
func (a *App) ApproveTeamTask(team, id string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Approve(a.context(), c)
	})
}

// RejectTeamTask sends a task in review back to its owner with the reason.
func (a *App) RejectTeamTask(team, id, reason string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Reject(a.context(), c, reason)
	})
}

// AssignTeamTask gives a task to a team agent.
func (a *App) AssignTeamTask(team, id, assignee string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Assign(a.context(), c, strings.TrimSpace(assignee))
	})
}

// CommentTeamTask adds the user's note to a task.
func (a *App) CommentTeamTask(team, id, text string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Comment(a.context(), c, text, teams.CommentNote)
	})
}

// AnswerTeamTask answers a member's ask_user question; the task resumes.
func (a *App) AnswerTeamTask(team, id, answer string) (teams.Task, error) {
	return a.act(team, id, func(s teams.Store, c teams.Call) (teams.Outcome, error) {
		return s.Answer(a.context(), c, answer)
	})
}

// TeamEvents returns a team's audit trail after afterID, oldest first
// (limit 0 means the board's default page).
func (a *App) TeamEvents(team string, afterID int64, limit int) ([]teams.Event, error) {
	s, err := a.board()
	if err != nil {
		return nil, err
	}
	out, err := s.Events(a.context(), a.userCall(team, ""), teams.EventFilter{AfterID: afterID, Limit: limit})
	if out == nil {
		out = []teams.Event{}
	}
	return out, err
}

// act runs one board action as the user and returns the task as it now is.
func (a *App) act(team, id string, fn func(teams.Store, teams.Call) (teams.Outcome, error)) (teams.Task, error) {
	s, err := a.board()
	if err != nil {
		return teams.Task{}, err
	}
	out, err := fn(s, a.userCall(team, id))
	if err != nil {
		return teams.Task{}, err
	}
	return out.Task, nil
}

// TeamTalk says where a message to a team's lead went: the chat session
// (known at once for a team request) and the run (known at once for a plain
// chat turn); the UI follows the lead's reply on "agent:event" by either.
type TeamTalk struct {
	Session string `json:"session"`
	RunID   string `json:"run_id"`
	// Request is true when the message started a team request (the lead
	// plans tasks and writes the final answer once they finish); false when
	// orchestration is not running here and it went as a plain chat turn.
	Request bool `json:"request"`
}

// TalkToTeamLead sends the user's message to a team's lead as a team
// request. When no orchestration loop runs in this process it falls back to
// a normal chat turn with the lead, so the message is never lost.
func (a *App) TalkToTeamLead(team, session, prompt string) (TeamTalk, error) {
	if strings.TrimSpace(prompt) == "" {
		return TeamTalk{}, fmt.Errorf("empty message")
	}
	s, err := a.board()
	if err != nil {
		return TeamTalk{}, err
	}
	sess, err := a.core.StartTeamRequest(a.context(), warren.TeamRequest{Team: strings.TrimSpace(team), Prompt: prompt, Session: session})
	if err == nil {
		return TeamTalk{Session: sess, Request: true}, nil
	}
	if !errors.Is(err, warren.ErrTeamsNotRunning) {
		return TeamTalk{}, err
	}
	tm, err := s.GetTeam(a.context(), strings.TrimSpace(team))
	if err != nil {
		return TeamTalk{}, err
	}
	run, err := a.SendChatMessage(ChatRequest{Agent: tm.Lead, Session: session, Prompt: prompt})
	return TeamTalk{Session: session, RunID: run}, err
}
