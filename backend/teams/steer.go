package teams

import (
	"context"
	"strings"
)

// RetryOptions are retry's optional arguments.
type RetryOptions struct {
	// Assignee runs the task with another team agent.
	Assignee string
	// Note is added as a comment, so the new dispatch carries it.
	Note string
}

// Assign gives a task to a team agent (lead or user). Reassigning a running
// task ends its owner's turn; assigning lifts a blocker pause.
func (s *SQLStore) Assign(ctx context.Context, c Call, assignee string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can assign %s", task.ID); err != nil {
			return err
		}
		if strings.TrimSpace(assignee) == "" {
			return invalidf("assign needs an assignee: one of %s", t.team.roster())
		}
		from := task.Owner
		if err := t.reassign(task, assignee); err != nil {
			return err
		}
		ready, _, err := t.recompute(task)
		if err != nil {
			return err
		}
		if ready || task.State == StatePending {
			t.markReady(*task)
		}
		return t.record(task.ID, EventAssigned, map[string]any{"from": from, "to": task.Owner, "state": task.State})
	})
}

// reassign changes a task's owner and saves it; the caller recomputes the
// state. A fresh owner gets a fresh dispatch budget.
func (t *txn) reassign(task *Task, to string) error {
	switch task.State {
	case StateInReview, StateCompleted, StateFailed, StateCancelled:
		return conflictf("%s is %s; use retry with an assignee to run it again", task.ID, task.State)
	}
	name := ""
	if strings.TrimSpace(to) != "" {
		var err error
		if name, err = t.teamAgent(to, "assignee"); err != nil {
			return err
		}
	} else if task.State == StateInProgress {
		return conflictf("%s is in progress with '%s'; reassign or cancel it instead of unassigning it", task.ID, task.Owner)
	}
	if name == task.Owner && task.Hold != HoldBlocker && task.State != StateStale {
		return nil
	}
	if task.Owner != name {
		t.endTurn(*task)
	}
	if task.Hold == HoldBlocker {
		task.Hold, task.EscalateTo = HoldNone, EscalateNone
	}
	if task.State == StateInProgress || task.State == StateStale || task.Hold == HoldNone && task.State == StateBlocked {
		t.setState(task, StatePending, "")
	}
	task.Owner, task.DispatchCount = name, 0
	return t.save(task)
}

// Retry runs a failed, stale, cancelled or completed task again, or resumes
// one paused by a blocker (lead or user). The earlier result and comments
// stay; progress and the dispatch count start over. Retrying a completed
// task sends its waiting dependents back to blocked.
func (s *SQLStore) Retry(ctx context.Context, c Call, in RetryOptions) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can retry %s", task.ID); err != nil {
			return err
		}
		switch {
		case task.State.Finished(), task.State == StateStale:
		case task.State == StateBlocked && task.Hold == HoldBlocker:
		default:
			return conflictf("%s is %s; retry is for failed, stale, cancelled or completed tasks, or one paused by a blocker",
				task.ID, task.State)
		}
		if strings.TrimSpace(in.Assignee) != "" {
			name, err := t.teamAgent(in.Assignee, "assignee")
			if err != nil {
				return err
			}
			task.Owner = name
		}
		note, err := checkText("note", in.Note, maxText, false)
		if err != nil {
			return err
		}
		if note != "" {
			if err := t.addComment(task, CommentNote, note); err != nil {
				return err
			}
		}
		from := task.State
		task.Hold, task.EscalateTo = HoldNone, EscalateNone
		task.Progress, task.Step, task.DispatchCount = 0, "", 0
		t.setState(task, StatePending, "")
		if err := t.save(task); err != nil {
			return err
		}
		if _, _, err := t.recompute(task); err != nil {
			return err
		}
		t.markReady(*task)
		if err := t.record(task.ID, EventRetried, map[string]any{"from": from, "assignee": task.Owner, "note": clip(note)}); err != nil {
			return err
		}
		return t.settle(*task)
	})
}
