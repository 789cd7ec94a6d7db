package custom

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/warren-dev/warren/backend/secrets"
)

// ErrNotFound is returned for an unknown custom tool.
var ErrNotFound = errors.New("custom tool not found")

// Store keeps definitions in SQLite with env values sealed.
type Store struct {
	db  *sql.DB
	box secrets.Sealer
}

// NewStore returns a store over an open, migrated Warren database.
func NewStore(db *sql.DB, box secrets.Sealer) *Store { return &Store{db: db, box: box} }

// Version changes whenever any definition changes (hot reload).
func (s *Store) Version(ctx context.Context) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = 'custom_tools.version'").Scan(&v)
	if err != nil {
		return "", fmt.Errorf("custom tools version: %w", err)
	}
	return v, nil
}

// List returns every definition (env values are not included; EnvKeys is).
func (s *Store) List(ctx context.Context) ([]Definition, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, agent, description, parameters, command, timeout_seconds, enabled, env_sealed
		FROM custom_tools ORDER BY agent, name`)
	if err != nil {
		return nil, fmt.Errorf("list custom tools: %w", err)
	}
	defer rows.Close()
	var out []Definition
	for rows.Next() {
		var d Definition
		var params, env string
		if err := rows.Scan(&d.Name, &d.Agent, &d.Description, &params, &d.Command, &d.TimeoutSeconds, &d.Enabled, &env); err != nil {
			return nil, fmt.Errorf("list custom tools: %w", err)
		}
		d.Parameters = json.RawMessage(params)
		sealed, err := decodeEnv(env)
		if err != nil {
			return nil, fmt.Errorf("custom tool %s: %w", d.Name, err)
		}
		for k := range sealed {
			d.EnvKeys = append(d.EnvKeys, k)
		}
		sort.Strings(d.EnvKeys)
		out = append(out, d)
	}
	return out, rows.Err()
}

func decodeEnv(raw string) (map[string]string, error) {
	m := map[string]string{}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, fmt.Errorf("stored env is corrupt: %w", err)
	}
	return m, nil
}

// Save validates and stores d. Env values are merged with the stored ones:
// a non-empty value replaces, an empty value deletes that variable.
func (s *Store) Save(ctx context.Context, d Definition) error {
	if d.TimeoutSeconds == 0 {
		d.TimeoutSeconds = DefaultTimeout
	}
	if err := d.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save custom tool: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	env := map[string]string{}
	var raw string
	switch err := tx.QueryRowContext(ctx, "SELECT env_sealed FROM custom_tools WHERE name = ? AND agent = ?", d.Name, d.Agent).Scan(&raw); {
	case err == nil:
		if env, err = decodeEnv(raw); err != nil {
			return err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("save custom tool: %w", err)
	}
	env, err = secrets.MergeEnv(s.box, env, d.Env)
	if err != nil {
		return err
	}
	envJSON, err := json.Marshal(env)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO custom_tools (name, agent, description, parameters, command, timeout_seconds, enabled, env_sealed)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(name, agent) DO UPDATE SET description = excluded.description, parameters = excluded.parameters,
		command = excluded.command, timeout_seconds = excluded.timeout_seconds, enabled = excluded.enabled,
		env_sealed = excluded.env_sealed, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		d.Name, d.Agent, d.Description, string(d.Parameters), d.Command, d.TimeoutSeconds, d.Enabled, string(envJSON))
	if err != nil {
		return fmt.Errorf("save custom tool %s: %w", d.Name, err)
	}
	if err := bump(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Delete removes a definition.
func (s *Store) Delete(ctx context.Context, name, agent string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete custom tool: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, "DELETE FROM custom_tools WHERE name = ? AND agent = ?", name, agent)
	if err != nil {
		return fmt.Errorf("delete custom tool %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err := bump(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func bump(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE settings SET value = CAST(value AS INTEGER) + 1,
		updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE key = 'custom_tools.version'`)
	if err != nil {
		return fmt.Errorf("bump custom tools version: %w", err)
	}
	return nil
}

// Env returns the decrypted environment of one tool.
func (s *Store) Env(ctx context.Context, name, agent string) (map[string]string, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, "SELECT env_sealed FROM custom_tools WHERE name = ? AND agent = ?", name, agent).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return nil, fmt.Errorf("custom tool %s env: %w", name, err)
	}
	sealed, err := decodeEnv(raw)
	if err != nil {
		return nil, err
	}
	out, err := secrets.OpenEnv(s.box, sealed)
	if err != nil {
		return nil, fmt.Errorf("custom tool %s env %w", name, err)
	}
	return out, nil
}
