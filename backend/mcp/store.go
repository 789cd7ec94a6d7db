package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/warren-dev/warren/backend/secrets"
)

// ErrNotFound marks an unknown server, grant or request.
var ErrNotFound = errors.New("not found")

// ErrNameTaken marks a server name that differs from a stored one only in
// case: names are unique regardless of case (they name tool groups, log
// files and, on some systems, files that ignore case).
var ErrNameTaken = errors.New("name taken")

// Store keeps servers, grants and access requests in Warren's database.
type Store struct {
	db  *sql.DB
	box secrets.Sealer
}

// NewStore returns a store over an open, migrated Warren database.
func NewStore(db *sql.DB, box secrets.Sealer) *Store { return &Store{db: db, box: box} }

// Version changes with every write, so other processes can reload.
func (s *Store) Version(ctx context.Context) (string, error) {
	var v string
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = 'mcp.version'").Scan(&v); err != nil {
		return "", fmt.Errorf("mcp version: %w", err)
	}
	return v, nil
}

const serverColumns = `name, transport, command, args, env_sealed, cwd, url, headers_sealed, enabled, tool_prefix,
	connect_timeout_ms, call_timeout_ms, tool_deny, restricted, deferred, sandboxed, sandbox_network`

type rowScanner interface{ Scan(dest ...any) error }

func scanServer(r rowScanner) (Server, map[string]string, map[string]string, error) {
	var s Server
	var args, env, headers, deny string
	var connectMS, callMS int64
	err := r.Scan(&s.Name, &s.Transport, &s.Command, &args, &env, &s.Cwd, &s.URL, &headers, &s.Enabled, &s.ToolPrefix,
		&connectMS, &callMS, &deny, &s.Restricted, &s.Deferred, &s.Sandboxed, &s.SandboxNetwork)
	if err != nil {
		return s, nil, nil, err
	}
	s.ConnectTimeout = time.Duration(connectMS) * time.Millisecond
	s.CallTimeout = time.Duration(callMS) * time.Millisecond
	sealedEnv, sealedHeaders := map[string]string{}, map[string]string{}
	for _, f := range []struct {
		raw  string
		into any
	}{{args, &s.Args}, {env, &sealedEnv}, {headers, &sealedHeaders}, {deny, &s.ToolDeny}} {
		if err := json.Unmarshal([]byte(f.raw), f.into); err != nil {
			return s, nil, nil, fmt.Errorf("server %s: stored value is corrupt: %w", s.Name, err)
		}
	}
	s.EnvKeys, s.HeaderKeys = sortedKeys(sealedEnv), sortedKeys(sealedHeaders)
	s.sealed = env + "\x00" + headers
	return s, sealedEnv, sealedHeaders, nil
}

func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// List returns every server sorted by name (no secret values).
func (s *Store) List(ctx context.Context) ([]Server, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+serverColumns+" FROM mcp_servers ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("list mcp servers: %w", err)
	}
	defer rows.Close()
	var out []Server
	for rows.Next() {
		srv, _, _, err := scanServer(rows)
		if err != nil {
			return nil, fmt.Errorf("list mcp servers: %w", err)
		}
		out = append(out, srv)
	}
	return out, rows.Err()
}

// Get returns one server (no secret values).
func (s *Store) Get(ctx context.Context, name string) (Server, error) {
	srv, _, _, err := s.get(ctx, s.db, name)
	return srv, err
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) get(ctx context.Context, q querier, name string) (Server, map[string]string, map[string]string, error) {
	srv, env, headers, err := scanServer(q.QueryRowContext(ctx, "SELECT "+serverColumns+" FROM mcp_servers WHERE name = ?", name))
	if errors.Is(err, sql.ErrNoRows) {
		return Server{}, nil, nil, fmt.Errorf("mcp server %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Server{}, nil, nil, fmt.Errorf("mcp server %q: %w", name, err)
	}
	return srv, env, headers, nil
}

// Secrets returns a server's decrypted env and headers (for connecting and
// exporting only).
func (s *Store) Secrets(ctx context.Context, name string) (env, headers map[string]string, err error) {
	_, sealedEnv, sealedHeaders, err := s.get(ctx, s.db, name)
	if err != nil {
		return nil, nil, err
	}
	if env, err = secrets.OpenEnv(s.box, sealedEnv); err != nil {
		return nil, nil, fmt.Errorf("mcp server %q env: %w", name, err)
	}
	if headers, err = secrets.OpenEnv(s.box, sealedHeaders); err != nil {
		return nil, nil, fmt.Errorf("mcp server %q header: %w", name, err)
	}
	return env, headers, nil
}

// SaveMode says how Save treats env and header values already stored.
type SaveMode int

// Save modes.
const (
	// MergeSecrets keeps stored values: a non-empty value replaces, an empty one deletes.
	MergeSecrets SaveMode = iota
	// ReplaceSecrets stores exactly the given env and headers.
	ReplaceSecrets
)

// Save validates and inserts or updates a server.
func (s *Store) Save(ctx context.Context, srv Server, mode SaveMode) error {
	if err := srv.Validate(); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var other string
		err := tx.QueryRowContext(ctx, "SELECT name FROM mcp_servers WHERE name = ? COLLATE NOCASE AND name <> ?", srv.Name, srv.Name).Scan(&other)
		if err == nil {
			return fmt.Errorf("MCP server name %q: %w by server %q (names must differ in more than case)", srv.Name, ErrNameTaken, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("save mcp server %q: %w", srv.Name, err)
		}
		env, headers := map[string]string{}, map[string]string{}
		if mode == MergeSecrets {
			_, oldEnv, oldHeaders, err := s.get(ctx, tx, srv.Name)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			if err == nil {
				env, headers = oldEnv, oldHeaders
			}
		}
		env, err = secrets.MergeEnv(s.box, env, srv.Env)
		if err != nil {
			return err
		}
		if headers, err = secrets.MergeEnv(s.box, headers, srv.Headers); err != nil {
			return err
		}
		args, deny := srv.Args, srv.ToolDeny
		if args == nil {
			args = []string{}
		}
		if deny == nil {
			deny = []string{}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO mcp_servers (`+serverColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(name) DO UPDATE SET transport = excluded.transport, command = excluded.command, args = excluded.args,
			env_sealed = excluded.env_sealed, cwd = excluded.cwd, url = excluded.url, headers_sealed = excluded.headers_sealed,
			enabled = excluded.enabled, tool_prefix = excluded.tool_prefix, connect_timeout_ms = excluded.connect_timeout_ms,
			call_timeout_ms = excluded.call_timeout_ms, tool_deny = excluded.tool_deny, restricted = excluded.restricted,
			deferred = excluded.deferred, sandboxed = excluded.sandboxed, sandbox_network = excluded.sandbox_network,
			updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
			srv.Name, srv.Transport, srv.Command, mustJSON(args), mustJSON(env), srv.Cwd, srv.URL, mustJSON(headers),
			srv.Enabled, srv.ToolPrefix, srv.connectTimeout().Milliseconds(), srv.callTimeout().Milliseconds(),
			mustJSON(deny), srv.Restricted, srv.Deferred, srv.Sandboxed, srv.SandboxNetwork)
		if err != nil {
			return fmt.Errorf("save mcp server %q: %w", srv.Name, err)
		}
		return nil
	})
}

// SetEnabled switches a server on or off.
func (s *Store) SetEnabled(ctx context.Context, name string, on bool) error {
	return s.update(ctx, name, "UPDATE mcp_servers SET enabled = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ?", on, name)
}

// SetToolEnabled switches one of a server's tools on or off for every agent.
func (s *Store) SetToolEnabled(ctx context.Context, name, tool string, on bool) error {
	srv, err := s.Get(ctx, name)
	if err != nil {
		return err
	}
	deny := slices.DeleteFunc(srv.ToolDeny, func(t string) bool { return t == tool })
	if !on {
		deny = append(deny, tool)
	}
	sort.Strings(deny)
	return s.update(ctx, name, "UPDATE mcp_servers SET tool_deny = ? WHERE name = ?", mustJSON(deny), name)
}

// Delete removes a server with its grants and requests.
func (s *Store) Delete(ctx context.Context, name string) error {
	return s.update(ctx, name, "DELETE FROM mcp_servers WHERE name = ?", name)
}

func (s *Store) update(ctx context.Context, name, query string, args ...any) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("mcp server %q: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("mcp server %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

// tx runs fn in a transaction that also bumps the version.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mcp store: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE settings SET value = CAST(value AS INTEGER) + 1,
		updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE key = 'mcp.version'`); err != nil {
		return fmt.Errorf("bump mcp version: %w", err)
	}
	return tx.Commit()
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcp store: encode %T: %v", v, err)) // only maps and slices of strings reach here
	}
	return string(b)
}
