package teams

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Teams edits teams and their members.
type Teams interface {
	CreateTeam(ctx context.Context, by Actor, t Team) (Team, error)
	UpdateTeam(ctx context.Context, by Actor, t Team) (Team, error)
	GetTeam(ctx context.Context, key string) (Team, error)
	ListTeams(ctx context.Context) ([]Team, error)
	DeleteTeam(ctx context.Context, by Actor, key string) error
	// TeamsOf returns the teams an agent leads or belongs to.
	TeamsOf(ctx context.Context, agent string) ([]Team, error)
	// ActorFor returns the agent's actor in the team (lead or member).
	ActorFor(ctx context.Context, team, agent string) (Actor, error)
}

// Board is the task board: every action issue 11 §2 lists.
type Board interface {
	CreateTask(ctx context.Context, c Call, in NewTask) (Outcome, error)
	UpdateTask(ctx context.Context, c Call, in TaskUpdate) (Outcome, error)
	Claim(ctx context.Context, c Call) (Outcome, error)
	Complete(ctx context.Context, c Call, result string) (Outcome, error)
	Review(ctx context.Context, c Call, result string) (Outcome, error)
	Approve(ctx context.Context, c Call) (Outcome, error)
	Reject(ctx context.Context, c Call, reason string) (Outcome, error)
	Cancel(ctx context.Context, c Call, reason string) (Outcome, error)
	Fail(ctx context.Context, c Call, reason string) (Outcome, error)
	Assign(ctx context.Context, c Call, assignee string) (Outcome, error)
	Retry(ctx context.Context, c Call, in RetryOptions) (Outcome, error)
	Comment(ctx context.Context, c Call, text string, typ CommentType) (Outcome, error)
	Progress(ctx context.Context, c Call, percent int, step string) (Outcome, error)
	Attach(ctx context.Context, c Call, path string) (Outcome, error)
	AskUser(ctx context.Context, c Call, question string) (Outcome, error)
	ClearAskUser(ctx context.Context, c Call) (Outcome, error)
	Answer(ctx context.Context, c Call, answer string) (Outcome, error)
	List(ctx context.Context, c Call, f ListFilter) (TaskPage, error)
	Get(ctx context.Context, c Call) (TaskDetail, error)
	Search(ctx context.Context, c Call, query string, limit int) ([]SearchHit, error)
	Events(ctx context.Context, c Call, f EventFilter) ([]Event, error)
}

// Dispatch is the orchestrator's bookkeeping; it acts as the system.
type Dispatch interface {
	MarkDispatched(ctx context.Context, team, task string) (Outcome, error)
	Heartbeat(ctx context.Context, team, task string) error
	Orphans(ctx context.Context, olderThan time.Duration) ([]Task, error)
	Overdue(ctx context.Context) ([]Task, error)
	StaleCandidates(ctx context.Context) ([]Task, error)
	MarkStale(ctx context.Context, team, task string) (Outcome, error)
	// ReminderCandidates and RemindAsk repeat unanswered questions.
	ReminderCandidates(ctx context.Context) ([]Task, error)
	// UnreadRecipients lists a team's agents with unread mail.
	UnreadRecipients(ctx context.Context, team string) ([]string, error)
	RemindAsk(ctx context.Context, team, task string) (Outcome, error)
}

// Mailbox is team_message: direct messages and broadcasts, read per recipient.
type Mailbox interface {
	Send(ctx context.Context, c Call, to, text string) (Message, error)
	Broadcast(ctx context.Context, c Call, text string) (Message, error)
	Read(ctx context.Context, c Call) ([]Message, error)
	Unread(ctx context.Context, c Call) (int, error)
}

// Store is everything teams persist.
type Store interface {
	Teams
	Board
	Dispatch
	Mailbox
}

// DB is the database the store works on: backend/store's *DB, whose Tx runs
// BEGIN IMMEDIATE, which claim's atomicity across processes relies on.
type DB interface {
	SQL() *sql.DB
	Tx(ctx context.Context, fn func(*sql.Tx) error) error
}

// AgentExists reports whether an agent is configured; it keeps this package
// independent of where agents are stored.
type AgentExists func(ctx context.Context, key string) (bool, error)

// Config wires the store to the rest of Warren.
type Config struct {
	// AgentExists checks leads, members and assignees; required for teams.
	AgentExists AgentExists
	// Publish receives every event after its transaction commits (the app
	// puts them on its bus). It runs on the caller's goroutine: keep it quick.
	Publish func(Event)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// WorkspaceRoot, when set, gives a team without a workspace the folder
	// WorkspaceRoot/<team key>.
	WorkspaceRoot string
}

// SQLStore is the SQLite implementation of Store.
type SQLStore struct {
	db  DB
	cfg Config
}

var _ Store = (*SQLStore)(nil)

// New returns a store over an open, migrated Warren database.
func New(db DB, cfg Config) *SQLStore {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &SQLStore{db: db, cfg: cfg}
}

// timeFormat is fixed-width UTC so stored times compare correctly as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) time.Time {
	t, err := time.Parse(timeFormat, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// txn is one immediate transaction on one team: the actor resolved against
// it, the events to publish once it commits, and the ripple of the action.
type txn struct {
	ctx    context.Context
	q      querier
	now    time.Time
	team   Team
	who    role
	events []Event
	out    Outcome
	// focus is the action's task, reloaded into out.Task at the end;
	// ready and stuck collect the ripple for the outcome.
	focus        int64
	ready, stuck []int64
}

// write runs fn in an immediate transaction on team c.Team with the actor
// resolved, then publishes the recorded events once the commit succeeded.
func (s *SQLStore) write(ctx context.Context, c Call, fn func(t *txn) error) (Outcome, error) {
	var done *txn
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		team, err := loadTeam(ctx, tx, c.Team)
		if err != nil {
			return err
		}
		who, err := resolve(team, c.By)
		if err != nil {
			return err
		}
		t := &txn{ctx: ctx, q: tx, now: s.cfg.Now().UTC(), team: team, who: who}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.finish(); err != nil {
			return err
		}
		done = t
		return nil
	})
	if err != nil {
		return Outcome{}, err
	}
	s.publish(done.events)
	return done.out, nil
}

// onTask is write for an action on the call's task.
func (s *SQLStore) onTask(ctx context.Context, c Call, fn func(t *txn, task *Task) error) (Outcome, error) {
	return s.write(ctx, c, func(t *txn) error {
		task, err := t.task(c.Task)
		if err != nil {
			return err
		}
		t.focus = task.rowID
		return fn(t, &task)
	})
}

// finish fills the outcome: the action's task as it now is, the tasks that
// became ready (still pending) and those stuck (still blocked).
func (t *txn) finish() error {
	load := func(ids []int64, keep State) ([]Task, error) {
		var out []Task
		for _, id := range ids {
			task, err := t.taskByRowID(id)
			if err != nil {
				return nil, err
			}
			if task.State == keep {
				out = append(out, task)
			}
		}
		return out, decorate(t.ctx, t.q, out)
	}
	var err error
	if t.out.Ready, err = load(t.ready, StatePending); err != nil {
		return err
	}
	if t.out.Stuck, err = load(t.stuck, StateBlocked); err != nil {
		return err
	}
	if t.focus == 0 {
		return nil
	}
	task, err := t.taskByRowID(t.focus)
	if err != nil {
		return err
	}
	tasks := []Task{task}
	if err := decorate(t.ctx, t.q, tasks); err != nil {
		return err
	}
	t.out.Task = tasks[0]
	return nil
}

func (s *SQLStore) publish(events []Event) {
	if s.cfg.Publish == nil {
		return
	}
	for _, e := range events {
		s.cfg.Publish(e)
	}
}

// record writes an audit event by the call's actor.
func (t *txn) record(task string, typ EventType, data map[string]any) error {
	return t.recordAs(t.who.record(), t.who.name, task, typ, data)
}

// recordSystem writes an event Warren caused as a consequence of an action
// (a dependent becoming ready, say), not the actor's own doing.
func (t *txn) recordSystem(task string, typ EventType, data map[string]any) error {
	return t.recordAs(RecordSystem, "system", task, typ, data)
}

func (t *txn) recordAs(kind RecordKind, actor, task string, typ EventType, data map[string]any) error {
	if data == nil {
		data = map[string]any{}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("event %s: %w", typ, err)
	}
	var id int64
	err = t.q.QueryRowContext(t.ctx, `INSERT INTO team_events (team, task, type, actor_kind, actor, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, t.team.Key, task, string(typ), string(kind), actor, string(raw), fmtTime(t.now)).Scan(&id)
	if err != nil {
		return fmt.Errorf("record event %s: %w", typ, err)
	}
	t.events = append(t.events, Event{ID: id, Team: t.team.Key, Task: task, Type: typ, ActorKind: kind,
		Actor: actor, Data: raw, Time: t.now})
	return nil
}

// noRows turns sql.ErrNoRows into a not-found refusal.
func noRows(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return notFoundf(format, args...)
	}
	return err
}
