package teams

import (
	"context"
	"fmt"
	"time"
)

// MarkDispatched records that the orchestrator started (or restarted) the
// owner's turn on a task: the task is in progress, its dispatch count goes
// up and its heartbeat starts. A task dispatched more often than the team's
// max_dispatches fails instead, with the reason, and the outcome reports its
// dependents as stuck.
func (s *SQLStore) MarkDispatched(ctx context.Context, team, task string) (Outcome, error) {
	return s.onTask(ctx, Call{Team: team, Task: task, By: System()}, func(t *txn, task *Task) error {
		if task.State != StatePending && task.State != StateInProgress {
			return refuseState(*task, "dispatch")
		}
		if task.Owner == "" {
			return conflictf("%s has no owner: assign it before dispatching it", task.ID)
		}
		limit := t.team.Settings.MaxDispatches
		if task.DispatchCount >= limit {
			return t.stop(task, StateFailed, EventFailed, fmt.Sprintf(
				"dispatched %d times without finishing (the team allows %d); retry it, reassign it or split it", task.DispatchCount, limit))
		}
		task.DispatchCount++
		t.setState(task, StateInProgress, "")
		task.DispatchedAt, task.HeartbeatAt = t.now, t.now
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventDispatched, map[string]any{"owner": task.Owner, "dispatch": task.DispatchCount})
	})
}

// Heartbeat says the owner's run on a task is alive. It is not an audit
// event: it is not a transition, and it comes every few seconds.
func (s *SQLStore) Heartbeat(ctx context.Context, team, task string) error {
	n, err := ParseTaskID(task)
	if err != nil {
		return err
	}
	res, err := s.db.SQL().ExecContext(ctx, `UPDATE team_tasks SET heartbeat_at = ? WHERE team = ? AND num = ? AND state = 'in_progress'`,
		fmtTime(s.cfg.Now()), team, n)
	if err != nil {
		return fmt.Errorf("heartbeat %s: %w", task, err)
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return conflictf("%s in team '%s' is not in progress", FormatTaskID(n), team)
	}
	return nil
}

// Orphans returns the tasks of every team that are in progress without a
// heartbeat for longer than olderThan: after a crash their runs are gone and
// the orchestrator re-dispatches them.
func (s *SQLStore) Orphans(ctx context.Context, olderThan time.Duration) ([]Task, error) {
	cutoff := fmtTime(s.cfg.Now().Add(-olderThan))
	return s.tasksWhere(ctx, "state = 'in_progress' AND heartbeat_at < ? ORDER BY team, num", cutoff)
}

// Overdue returns the tasks in progress longer (this dispatch) than their
// team's task timeout.
func (s *SQLStore) Overdue(ctx context.Context) ([]Task, error) {
	teams, err := s.ListTeams(ctx)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	var out []Task
	for _, tm := range teams {
		if tm.Settings.TaskTimeoutSec <= 0 {
			continue
		}
		cutoff := fmtTime(now.Add(-time.Duration(tm.Settings.TaskTimeoutSec) * time.Second))
		ts, err := s.tasksWhere(ctx, `team = ? AND state = 'in_progress'
			AND (CASE WHEN dispatched_at > state_at THEN dispatched_at ELSE state_at END) < ? ORDER BY num`, tm.Key, cutoff)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

// StaleCandidates returns the tasks pending or in review for longer than
// their team's stale thresholds.
func (s *SQLStore) StaleCandidates(ctx context.Context) ([]Task, error) {
	teams, err := s.ListTeams(ctx)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	var out []Task
	for _, tm := range teams {
		for _, c := range []struct {
			state State
			sec   int
		}{{StatePending, tm.Settings.StalePendingSec}, {StateInReview, tm.Settings.StaleReviewSec}} {
			if c.sec <= 0 {
				continue
			}
			cutoff := fmtTime(now.Add(-time.Duration(c.sec) * time.Second))
			ts, err := s.tasksWhere(ctx, "state = ? AND state_at < ? AND team = ? ORDER BY num", string(c.state), cutoff, tm.Key)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
		}
	}
	return out, nil
}

// MarkStale marks a task stale when it is still pending or in review past
// its team's threshold; the outcome reports dependents now stuck behind it.
func (s *SQLStore) MarkStale(ctx context.Context, team, task string) (Outcome, error) {
	return s.onTask(ctx, Call{Team: team, Task: task, By: System()}, func(t *txn, task *Task) error {
		var sec int
		var doing string
		switch task.State {
		case StatePending:
			sec, doing = t.team.Settings.StalePendingSec, "pending without being started"
		case StateInReview:
			sec, doing = t.team.Settings.StaleReviewSec, "in review without being approved or rejected"
		default:
			return conflictf("%s is %s; only pending or in-review tasks go stale", task.ID, task.State)
		}
		limit := time.Duration(sec) * time.Second
		age := t.now.Sub(task.StateChanged)
		if sec <= 0 || age < limit {
			return conflictf("%s is not stale: %s for %s (the team's threshold is %s)", task.ID, task.State,
				age.Round(time.Second), limit)
		}
		if err := t.stop(task, StateStale, EventStale, fmt.Sprintf("%s for %s (the team marks tasks stale after %s); retry, reassign or cancel it",
			doing, age.Round(time.Minute), limit)); err != nil {
			return err
		}
		return nil
	})
}

// lastAskedSQL is when a task's question was last put to the user: asked
// or repeated as a reminder.
const lastAskedSQL = `COALESCE((SELECT MAX(e.created_at) FROM team_events e WHERE e.team = team_tasks.team
	AND e.task = 'T-' || team_tasks.num AND e.type IN ('ask_user', 'ask_user_reminder')), '')`

// ReminderCandidates lists tasks whose question to the user has waited
// longer than their team's reminder interval since it was asked or last
// repeated.
func (s *SQLStore) ReminderCandidates(ctx context.Context) ([]Task, error) {
	teams, err := s.ListTeams(ctx)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	var out []Task
	for _, tm := range teams {
		sec := tm.Settings.AskReminderSec
		if sec <= 0 {
			continue
		}
		cutoff := fmtTime(now.Add(-time.Duration(sec) * time.Second))
		ts, err := s.tasksWhere(ctx, "team = ? AND hold = 'ask_user' AND "+lastAskedSQL+" < ? ORDER BY num", tm.Key, cutoff)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

// RemindAsk records a reminder of a task's open question once its team's
// interval has passed since it was asked or last repeated; the event is
// what the orchestrator turns into a notice for the user.
func (s *SQLStore) RemindAsk(ctx context.Context, team, task string) (Outcome, error) {
	return s.onTask(ctx, Call{Team: team, Task: task, By: System()}, func(t *txn, task *Task) error {
		if task.Hold != HoldAskUser {
			return conflictf("%s has no open question for the user", task.ID)
		}
		sec := t.team.Settings.AskReminderSec
		var last string
		err := t.q.QueryRowContext(t.ctx, "SELECT "+lastAskedSQL+" FROM team_tasks WHERE id = ?", task.rowID).Scan(&last)
		if err != nil {
			return fmt.Errorf("when %s was asked: %w", task.ID, err)
		}
		waited := t.now.Sub(parseTime(last))
		if sec <= 0 || waited < time.Duration(sec)*time.Second {
			return conflictf("%s was asked %s ago; team '%s' reminds after %ds", task.ID, waited.Round(time.Second), t.team.Key, sec)
		}
		return t.record(task.ID, EventAskReminder, map[string]any{"question": task.Question, "owner": task.Owner,
			"waiting_sec": int(waited.Seconds())})
	})
}

// tasksWhere lists tasks of any team matching a condition.
func (s *SQLStore) tasksWhere(ctx context.Context, cond string, args ...any) ([]Task, error) {
	var out []Task
	err := eachRow(ctx, s.db.SQL(), "SELECT "+taskCols+" FROM team_tasks WHERE "+cond, args, func(scan func(...any) error) error {
		task, err := scanTask(scanner(scan))
		out = append(out, task)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	if err := decorate(ctx, s.db.SQL(), out); err != nil {
		return nil, err
	}
	return out, nil
}
