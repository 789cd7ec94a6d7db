package teams

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Input bounds: a subject is a card title; the rest are sanity limits so a
// runaway model cannot store megabytes in one field.
const (
	maxSubject = 500
	maxText    = 100_000
)

// NewTask is what create takes.
type NewTask struct {
	Subject     string
	Description string
	// Priority runs from 0 (normal) to 3 (most urgent).
	Priority int
	// Assignee is a team agent; "" leaves the task on the board to be claimed.
	Assignee string
	// BlockedBy are ids of tasks of the same team this one waits for.
	BlockedBy []string
	// RequireApproval sends the finished work to review before it completes.
	RequireApproval bool
}

// TaskUpdate changes the fields that are set; nil leaves a field alone.
type TaskUpdate struct {
	Subject     *string
	Description *string
	Priority    *int
	// BlockedBy replaces the task's blockers; an empty list clears them.
	BlockedBy *[]string
	// Assignee reassigns the task; "" unassigns it.
	Assignee *string
}

func checkText(field, s string, limit int, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if required && s == "" {
		return "", invalidf("%s is required", field)
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return "", invalidf("%s is %d characters; the limit is %d", field, n, limit)
	}
	return s, nil
}

func checkPriority(p int) error {
	if p < 0 || p > 3 {
		return invalidf("priority %d is out of range: use 0 (normal) to 3 (most urgent)", p)
	}
	return nil
}

// CreateTask adds a task to the board with the next id of its team. The
// lead, the user or the system create tasks; members only when the team
// allows requests. A task with unfinished blockers starts blocked.
func (s *SQLStore) CreateTask(ctx context.Context, c Call, in NewTask) (Outcome, error) {
	return s.write(ctx, c, func(t *txn) error {
		if err := t.require(t.leadOrUser() || t.who.kind == ActorMember && t.team.Settings.AllowMemberRequests,
			"only the lead or the user can create tasks in team '%s' (members can when the team allows requests)", t.team.Key); err != nil {
			return err
		}
		subject, err := checkText("subject", in.Subject, maxSubject, true)
		if err != nil {
			return err
		}
		desc, err := checkText("description", in.Description, maxText, false)
		if err != nil {
			return err
		}
		if err := checkPriority(in.Priority); err != nil {
			return err
		}
		owner := ""
		if strings.TrimSpace(in.Assignee) != "" {
			if owner, err = t.teamAgent(in.Assignee, "assignee"); err != nil {
				return err
			}
		}
		blockers, err := t.blockers(0, in.BlockedBy)
		if err != nil {
			return err
		}
		var num int
		if err := t.q.QueryRowContext(t.ctx, "UPDATE teams SET next_task = next_task + 1 WHERE key = ? RETURNING next_task - 1",
			t.team.Key).Scan(&num); err != nil {
			return fmt.Errorf("allocate task id: %w", err)
		}
		now := fmtTime(t.now)
		var id int64
		err = t.q.QueryRowContext(t.ctx, `INSERT INTO team_tasks (team, num, subject, description, priority, state, owner,
			require_approval, created_by_kind, created_by, created_at, updated_at, state_at)
			VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			t.team.Key, num, subject, desc, in.Priority, owner, in.RequireApproval, string(t.who.record()), t.who.name,
			now, now, now).Scan(&id)
		if err != nil {
			return fmt.Errorf("create task: %w", err)
		}
		task, err := t.taskByRowID(id)
		if err != nil {
			return err
		}
		if err := t.setBlockers(&task, blockers); err != nil {
			return err
		}
		if _, _, err := t.recompute(&task); err != nil {
			return err
		}
		t.focus = id
		t.markReady(task)
		return t.record(task.ID, EventCreated, map[string]any{"subject": subject, "priority": in.Priority,
			"assignee": owner, "blocked_by": task.BlockedBy, "require_approval": in.RequireApproval, "state": task.State})
	})
}

// UpdateTask changes subject, description, priority, blocked_by or the
// assignee (lead or user) and recomputes the state from the blockers.
func (s *SQLStore) UpdateTask(ctx context.Context, c Call, in TaskUpdate) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can update %s", task.ID); err != nil {
			return err
		}
		if in.Subject == nil && in.Description == nil && in.Priority == nil && in.BlockedBy == nil && in.Assignee == nil {
			return invalidf("update needs at least one of subject, description, priority, blocked_by, assignee")
		}
		changed := map[string]any{}
		if in.Subject != nil {
			v, err := checkText("subject", *in.Subject, maxSubject, true)
			if err != nil {
				return err
			}
			task.Subject, changed["subject"] = v, v
		}
		if in.Description != nil {
			v, err := checkText("description", *in.Description, maxText, false)
			if err != nil {
				return err
			}
			task.Description, changed["description"] = v, true
		}
		if in.Priority != nil {
			if err := checkPriority(*in.Priority); err != nil {
				return err
			}
			task.Priority, changed["priority"] = *in.Priority, *in.Priority
		}
		if in.BlockedBy != nil {
			blockers, err := t.blockers(task.num, *in.BlockedBy)
			if err != nil {
				return err
			}
			if err := t.checkCycle(*task, blockers); err != nil {
				return err
			}
			if task.State == StateInProgress || task.State == StateInReview {
				for _, b := range blockers {
					if b.State != StateCompleted {
						return conflictf("%s is %s; it cannot start waiting for %s (%s) now: cancel it first or wait until it is done",
							task.ID, task.State, b.ID, b.State)
					}
				}
			}
			if err := t.setBlockers(task, blockers); err != nil {
				return err
			}
			changed["blocked_by"] = task.BlockedBy
		}
		if err := t.save(task); err != nil {
			return err
		}
		if in.Assignee != nil {
			if err := t.reassign(task, *in.Assignee); err != nil {
				return err
			}
			changed["assignee"] = task.Owner
		}
		ready, _, err := t.recompute(task)
		if err != nil {
			return err
		}
		if ready {
			t.markReady(*task)
		}
		changed["state"] = task.State
		return t.record(task.ID, EventUpdated, changed)
	})
}
