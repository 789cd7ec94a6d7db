package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// settingRestartRequests holds the restart requests other processes made
// (the CLI asks the window to restart or retry a server).
const settingRestartRequests = "mcp.restart_requests"

// restartRequest is one server's latest request; Seq grows with each.
type restartRequest struct {
	Seq int64 `json:"seq"`
	// OnlyDown: retry the server only if it is not connected (enable).
	OnlyDown bool `json:"only_down,omitempty"`
}

// RequestRestart asks whichever process runs the server to restart it
// (onlyDown: only if it is not connected); it bumps the version, so that
// process sees it on its next reload.
func (s *Store) RequestRestart(ctx context.Context, name string, onlyDown bool) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM mcp_servers WHERE name = ?", name).Scan(&n); err != nil {
			return fmt.Errorf("mcp server %q: %w", name, err)
		}
		if n == 0 {
			return fmt.Errorf("mcp server %q: %w", name, ErrNotFound)
		}
		reqs, err := restartRequests(ctx, tx)
		if err != nil {
			return err
		}
		var top int64
		for _, r := range reqs {
			top = max(top, r.Seq)
		}
		reqs[name] = restartRequest{Seq: top + 1, OnlyDown: onlyDown}
		_, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
			settingRestartRequests, mustJSON(reqs))
		if err != nil {
			return fmt.Errorf("mcp restart request: %w", err)
		}
		return nil
	})
}

func restartRequests(ctx context.Context, q querier) (map[string]restartRequest, error) {
	reqs := map[string]restartRequest{}
	var raw string
	err := q.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", settingRestartRequests).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return reqs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcp restart requests: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &reqs); err != nil {
		return map[string]restartRequest{}, nil //nolint:nilerr // a damaged value is dropped by the next request
	}
	return reqs, nil
}

// RequestRestart restarts a server in this process if it runs (or is held)
// here, and asks every other process that runs it to do the same on its
// next Sync (onlyDown: only if it is not connected). A disabled server is
// left alone.
func (m *Manager) RequestRestart(ctx context.Context, name string, onlyDown bool) error {
	if err := m.opts.Store.RequestRestart(ctx, name, onlyDown); err != nil {
		return err
	}
	list, err := m.opts.Store.List(ctx)
	if err != nil {
		return err
	}
	want := map[string]Server{}
	for _, srv := range list {
		want[srv.Name] = srv
	}
	todo := m.takeRestartRequests(ctx) // ours among them: not again on the next Sync
	if todo == nil {
		todo = map[string]restartRequest{}
	}
	todo[name] = restartRequest{OnlyDown: onlyDown}
	m.applyRestartRequests(ctx, todo, want)
	return nil
}

// takeRestartRequests returns the servers whose restart was requested
// since this manager last looked (nothing on the first look: a process
// that just started has nothing stale to restart).
func (m *Manager) takeRestartRequests(ctx context.Context) map[string]restartRequest {
	reqs, err := restartRequests(ctx, m.opts.Store.db)
	if err != nil {
		m.opts.Logger.Warn("mcp restart requests", "err", err)
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	first := m.restartSeen == nil
	if first {
		m.restartSeen = map[string]int64{}
	}
	todo := map[string]restartRequest{}
	for name, r := range reqs {
		if r.Seq > m.restartSeen[name] {
			m.restartSeen[name] = r.Seq
			if !first {
				todo[name] = r
			}
		}
	}
	return todo
}

// applyRestartRequests restarts the servers this process runs (or holds)
// whose restart was requested; a retry request leaves a connected one be.
func (m *Manager) applyRestartRequests(ctx context.Context, todo map[string]restartRequest, want map[string]Server) {
	for name, r := range todo {
		srv, ok := want[name]
		if !ok || !srv.Enabled {
			continue
		}
		st, running := m.status(name)
		m.mu.Lock()
		held := m.held[name]
		m.mu.Unlock()
		if (!running && !held) || (r.OnlyDown && running && st.State == StateConnected) {
			continue
		}
		if err := m.Restart(ctx, name); err != nil {
			m.opts.Logger.Warn("mcp restart", "server", name, "err", err)
		}
	}
}
