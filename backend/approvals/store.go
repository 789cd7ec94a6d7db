package approvals

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/policy/shell"
)

// Store persists patterns and the audit trail.
type Store interface {
	AddPattern(ctx context.Context, p Pattern) (Pattern, error)
	Patterns(ctx context.Context, tool string) ([]Pattern, error)
	RevokePattern(ctx context.Context, id int64) error
	AppendAudit(ctx context.Context, e AuditEntry) error
	Audit(ctx context.Context, limit int) ([]AuditEntry, error)
}

// SQLStore is the SQLite Store (tables from the store's migrations).
type SQLStore struct{ db *sql.DB }

// NewSQLStore returns a Store over an open, migrated Warren database.
func NewSQLStore(db *sql.DB) *SQLStore { return &SQLStore{db: db} }

// DisplayCommands renders argv lists for people, quoted as the shell
// analyser shows commands, joined by " ; ".
func DisplayCommands(cmds [][]string) string {
	parts := make([]string, len(cmds))
	for i, argv := range cmds {
		parts[i] = shell.DisplayArgv(argv)
	}
	return strings.Join(parts, " ; ")
}

// AddPattern stores p (idempotent for the same tool, agent and commands).
func (s *SQLStore) AddPattern(ctx context.Context, p Pattern) (Pattern, error) {
	if len(p.Commands) == 0 {
		return Pattern{}, fmt.Errorf("add pattern for %s: no commands", p.Tool)
	}
	for _, argv := range p.Commands {
		if len(argv) == 0 || argv[0] == "" {
			return Pattern{}, fmt.Errorf("add pattern for %s: empty command", p.Tool)
		}
	}
	raw, err := json.Marshal(p.Commands)
	if err != nil {
		return Pattern{}, err
	}
	if p.Display == "" {
		p.Display = DisplayCommands(p.Commands)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO approval_patterns (tool, agent, pattern, display) VALUES (?, ?, ?, ?)
		ON CONFLICT(tool, agent, pattern) DO NOTHING`, p.Tool, p.Agent, string(raw), p.Display)
	if err != nil {
		return Pattern{}, fmt.Errorf("add pattern: %w", err)
	}
	err = s.db.QueryRowContext(ctx, `SELECT id, created_at FROM approval_patterns WHERE tool = ? AND agent = ? AND pattern = ?`,
		p.Tool, p.Agent, string(raw)).Scan(&p.ID, &p.Created)
	if err != nil {
		return Pattern{}, fmt.Errorf("add pattern: %w", err)
	}
	return p, nil
}

// Patterns lists patterns, all of them when tool is empty.
func (s *SQLStore) Patterns(ctx context.Context, tool string) ([]Pattern, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, tool, agent, pattern, display, created_at FROM approval_patterns
		WHERE ? = '' OR tool = ? ORDER BY id`, tool, tool)
	if err != nil {
		return nil, fmt.Errorf("list patterns: %w", err)
	}
	defer rows.Close()
	var out []Pattern
	for rows.Next() {
		var p Pattern
		var raw string
		if err := rows.Scan(&p.ID, &p.Tool, &p.Agent, &raw, &p.Display, &p.Created); err != nil {
			return nil, fmt.Errorf("list patterns: %w", err)
		}
		if err := json.Unmarshal([]byte(raw), &p.Commands); err != nil {
			return nil, fmt.Errorf("pattern %d is corrupt: %w", p.ID, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// RevokePattern deletes a pattern.
func (s *SQLStore) RevokePattern(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM approval_patterns WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("revoke pattern %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("pattern %d: %w", id, ErrNotFound)
	}
	return nil
}

// AppendAudit records a decision.
func (s *SQLStore) AppendAudit(ctx context.Context, e AuditEntry) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO approval_audit
		(request_id, tool, summary, cwd, agent, session, decision, decided_by, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.RequestID, e.Tool, e.Summary, e.Cwd, e.Agent, e.Session, e.Decision, e.DecidedBy, e.Reason)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// Audit returns the newest entries first.
func (s *SQLStore) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, request_id, tool, summary, cwd, agent, session, decision, decided_by, reason, created_at
		FROM approval_audit ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		if err := rows.Scan(&e.ID, &e.RequestID, &e.Tool, &e.Summary, &e.Cwd, &e.Agent, &e.Session,
			&e.Decision, &e.DecidedBy, &e.Reason, &e.Created); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
