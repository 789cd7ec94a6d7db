package teams

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ListFilter narrows and pages list.
type ListFilter struct {
	// States keeps tasks in any of these states; empty keeps all.
	States []State
	// Owner keeps one agent's tasks.
	Owner string
	// Order is OrderPriority (default) or OrderNewest.
	Order Order
	// Limit defaults to 50; Offset skips that many tasks.
	Limit, Offset int
}

// TaskPage is one page of a list.
type TaskPage struct {
	Tasks []Task `json:"tasks"`
	// Total counts every task the filter keeps, across pages.
	Total  int `json:"total"`
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// EventFilter pages the audit trail, oldest first.
type EventFilter struct {
	// Task keeps one task's events; empty keeps the whole team's.
	Task string
	// AfterID returns events newer than this id (for tailing).
	AfterID int64
	// Limit defaults to 200.
	Limit int
}

// reader resolves the actor for a read: anyone on the team, the user or
// the system may read the board.
func (s *SQLStore) reader(ctx context.Context, c Call) (Team, error) {
	team, err := loadTeam(ctx, s.db.SQL(), c.Team)
	if err != nil {
		return Team{}, err
	}
	_, err = resolve(team, c.By)
	return team, err
}

// List returns a page of the board, filtered by state and owner, ordered by
// priority (highest first, then oldest) or newest first.
func (s *SQLStore) List(ctx context.Context, c Call, f ListFilter) (TaskPage, error) {
	if _, err := s.reader(ctx, c); err != nil {
		return TaskPage{}, err
	}
	where := []string{"team = ?"}
	args := []any{c.Team}
	if len(f.States) > 0 {
		marks := make([]string, len(f.States))
		for i, st := range f.States {
			if !st.Valid() {
				return TaskPage{}, invalidf("status %q is not a task state: use one of %s", st, stateNames())
			}
			marks[i] = "?"
			args = append(args, string(st))
		}
		where = append(where, "state IN ("+strings.Join(marks, ", ")+")")
	}
	if f.Owner = strings.TrimSpace(f.Owner); f.Owner != "" {
		where = append(where, "owner = ?")
		args = append(args, f.Owner)
	}
	order := "priority DESC, num"
	switch f.Order {
	case "", OrderPriority:
	case OrderNewest:
		order = "num DESC"
	default:
		return TaskPage{}, invalidf("order %q is not known: use priority or newest", f.Order)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Offset < 0 {
		return TaskPage{}, invalidf("offset cannot be negative")
	}
	cond := strings.Join(where, " AND ")
	page := TaskPage{Tasks: []Task{}, Offset: f.Offset, Limit: f.Limit}
	if err := s.db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM team_tasks WHERE "+cond, args...).Scan(&page.Total); err != nil {
		return TaskPage{}, fmt.Errorf("list tasks: %w", err)
	}
	err := eachRow(ctx, s.db.SQL(), "SELECT "+taskCols+" FROM team_tasks WHERE "+cond+" ORDER BY "+order+" LIMIT ? OFFSET ?",
		append(args, f.Limit, f.Offset), func(scan func(...any) error) error {
			task, err := scanTask(scanner(scan))
			page.Tasks = append(page.Tasks, task)
			return err
		})
	if err != nil {
		return TaskPage{}, fmt.Errorf("list tasks: %w", err)
	}
	if err := decorate(ctx, s.db.SQL(), page.Tasks); err != nil {
		return TaskPage{}, err
	}
	return page, nil
}

// scanner adapts a Scan function to scanTask's argument.
type scanner func(...any) error

// Scan calls the adapted function.
func (f scanner) Scan(dest ...any) error { return f(dest...) }

func stateNames() string {
	var names []string
	for _, s := range AllStates() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// Get returns a task with its dependents, comments, attachments and history.
func (s *SQLStore) Get(ctx context.Context, c Call) (TaskDetail, error) {
	team, err := s.reader(ctx, c)
	if err != nil {
		return TaskDetail{}, err
	}
	t := &txn{ctx: ctx, q: s.db.SQL(), team: team}
	task, err := t.task(c.Task)
	if err != nil {
		return TaskDetail{}, err
	}
	one := []Task{task}
	if err := decorate(ctx, s.db.SQL(), one); err != nil {
		return TaskDetail{}, err
	}
	task = one[0]
	d := TaskDetail{Task: task, Comments: []Comment{}, Attachments: []Attachment{}}
	q := s.db.SQL()
	err = eachRow(ctx, q, `SELECT t.num FROM team_task_deps d JOIN team_tasks t ON t.id = d.task_id WHERE d.blocker_id = ? ORDER BY t.num`,
		[]any{task.rowID}, func(scan func(...any) error) error {
			var n int
			err := scan(&n)
			d.Dependents = append(d.Dependents, FormatTaskID(n))
			return err
		})
	if err != nil {
		return TaskDetail{}, fmt.Errorf("dependents of %s: %w", task.ID, err)
	}
	err = eachRow(ctx, q, `SELECT id, type, author_kind, author, text, created_at FROM team_task_comments WHERE task_id = ? ORDER BY id`,
		[]any{task.rowID}, func(scan func(...any) error) error {
			var cm Comment
			var at string
			err := scan(&cm.ID, &cm.Type, &cm.AuthorKind, &cm.Author, &cm.Text, &at)
			cm.Created = parseTime(at)
			d.Comments = append(d.Comments, cm)
			return err
		})
	if err != nil {
		return TaskDetail{}, fmt.Errorf("comments of %s: %w", task.ID, err)
	}
	err = eachRow(ctx, q, `SELECT path, added_by_kind, added_by, created_at FROM team_task_attachments WHERE task_id = ? ORDER BY id`,
		[]any{task.rowID}, func(scan func(...any) error) error {
			var a Attachment
			var at string
			err := scan(&a.Path, &a.AddedKind, &a.AddedBy, &at)
			a.Created = parseTime(at)
			d.Attachments = append(d.Attachments, a)
			return err
		})
	if err != nil {
		return TaskDetail{}, fmt.Errorf("attachments of %s: %w", task.ID, err)
	}
	d.Events, err = s.events(ctx, c.Team, EventFilter{Task: task.ID, Limit: 1000})
	return d, err
}

// Events returns the audit trail of a team or of one task, oldest first.
func (s *SQLStore) Events(ctx context.Context, c Call, f EventFilter) ([]Event, error) {
	if _, err := s.reader(ctx, c); err != nil {
		return nil, err
	}
	if f.Task != "" {
		n, err := ParseTaskID(f.Task)
		if err != nil {
			return nil, err
		}
		f.Task = FormatTaskID(n)
	}
	return s.events(ctx, c.Team, f)
}

func (s *SQLStore) events(ctx context.Context, team string, f EventFilter) ([]Event, error) {
	if f.Limit <= 0 {
		f.Limit = 200
	}
	// Two spellings so each uses its index (team, id) or (team, task, id).
	cond, args := "team = ? AND id > ?", []any{team, f.AfterID}
	if f.Task != "" {
		cond, args = "team = ? AND task = ? AND id > ?", []any{team, f.Task, f.AfterID}
	}
	out := []Event{}
	err := eachRow(ctx, s.db.SQL(), `SELECT id, team, task, type, actor_kind, actor, data, created_at FROM team_events
		WHERE `+cond+` ORDER BY id LIMIT ?`, append(args, f.Limit), func(scan func(...any) error) error {
		var e Event
		var data, at string
		err := scan(&e.ID, &e.Team, &e.Task, &e.Type, &e.ActorKind, &e.Actor, &data, &at)
		e.Data, e.Time = json.RawMessage(data), parseTime(at)
		out = append(out, e)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("team events: %w", err)
	}
	return out, nil
}
