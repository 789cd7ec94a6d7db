package cron

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned for an unknown job id.
var ErrNotFound = errors.New("cron job not found")

// ErrInvalid wraps schedule and field errors the caller (or model) can fix.
var ErrInvalid = errors.New("invalid cron job")

// Run statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusRunning = "running"
)

// timeFormat is fixed-width UTC so stored times compare correctly as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// Job is one scheduled prompt for an agent.
type Job struct {
	ID          string    `json:"id"`
	Agent       string    `json:"agent"`
	Name        string    `json:"name"`
	Schedule    string    `json:"schedule"`
	Prompt      string    `json:"prompt"`
	Enabled     bool      `json:"enabled"`
	NextRun     time.Time `json:"next_run"`
	LastRun     time.Time `json:"last_run"`
	LastStatus  string    `json:"last_status,omitempty"`
	LastResult  string    `json:"last_result,omitempty"`
	LastSession string    `json:"last_session,omitempty"`
	Created     string    `json:"created"`
	Updated     string    `json:"updated"`
}

// Store keeps jobs in the cron_jobs table (migration 0006).
type Store struct {
	db *sql.DB
	// Now is the clock used to compute next runs; NewStore sets time.Now.
	Now func() time.Time
}

// NewStore returns a store over an open, migrated Warren database.
func NewStore(db *sql.DB) *Store { return &Store{db: db, Now: time.Now} }

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(timeFormat, s)
}

const jobCols = `id, agent, name, schedule, prompt, enabled, next_run, last_run, last_status, last_result, last_session, created_at, updated_at`

func scanJob(row interface{ Scan(...any) error }) (Job, error) {
	var j Job
	var next, last string
	if err := row.Scan(&j.ID, &j.Agent, &j.Name, &j.Schedule, &j.Prompt, &j.Enabled, &next, &last,
		&j.LastStatus, &j.LastResult, &j.LastSession, &j.Created, &j.Updated); err != nil {
		return Job{}, err
	}
	var err error
	if j.NextRun, err = parseTime(next); err != nil {
		return Job{}, fmt.Errorf("job %s: next_run: %w", j.ID, err)
	}
	if j.LastRun, err = parseTime(last); err != nil {
		return Job{}, fmt.Errorf("job %s: last_run: %w", j.ID, err)
	}
	return j, nil
}

// prepare trims and checks a job's fields, names an unnamed job after its
// prompt, and returns its next run from now as stored ("" when not
// enabled). Errors wrap ErrInvalid.
func (s *Store) prepare(j Job, enabled bool) (Job, string, error) {
	j.Agent, j.Name, j.Prompt = strings.TrimSpace(j.Agent), strings.TrimSpace(j.Name), strings.TrimSpace(j.Prompt)
	j.Schedule = strings.TrimSpace(j.Schedule)
	switch {
	case j.Agent == "":
		return Job{}, "", fmt.Errorf("%w: no agent", ErrInvalid)
	case j.Prompt == "":
		return Job{}, "", fmt.Errorf("%w: prompt is required", ErrInvalid)
	}
	if j.Name == "" {
		j.Name = NameFromPrompt(j.Prompt)
	}
	sched, err := ParseSchedule(j.Schedule)
	if err != nil {
		return Job{}, "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !enabled {
		return j, "", nil
	}
	next := sched.Next(s.Now())
	if next.IsZero() {
		return Job{}, "", fmt.Errorf("%w: schedule %q never runs after now", ErrInvalid, j.Schedule)
	}
	return j, fmtTime(next), nil
}

// Add validates and stores a new enabled job and computes its first run.
// Schedule errors wrap ErrInvalid.
func (s *Store) Add(ctx context.Context, j Job) (Job, error) {
	j, next, err := s.prepare(j, true)
	if err != nil {
		return Job{}, err
	}
	if j.ID == "" {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		j.ID = "cron-" + hex.EncodeToString(b)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO cron_jobs (id, agent, name, schedule, prompt, enabled, next_run)
		VALUES (?, ?, ?, ?, ?, 1, ?)`, j.ID, j.Agent, j.Name, j.Schedule, j.Prompt, next)
	if err != nil {
		return Job{}, fmt.Errorf("add cron job: %w", err)
	}
	return s.Get(ctx, j.ID)
}

// Get returns one job.
func (s *Store) Get(ctx context.Context, id string) (Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, "SELECT "+jobCols+" FROM cron_jobs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Job{}, fmt.Errorf("get cron job %s: %w", id, err)
	}
	return j, nil
}

// List returns the jobs of one agent, or of all agents for "", by name.
func (s *Store) List(ctx context.Context, agent string) ([]Job, error) {
	return s.query(ctx, "SELECT "+jobCols+" FROM cron_jobs WHERE ? = '' OR agent = ? ORDER BY name, id", agent, agent)
}

// Due returns the enabled jobs whose next run is at or before now.
func (s *Store) Due(ctx context.Context, now time.Time) ([]Job, error) {
	return s.query(ctx, "SELECT "+jobCols+` FROM cron_jobs
		WHERE enabled = 1 AND next_run != '' AND next_run <= ? ORDER BY next_run, id`, fmtTime(now))
}

// Pending returns every enabled job with a next run, soonest first.
func (s *Store) Pending(ctx context.Context) ([]Job, error) {
	return s.query(ctx, "SELECT "+jobCols+` FROM cron_jobs WHERE enabled = 1 AND next_run != '' ORDER BY next_run, id`)
}

func (s *Store) query(ctx context.Context, q string, args ...any) ([]Job, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list cron jobs: %w", err)
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("list cron jobs: %w", err)
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Remove deletes a job.
func (s *Store) Remove(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM cron_jobs WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("remove cron job %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

// SetEnabled turns a job on or off. Enabling recomputes the next run from
// now, so a job disabled for a week does not fire for the missed slots; a
// one-shot job whose time has passed cannot be enabled (ErrInvalid).
func (s *Store) SetEnabled(ctx context.Context, id string, enabled bool) (Job, error) {
	j, err := s.Get(ctx, id)
	if err != nil {
		return Job{}, err
	}
	next := ""
	if enabled {
		sched, err := ParseSchedule(j.Schedule)
		if err != nil {
			return Job{}, fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		n := sched.Next(s.Now())
		if n.IsZero() {
			return Job{}, fmt.Errorf("%w: schedule %q never runs after now", ErrInvalid, j.Schedule)
		}
		next = fmtTime(n)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE cron_jobs SET enabled = ?, next_run = ?,
		updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`, enabled, next, id); err != nil {
		return Job{}, fmt.Errorf("enable cron job %s: %w", id, err)
	}
	return s.Get(ctx, id)
}

// Update replaces a job's editable fields (agent, name, schedule, prompt,
// enabled) and, like Add, recomputes the next run from now: an edited
// schedule takes effect at once. A disabled job keeps no next run. Run
// history is kept. Unknown ids are ErrNotFound; field errors wrap ErrInvalid.
func (s *Store) Update(ctx context.Context, j Job) (Job, error) {
	j, next, err := s.prepare(j, j.Enabled)
	if err != nil {
		return Job{}, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE cron_jobs SET agent = ?, name = ?, schedule = ?, prompt = ?,
		enabled = ?, next_run = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`,
		j.Agent, j.Name, j.Schedule, j.Prompt, j.Enabled, next, j.ID)
	if err != nil {
		return Job{}, fmt.Errorf("update cron job %s: %w", j.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Job{}, fmt.Errorf("%w: %s", ErrNotFound, j.ID)
	}
	return s.Get(ctx, j.ID)
}

// RunRecord is what RecordRun stores about a run.
type RunRecord struct {
	At      time.Time
	Status  string
	Result  string
	Session string
	// NextRun is the following run; zero disables the job (one-shot done).
	NextRun time.Time
}

// RecordRun stores the outcome (or the start, with StatusRunning) of a run
// and the job's next run.
func (s *Store) RecordRun(ctx context.Context, id string, r RunRecord) error {
	res, err := s.db.ExecContext(ctx, `UPDATE cron_jobs SET last_run = ?, last_status = ?, last_result = ?,
		last_session = ?, next_run = ?, enabled = enabled AND ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
		WHERE id = ?`, fmtTime(r.At), r.Status, r.Result, r.Session, fmtTime(r.NextRun), !r.NextRun.IsZero(), id)
	if err != nil {
		return fmt.Errorf("record run of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

// markInterrupted turns runs left "running" by a previous process into errors.
func (s *Store) markInterrupted(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `UPDATE cron_jobs SET last_status = 'error',
		last_result = 'interrupted: Warren stopped while the job was running' WHERE last_status = 'running'`)
	if err != nil {
		return fmt.Errorf("mark interrupted cron runs: %w", err)
	}
	return nil
}
