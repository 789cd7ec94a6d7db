package teams

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// FormatTaskID is the human id of task number n: "T-12".
func FormatTaskID(n int) string { return "T-" + strconv.Itoa(n) }

// ParseTaskID reads "T-12", "t-12", "#12" or "12".
func ParseTaskID(s string) (int, error) {
	id := strings.TrimSpace(s)
	id = strings.TrimPrefix(strings.TrimPrefix(id, "#"), "T")
	id = strings.TrimPrefix(strings.TrimPrefix(id, "t"), "-")
	n, err := strconv.Atoi(id)
	if err != nil || n <= 0 || strings.HasPrefix(id, "+") {
		return 0, invalidf("task id %q is not a task id: use the form T-12", s)
	}
	return n, nil
}

const taskCols = `id, team, num, subject, description, priority, state, owner, require_approval, result, progress, step,
	hold, reason, escalate_to, question, answer, dispatch_count, dispatched_at, heartbeat_at, created_by_kind, created_by,
	created_at, updated_at, state_at, finished_at`

func scanTask(row interface{ Scan(...any) error }) (Task, error) {
	var t Task
	var dispatched, heartbeat, created, updated, stateAt, finished string
	err := row.Scan(&t.rowID, &t.Team, &t.num, &t.Subject, &t.Description, &t.Priority, &t.State, &t.Owner,
		&t.RequireApproval, &t.Result, &t.Progress, &t.Step, &t.Hold, &t.Reason, &t.EscalateTo, &t.Question, &t.Answer,
		&t.DispatchCount, &dispatched, &heartbeat, &t.CreatedByKind, &t.CreatedBy, &created, &updated, &stateAt, &finished)
	if err != nil {
		return Task{}, err
	}
	t.ID = FormatTaskID(t.num)
	t.DispatchedAt, t.HeartbeatAt = parseTime(dispatched), parseTime(heartbeat)
	t.Created, t.Updated, t.StateChanged, t.Finished = parseTime(created), parseTime(updated), parseTime(stateAt), parseTime(finished)
	return t, nil
}

// task loads one task of the transaction's team by its human id. Its
// blockers and counts are not filled: actions do not need them, and the
// outcome reloads the task in full (finish).
func (t *txn) task(ref string) (Task, error) {
	n, err := ParseTaskID(ref)
	if err != nil {
		return Task{}, err
	}
	return t.taskByNum(n)
}

func (t *txn) taskByNum(n int) (Task, error) {
	task, err := scanTask(t.q.QueryRowContext(t.ctx, "SELECT "+taskCols+" FROM team_tasks WHERE team = ? AND num = ?", t.team.Key, n))
	if err != nil {
		return Task{}, noRows(err, "task %s does not exist in team '%s'", FormatTaskID(n), t.team.Key)
	}
	return task, nil
}

func (t *txn) taskByRowID(id int64) (Task, error) {
	task, err := scanTask(t.q.QueryRowContext(t.ctx, "SELECT "+taskCols+" FROM team_tasks WHERE id = ?", id))
	if err != nil {
		return Task{}, fmt.Errorf("load task %d: %w", id, err)
	}
	return task, nil
}

// setState moves a task to a state with its reason, stamping the time of
// the change (stale detection measures from it).
func (t *txn) setState(task *Task, to State, reason string) {
	if task.State != to {
		task.StateChanged = t.now
	}
	task.State, task.Reason = to, reason
	if to.Finished() {
		task.Finished = t.now
	} else {
		task.Finished = time.Time{}
	}
}

// save writes a task's mutable fields.
func (t *txn) save(task *Task) error {
	task.Updated = t.now
	_, err := t.q.ExecContext(t.ctx, `UPDATE team_tasks SET subject = ?, description = ?, priority = ?, state = ?, owner = ?,
		require_approval = ?, result = ?, progress = ?, step = ?, hold = ?, reason = ?, escalate_to = ?, question = ?,
		answer = ?, dispatch_count = ?, dispatched_at = ?, heartbeat_at = ?, updated_at = ?, state_at = ?, finished_at = ?
		WHERE id = ?`,
		task.Subject, task.Description, task.Priority, string(task.State), task.Owner, task.RequireApproval, task.Result,
		task.Progress, task.Step, string(task.Hold), task.Reason, string(task.EscalateTo), task.Question, task.Answer,
		task.DispatchCount, fmtTime(task.DispatchedAt), fmtTime(task.HeartbeatAt), fmtTime(task.Updated),
		fmtTime(task.StateChanged), fmtTime(task.Finished), task.rowID)
	if err != nil {
		return fmt.Errorf("save %s: %w", task.ID, err)
	}
	return nil
}

// decorate fills each task's blockers and comment and attachment counts,
// a few hundred tasks per query.
func decorate(ctx context.Context, q querier, tasks []Task) error {
	const chunk = 500
	for start := 0; start < len(tasks); start += chunk {
		part := tasks[start:min(start+chunk, len(tasks))]
		byID := make(map[int64]*Task, len(part))
		args := make([]any, len(part))
		for i := range part {
			byID[part[i].rowID] = &part[i]
			part[i].BlockedBy = nil
			args[i] = part[i].rowID
		}
		in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(part)), ",") + ")"
		err := eachRow(ctx, q, `SELECT d.task_id, b.num FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
			WHERE d.task_id IN `+in+` ORDER BY d.task_id, b.num`, args, func(scan func(...any) error) error {
			var id int64
			var num int
			if err := scan(&id, &num); err != nil {
				return err
			}
			byID[id].BlockedBy = append(byID[id].BlockedBy, FormatTaskID(num))
			return nil
		})
		if err != nil {
			return fmt.Errorf("task blockers: %w", err)
		}
		err = eachRow(ctx, q, `SELECT id,
			(SELECT COUNT(*) FROM team_task_comments c WHERE c.task_id = t.id),
			(SELECT COUNT(*) FROM team_task_attachments a WHERE a.task_id = t.id)
			FROM team_tasks t WHERE id IN `+in, args, func(scan func(...any) error) error {
			var id int64
			var comments, attachments int
			if err := scan(&id, &comments, &attachments); err != nil {
				return err
			}
			byID[id].Comments, byID[id].Attachments = comments, attachments
			return nil
		})
		if err != nil {
			return fmt.Errorf("task counts: %w", err)
		}
	}
	return nil
}

// eachRow runs a query and calls fn with each row's Scan.
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(scan func(...any) error) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
