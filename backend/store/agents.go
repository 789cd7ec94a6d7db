package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
)

var agentKeyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// GetAgent returns the agent with key, or ErrNotFound.
func (db *DB) GetAgent(ctx context.Context, key string) (Agent, error) {
	var a Agent
	err := db.sql.QueryRowContext(ctx, "SELECT key, name, type FROM agents WHERE key = ?", key).Scan(&a.Key, &a.Name, &a.Type)
	if errors.Is(err, sql.ErrNoRows) {
		return Agent{}, fmt.Errorf("agent %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return Agent{}, fmt.Errorf("get agent %q: %w", key, err)
	}
	return a, nil
}

// ListAgents returns all agents ordered by key.
func (db *DB) ListAgents(ctx context.Context) ([]Agent, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT key, name, type FROM agents ORDER BY key")
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	defer rows.Close()
	var out []Agent
	for rows.Next() {
		var a Agent
		if err := rows.Scan(&a.Key, &a.Name, &a.Type); err != nil {
			return nil, fmt.Errorf("list agents: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	return out, nil
}

// PutAgent creates or updates an agent after validating it.
func (db *DB) PutAgent(ctx context.Context, a Agent) error {
	if !agentKeyRE.MatchString(a.Key) {
		return fmt.Errorf("agent key %q: use 1-64 lower-case letters, digits, _ or -", a.Key)
	}
	if a.Type == "" {
		a.Type = AgentOpen
	}
	if a.Type != AgentOpen && a.Type != AgentPredefined {
		return fmt.Errorf("agent %q: type %q must be open or predefined", a.Key, a.Type)
	}
	if a.Name == "" {
		a.Name = a.Key
	}
	_, err := db.sql.ExecContext(ctx, `INSERT INTO agents (key, name, type) VALUES (?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET name = excluded.name, type = excluded.type,
		updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, a.Key, a.Name, string(a.Type))
	if err != nil {
		return fmt.Errorf("put agent %q: %w", a.Key, err)
	}
	return nil
}

// DeleteAgent removes an agent and (by cascade) its context files.
func (db *DB) DeleteAgent(ctx context.Context, key string) error {
	res, err := db.sql.ExecContext(ctx, "DELETE FROM agents WHERE key = ?", key)
	if err != nil {
		return fmt.Errorf("delete agent %q: %w", key, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete agent %q: %w", key, ErrNotFound)
	}
	return nil
}

// AgentType returns the routing type of agent; unknown agents are open.
func (db *DB) AgentType(ctx context.Context, agent string) (string, error) {
	a, err := db.GetAgent(ctx, agent)
	if errors.Is(err, ErrNotFound) {
		return string(AgentOpen), nil
	}
	if err != nil {
		return "", err
	}
	return string(a.Type), nil
}
