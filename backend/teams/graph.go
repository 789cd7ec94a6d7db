package teams

import (
	"fmt"
	"slices"
	"strings"
)

// blockers resolves blocked_by ids to tasks of the same team, without
// duplicates; self (a task number, 0 for a new task) cannot block itself.
func (t *txn) blockers(self int, refs []string) ([]Task, error) {
	var out []Task
	seen := map[int]bool{}
	for _, ref := range refs {
		n, err := ParseTaskID(ref)
		if err != nil {
			return nil, invalidf("blocked_by: task id %q is not a task id: use the form T-12", ref)
		}
		if n == self {
			id := FormatTaskID(n)
			return nil, invalidf("blocked_by would make a cycle: %s → %s (a task cannot wait for itself)", id, id)
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		b, err := t.taskByNum(n)
		if err != nil {
			return nil, notFoundf("blocked_by: task %s does not exist in team '%s'", FormatTaskID(n), t.team.Key)
		}
		out = append(out, b)
	}
	return out, nil
}

// checkCycle refuses blocked_by for task if it would close a cycle, naming
// it: "T-1 → T-3 → T-1" reads "T-1 waits for T-3, which waits for T-1".
func (t *txn) checkCycle(task Task, blockers []Task) error {
	edges := map[int64][]int64{}
	nums := map[int64]int{task.rowID: task.num}
	err := eachRow(t.ctx, t.q, `SELECT a.id, a.num, b.id, b.num FROM team_task_deps d
		JOIN team_tasks a ON a.id = d.task_id JOIN team_tasks b ON b.id = d.blocker_id
		WHERE a.team = ? ORDER BY b.num`, []any{t.team.Key}, func(scan func(...any) error) error {
		var from, to int64
		var fromNum, toNum int
		if err := scan(&from, &fromNum, &to, &toNum); err != nil {
			return err
		}
		nums[from], nums[to] = fromNum, toNum
		edges[from] = append(edges[from], to)
		return nil
	})
	if err != nil {
		return fmt.Errorf("load dependencies: %w", err)
	}
	edges[task.rowID] = nil
	for _, b := range blockers {
		nums[b.rowID] = b.num
		edges[task.rowID] = append(edges[task.rowID], b.rowID)
	}
	for _, b := range blockers {
		path := findPath(edges, b.rowID, task.rowID)
		if path == nil {
			continue
		}
		names := []string{task.ID}
		for _, id := range path {
			names = append(names, FormatTaskID(nums[id]))
		}
		return invalidf("blocked_by would make a cycle: %s (each task waits for the next); drop one of these dependencies",
			strings.Join(names, " → "))
	}
	return nil
}

// findPath returns the nodes from start to goal along edges (breadth first,
// so the shortest cycle is named), or nil.
func findPath(edges map[int64][]int64, start, goal int64) []int64 {
	parent := map[int64]int64{start: start}
	queue := []int64{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == goal {
			var path []int64
			for ; n != start; n = parent[n] {
				path = append(path, n)
			}
			path = append(path, start)
			slices.Reverse(path)
			return path
		}
		for _, next := range edges[n] {
			if _, ok := parent[next]; !ok {
				parent[next] = n
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// setBlockers replaces a task's blocked_by.
func (t *txn) setBlockers(task *Task, blockers []Task) error {
	if _, err := t.q.ExecContext(t.ctx, "DELETE FROM team_task_deps WHERE task_id = ?", task.rowID); err != nil {
		return fmt.Errorf("blocked_by of %s: %w", task.ID, err)
	}
	task.BlockedBy = nil
	for _, b := range blockers {
		if _, err := t.q.ExecContext(t.ctx, "INSERT INTO team_task_deps (task_id, blocker_id) VALUES (?, ?)", task.rowID, b.rowID); err != nil {
			return fmt.Errorf("blocked_by of %s: %w", task.ID, err)
		}
		task.BlockedBy = append(task.BlockedBy, b.ID)
	}
	return nil
}

// waiting is a blocker that has not completed.
type waiting struct {
	id     string
	state  State
	reason string
}

// dead reports whether the blocker will not finish without someone acting.
func (w waiting) dead() bool {
	return w.state == StateFailed || w.state == StateCancelled || w.state == StateStale
}

// unfinished returns the task's blockers that have not completed.
func (t *txn) unfinished(task Task) ([]waiting, error) {
	var out []waiting
	err := eachRow(t.ctx, t.q, `SELECT b.num, b.state, b.reason FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
		WHERE d.task_id = ? AND b.state != 'completed' ORDER BY b.num`, []any{task.rowID}, func(scan func(...any) error) error {
		var w waiting
		var num int
		if err := scan(&num, &w.state, &w.reason); err != nil {
			return err
		}
		w.id = FormatTaskID(num)
		out = append(out, w)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("blockers of %s: %w", task.ID, err)
	}
	return out, nil
}

// waitingReason says what a blocked task waits for and, when a blocker
// failed or was cancelled, what the lead can do about it.
func waitingReason(ws []waiting) (reason string, stuck bool) {
	var parts, dead []string
	for _, w := range ws {
		p := w.id + " (" + string(w.state)
		if w.dead() && w.reason != "" {
			p += ": " + w.reason
		}
		parts = append(parts, p+")")
		if w.dead() {
			dead = append(dead, w.id)
		}
	}
	reason = "waiting for " + strings.Join(parts, ", ")
	if len(dead) > 0 {
		reason += fmt.Sprintf(" — %s will not finish on its own: the lead can retry it, change this task's blocked_by, or cancel this task",
			strings.Join(dead, ", "))
	}
	return reason, len(dead) > 0
}

// recompute derives a pending or blocked task's state from its hold and its
// blockers and saves it when it changed. It reports whether the task just
// became ready (blocked → pending) and whether it is stuck behind a blocker
// that will not finish on its own.
func (t *txn) recompute(task *Task) (ready, stuck bool, err error) {
	if task.State != StatePending && task.State != StateBlocked || task.Hold != HoldNone {
		return false, false, nil
	}
	ws, err := t.unfinished(*task)
	if err != nil {
		return false, false, err
	}
	before, beforeReason := task.State, task.Reason
	if len(ws) == 0 {
		t.setState(task, StatePending, "")
	} else {
		reason, dead := waitingReason(ws)
		stuck = dead
		t.setState(task, StateBlocked, reason)
	}
	if task.State != before || task.Reason != beforeReason {
		if err := t.save(task); err != nil {
			return false, false, err
		}
	}
	return before == StateBlocked && task.State == StatePending, stuck, nil
}

// settle recomputes the waiting dependents of a task whose state changed:
// those whose blockers all completed become ready, those behind a failed or
// cancelled blocker are stuck, and both are reported in the outcome.
func (t *txn) settle(blocker Task) error {
	var ids []int64
	err := eachRow(t.ctx, t.q, `SELECT d.task_id FROM team_task_deps d JOIN team_tasks t ON t.id = d.task_id
		WHERE d.blocker_id = ? AND t.state IN ('pending', 'blocked') ORDER BY t.num`, []any{blocker.rowID},
		func(scan func(...any) error) error {
			var id int64
			err := scan(&id)
			ids = append(ids, id)
			return err
		})
	if err != nil {
		return fmt.Errorf("dependents of %s: %w", blocker.ID, err)
	}
	for _, id := range ids {
		dep, err := t.taskByRowID(id)
		if err != nil {
			return err
		}
		before := dep.State
		ready, stuck, err := t.recompute(&dep)
		if err != nil {
			return err
		}
		switch {
		case ready:
			t.markReady(dep)
			err = t.recordSystem(dep.ID, EventReady, map[string]any{"after": blocker.ID})
		case dep.State == StateBlocked && (before != StateBlocked || stuck):
			err = t.recordSystem(dep.ID, EventBlocked, map[string]any{"after": blocker.ID, "reason": dep.Reason})
		}
		if err != nil {
			return err
		}
		if stuck {
			t.stuck = append(t.stuck, dep.rowID)
		}
	}
	return nil
}

// markReady adds a task now pending to the outcome's ready list.
func (t *txn) markReady(task Task) {
	if task.State == StatePending && !slices.Contains(t.ready, task.rowID) {
		t.ready = append(t.ready, task.rowID)
	}
}
