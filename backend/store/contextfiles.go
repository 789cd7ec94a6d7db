package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ensureAgent creates a placeholder open agent so context files can be
// written for an agent key that was never configured explicitly.
func ensureAgent(ctx context.Context, tx *sql.Tx, agent string) error {
	if !agentKeyRE.MatchString(agent) {
		return fmt.Errorf("agent key %q: use 1-64 lower-case letters, digits, _ or -", agent)
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO agents (key, name) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", agent, agent)
	return err
}

func (db *DB) getFile(ctx context.Context, query string, args ...any) (string, bool, error) {
	var content string
	err := db.sql.QueryRowContext(ctx, query, args...).Scan(&content)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return content, true, nil
}

// GetAgentFile returns an agent-level context file.
func (db *DB) GetAgentFile(ctx context.Context, agent, name string) (string, bool, error) {
	c, ok, err := db.getFile(ctx, "SELECT content FROM agent_context_files WHERE agent_key = ? AND name = ?", agent, name)
	if err != nil {
		return "", false, fmt.Errorf("get %s of agent %q: %w", name, agent, err)
	}
	return c, ok, nil
}

// PutAgentFile writes an agent-level context file.
func (db *DB) PutAgentFile(ctx context.Context, agent, name, content string) error {
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if err := ensureAgent(ctx, tx, agent); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO agent_context_files (agent_key, name, content) VALUES (?, ?, ?)
			ON CONFLICT(agent_key, name) DO UPDATE SET content = excluded.content,
			updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, agent, name, content)
		return err
	})
	if err != nil {
		return fmt.Errorf("put %s of agent %q: %w", name, agent, err)
	}
	return nil
}

// DeleteAgentFile removes an agent-level context file (missing is fine).
func (db *DB) DeleteAgentFile(ctx context.Context, agent, name string) error {
	if _, err := db.sql.ExecContext(ctx, "DELETE FROM agent_context_files WHERE agent_key = ? AND name = ?", agent, name); err != nil {
		return fmt.Errorf("delete %s of agent %q: %w", name, agent, err)
	}
	return nil
}

// GetUserFile returns a per-user context file.
func (db *DB) GetUserFile(ctx context.Context, agent, user, name string) (string, bool, error) {
	c, ok, err := db.getFile(ctx, "SELECT content FROM user_context_files WHERE agent_key = ? AND user_id = ? AND name = ?", agent, user, name)
	if err != nil {
		return "", false, fmt.Errorf("get %s of user %q (agent %q): %w", name, user, agent, err)
	}
	return c, ok, nil
}

// PutUserFile writes a per-user context file.
func (db *DB) PutUserFile(ctx context.Context, agent, user, name, content string) error {
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if err := ensureAgent(ctx, tx, agent); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO user_context_files (agent_key, user_id, name, content) VALUES (?, ?, ?, ?)
			ON CONFLICT(agent_key, user_id, name) DO UPDATE SET content = excluded.content,
			updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, agent, user, name, content)
		return err
	})
	if err != nil {
		return fmt.Errorf("put %s of user %q (agent %q): %w", name, user, agent, err)
	}
	return nil
}

// DeleteUserFile removes a per-user context file (missing is fine).
func (db *DB) DeleteUserFile(ctx context.Context, agent, user, name string) error {
	if _, err := db.sql.ExecContext(ctx, "DELETE FROM user_context_files WHERE agent_key = ? AND user_id = ? AND name = ?", agent, user, name); err != nil {
		return fmt.Errorf("delete %s of user %q (agent %q): %w", name, user, agent, err)
	}
	return nil
}
