package approvals

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// RequestStatus is where a shared request stands.
type RequestStatus string

// Request statuses.
const (
	StatusPending   RequestStatus = "pending"
	StatusAnswered  RequestStatus = "answered"
	StatusExpired   RequestStatus = "expired"
	StatusCancelled RequestStatus = "cancelled"
)

// SharedRequest is a request as every process sharing the database sees it.
type SharedRequest struct {
	// Request has Origin set: the asking process.
	Request
	// Instance identifies the asking Service (two cores in one process
	// share a pid).
	Instance string
	Status   RequestStatus
	// Decision and AnsweredBy are set once Status is StatusAnswered.
	Decision   Decision
	AnsweredBy string
}

// RequestAnswer answers a shared request.
type RequestAnswer struct {
	ID       string
	Decision Decision
	// By names the answering process, for the audit trail.
	By string
	// At is the answer's time: a request that expired before it stays unanswered.
	At time.Time
}

// Watcher is a process that shows other processes' requests (a window).
type Watcher struct {
	Instance string
	Origin   Origin
}

// SharedStore mirrors pending requests in the database every Warren process
// opens, so one process can list and answer another's. Every change is a
// conditional UPDATE of a pending row: whichever lands first wins.
type SharedStore interface {
	// InsertRequest records a pending request; false when its id is taken.
	InsertRequest(ctx context.Context, r SharedRequest) (bool, error)
	// SharedRequest reads one request (ErrNotFound when absent).
	SharedRequest(ctx context.Context, id string) (SharedRequest, error)
	// PendingRequests lists pending requests that have not expired at now,
	// oldest first.
	PendingRequests(ctx context.Context, now time.Time) ([]SharedRequest, error)
	// AnswerRequest answers a pending, unexpired request; false when it was
	// settled first.
	AnswerRequest(ctx context.Context, a RequestAnswer) (bool, error)
	// SettleRequest marks a pending request expired or cancelled; false when
	// it was settled first.
	SettleRequest(ctx context.Context, id string, status RequestStatus, now time.Time) (bool, error)
	// PruneRequests deletes requests that expired before the given time.
	PruneRequests(ctx context.Context, before time.Time) error
	// AddWatcher records a watching process; RemoveWatcher forgets it.
	AddWatcher(ctx context.Context, w Watcher) error
	RemoveWatcher(ctx context.Context, instance string) error
	// Watchers lists every recorded watcher, live or not.
	Watchers(ctx context.Context) ([]Watcher, error)
}

// sqlTime formats timestamps so that they compare as strings.
const sqlTime = "2006-01-02T15:04:05.000Z"

func sqlTimeOf(t time.Time) string { return t.UTC().Format(sqlTime) }

const requestColumns = `id, instance, pid, process, tool, summary, reason, cwd, agent, session, commands,
	created_at, expires_at, status, decision, answered_by`

// InsertRequest records a pending request.
func (s *SQLStore) InsertRequest(ctx context.Context, r SharedRequest) (bool, error) {
	var cmds sql.NullString
	if len(r.Commands) > 0 {
		raw, err := json.Marshal(r.Commands)
		if err != nil {
			return false, err
		}
		cmds = sql.NullString{String: string(raw), Valid: true}
	}
	var o Origin
	if r.Origin != nil {
		o = *r.Origin
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO approval_requests (`+requestColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', '', '') ON CONFLICT(id) DO NOTHING`,
		r.ID, r.Instance, o.PID, o.Process, r.Tool, r.Summary, r.Reason, r.Cwd, r.Agent, r.Session, cmds,
		sqlTimeOf(r.Created), sqlTimeOf(r.Deadline))
	if err != nil {
		return false, fmt.Errorf("record approval request %s: %w", r.ID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SharedRequest reads one request.
func (s *SQLStore) SharedRequest(ctx context.Context, id string) (SharedRequest, error) {
	r, err := scanRequest(s.db.QueryRowContext(ctx, `SELECT `+requestColumns+` FROM approval_requests WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return SharedRequest{}, fmt.Errorf("approval request %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return SharedRequest{}, fmt.Errorf("approval request %s: %w", id, err)
	}
	return r, nil
}

// PendingRequests lists pending, unexpired requests, oldest first.
func (s *SQLStore) PendingRequests(ctx context.Context, now time.Time) ([]SharedRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+requestColumns+` FROM approval_requests
		WHERE status = 'pending' AND expires_at > ? ORDER BY created_at, id`, sqlTimeOf(now))
	if err != nil {
		return nil, fmt.Errorf("pending approval requests: %w", err)
	}
	defer rows.Close()
	var out []SharedRequest
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, fmt.Errorf("pending approval requests: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AnswerRequest answers a pending, unexpired request.
func (s *SQLStore) AnswerRequest(ctx context.Context, a RequestAnswer) (bool, error) {
	at := sqlTimeOf(a.At)
	res, err := s.db.ExecContext(ctx, `UPDATE approval_requests SET status = 'answered', decision = ?, answered_by = ?, settled_at = ?
		WHERE id = ? AND status = 'pending' AND expires_at > ?`, a.Decision.String(), a.By, at, a.ID, at)
	if err != nil {
		return false, fmt.Errorf("answer approval request %s: %w", a.ID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SettleRequest marks a pending request expired or cancelled.
func (s *SQLStore) SettleRequest(ctx context.Context, id string, status RequestStatus, now time.Time) (bool, error) {
	if status != StatusExpired && status != StatusCancelled {
		return false, fmt.Errorf("settle approval request %s: bad status %q", id, status)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE approval_requests SET status = ?, settled_at = ? WHERE id = ? AND status = 'pending'`,
		string(status), sqlTimeOf(now), id)
	if err != nil {
		return false, fmt.Errorf("settle approval request %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// PruneRequests deletes requests that expired before the given time.
func (s *SQLStore) PruneRequests(ctx context.Context, before time.Time) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM approval_requests WHERE expires_at < ?`, sqlTimeOf(before)); err != nil {
		return fmt.Errorf("prune approval requests: %w", err)
	}
	return nil
}

// AddWatcher records a watching process.
func (s *SQLStore) AddWatcher(ctx context.Context, w Watcher) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO approval_watchers (instance, pid, process) VALUES (?, ?, ?)
		ON CONFLICT(instance) DO UPDATE SET pid = excluded.pid, process = excluded.process`, w.Instance, w.Origin.PID, w.Origin.Process)
	if err != nil {
		return fmt.Errorf("add approval watcher: %w", err)
	}
	return nil
}

// RemoveWatcher forgets a watching process.
func (s *SQLStore) RemoveWatcher(ctx context.Context, instance string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM approval_watchers WHERE instance = ?`, instance); err != nil {
		return fmt.Errorf("remove approval watcher: %w", err)
	}
	return nil
}

// Watchers lists every recorded watcher.
func (s *SQLStore) Watchers(ctx context.Context) ([]Watcher, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT instance, pid, process FROM approval_watchers ORDER BY started_at`)
	if err != nil {
		return nil, fmt.Errorf("approval watchers: %w", err)
	}
	defer rows.Close()
	var out []Watcher
	for rows.Next() {
		var w Watcher
		if err := rows.Scan(&w.Instance, &w.Origin.PID, &w.Origin.Process); err != nil {
			return nil, fmt.Errorf("approval watchers: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

type rowScanner interface{ Scan(dest ...any) error }

func scanRequest(row rowScanner) (SharedRequest, error) {
	var r SharedRequest
	var o Origin
	var cmds sql.NullString
	var created, expires, status, decision string
	if err := row.Scan(&r.ID, &r.Instance, &o.PID, &o.Process, &r.Tool, &r.Summary, &r.Reason, &r.Cwd, &r.Agent,
		&r.Session, &cmds, &created, &expires, &status, &decision, &r.AnsweredBy); err != nil {
		return SharedRequest{}, err
	}
	r.Origin = &o
	r.Status = RequestStatus(status)
	var err error
	if r.Created, err = time.Parse(sqlTime, created); err != nil {
		return SharedRequest{}, fmt.Errorf("request %s: created: %w", r.ID, err)
	}
	if r.Deadline, err = time.Parse(sqlTime, expires); err != nil {
		return SharedRequest{}, fmt.Errorf("request %s: expires: %w", r.ID, err)
	}
	if cmds.Valid {
		if err := json.Unmarshal([]byte(cmds.String), &r.Commands); err != nil {
			return SharedRequest{}, fmt.Errorf("request %s: commands: %w", r.ID, err)
		}
	}
	if decision != "" {
		if r.Decision, err = ParseDecision(decision); err != nil {
			return SharedRequest{}, fmt.Errorf("request %s: %w", r.ID, err)
		}
	}
	return r, nil
}
