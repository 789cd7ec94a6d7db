package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
)

const agentCols = "key, name, type, provider, model, profile, allow_json, deny_json, workspace, sandbox, network"

func scanAgent(row interface{ Scan(...any) error }) (Agent, error) {
	var a Agent
	var allow, deny string
	if err := row.Scan(&a.Key, &a.Name, &a.Type, &a.Provider, &a.Model, &a.Profile, &allow, &deny, &a.Workspace, &a.Sandbox, &a.Network); err != nil {
		return Agent{}, err
	}
	if err := json.Unmarshal([]byte(allow), &a.Allow); err != nil {
		return Agent{}, fmt.Errorf("agent %s: allow list is corrupt: %w", a.Key, err)
	}
	if err := json.Unmarshal([]byte(deny), &a.Deny); err != nil {
		return Agent{}, fmt.Errorf("agent %s: deny list is corrupt: %w", a.Key, err)
	}
	return a, nil
}

var agentKeyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// ErrInvalidAgent marks an agent PutAgent refuses (bad key or type).
var ErrInvalidAgent = errors.New("invalid agent")

// GetAgent returns the agent with key, or ErrNotFound.
func (db *DB) GetAgent(ctx context.Context, key string) (Agent, error) {
	a, err := scanAgent(db.sql.QueryRowContext(ctx, "SELECT "+agentCols+" FROM agents WHERE key = ?", key))
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
	rows, err := db.sql.QueryContext(ctx, "SELECT "+agentCols+" FROM agents ORDER BY key")
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	defer rows.Close()
	var out []Agent
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
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
		return fmt.Errorf("%w: key %q: use 1-64 lower-case letters, digits, _ or -", ErrInvalidAgent, a.Key)
	}
	if a.Type == "" {
		a.Type = AgentOpen
	}
	if a.Type != AgentOpen && a.Type != AgentPredefined {
		return fmt.Errorf("%w %q: type %q must be open or predefined", ErrInvalidAgent, a.Key, a.Type)
	}
	if a.Name == "" {
		a.Name = a.Key
	}
	allow, err := json.Marshal(nonNil(a.Allow))
	if err != nil {
		return err
	}
	deny, err := json.Marshal(nonNil(a.Deny))
	if err != nil {
		return err
	}
	_, err = db.sql.ExecContext(ctx, `INSERT INTO agents
		(key, name, type, provider, model, profile, allow_json, deny_json, workspace, sandbox, network)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET name = excluded.name, type = excluded.type, provider = excluded.provider,
		model = excluded.model, profile = excluded.profile, allow_json = excluded.allow_json,
		deny_json = excluded.deny_json, workspace = excluded.workspace, sandbox = excluded.sandbox,
		network = excluded.network, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		a.Key, a.Name, string(a.Type), a.Provider, a.Model, a.Profile, string(allow), string(deny), a.Workspace, a.Sandbox, a.Network)
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

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
