package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Scope says whom a grant or request is for.
type Scope string

// Grant scopes (seed §10: mcp_agent_grants, mcp_user_grants).
const (
	ScopeAgent Scope = "agent"
	ScopeUser  Scope = "user"
)

func (s Scope) valid() error {
	if s == ScopeAgent || s == ScopeUser {
		return nil
	}
	return fmt.Errorf("scope %q must be agent or user", s)
}

// Grant lets one agent or user use a server, narrowed by tool lists.
type Grant struct {
	Server  string `json:"server"`
	Scope   Scope  `json:"scope"`
	Subject string `json:"subject"`
	// ToolAllow, when not empty, keeps only these tools; ToolDeny wins over it.
	ToolAllow []string `json:"tool_allow,omitempty"`
	ToolDeny  []string `json:"tool_deny,omitempty"`
	// ConfigOverrides give an agent its own connection settings (agent grants only).
	ConfigOverrides Overrides `json:"config_overrides"`
	Enabled         bool      `json:"enabled"`
	CreatedAt       string    `json:"created_at,omitempty"`
}

// Request statuses.
const (
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
)

// AccessRequest asks for a grant; approving it creates the grant.
type AccessRequest struct {
	ID         int64    `json:"id"`
	Server     string   `json:"server"`
	Scope      Scope    `json:"scope"`
	Subject    string   `json:"subject"`
	ToolAllow  []string `json:"tool_allow,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Status     string   `json:"status"`
	Reviewer   string   `json:"reviewer,omitempty"`
	ReviewNote string   `json:"review_note,omitempty"`
	CreatedAt  string   `json:"created_at"`
	ReviewedAt string   `json:"reviewed_at,omitempty"`
}

// SaveGrant inserts or replaces a grant; its overrides' secret values are
// merged with the stored ones (see Overrides).
func (s *Store) SaveGrant(ctx context.Context, g Grant) error {
	if err := g.Scope.valid(); err != nil {
		return err
	}
	if g.Subject == "" {
		return errors.New("grant: subject (agent or user name) is empty")
	}
	if err := g.ConfigOverrides.validate(g); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if !g.ConfigOverrides.Empty() {
			srv, _, _, err := s.get(ctx, tx, g.Server)
			if err != nil {
				return fmt.Errorf("grant: %w", err)
			}
			if err := g.ConfigOverrides.fits(srv); err != nil {
				return fmt.Errorf("grant for agent %q: %w", g.Subject, err)
			}
		}
		return s.saveGrant(ctx, tx, g, false)
	})
}

// saveGrant writes g; with keepOverrides the stored overrides stay as they are.
func (s *Store) saveGrant(ctx context.Context, tx *sql.Tx, g Grant, keepOverrides bool) error {
	var raw string
	err := tx.QueryRowContext(ctx, "SELECT config_overrides FROM mcp_grants WHERE server = ? AND scope = ? AND subject = ?",
		g.Server, g.Scope, g.Subject).Scan(&raw)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("save grant: %w", err)
	}
	stored, err := parseStoredOverrides(raw)
	if err != nil {
		stored = storedOverrides{} // corrupt: the save replaces it
	}
	if !keepOverrides {
		if stored, err = stored.seal(s.box, g.ConfigOverrides); err != nil {
			return fmt.Errorf("save grant: %w", err)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO mcp_grants (server, scope, subject, tool_allow, tool_deny, config_overrides, enabled)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(server, scope, subject) DO UPDATE SET tool_allow = excluded.tool_allow, tool_deny = excluded.tool_deny,
		config_overrides = excluded.config_overrides, enabled = excluded.enabled`,
		g.Server, g.Scope, g.Subject, mustJSON(orEmpty(g.ToolAllow)), mustJSON(orEmpty(g.ToolDeny)), mustJSON(stored), g.Enabled)
	if err != nil {
		if isForeignKey(err) {
			return fmt.Errorf("grant: mcp server %q: %w", g.Server, ErrNotFound)
		}
		return fmt.Errorf("save grant: %w", err)
	}
	return nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// DeleteGrant removes a grant.
func (s *Store) DeleteGrant(ctx context.Context, server string, scope Scope, subject string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM mcp_grants WHERE server = ? AND scope = ? AND subject = ?", server, scope, subject)
		if err != nil {
			return fmt.Errorf("delete grant: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("grant for %s %q on %q: %w", scope, subject, server, ErrNotFound)
		}
		return nil
	})
}

// Grants lists grants; an empty server lists all.
func (s *Store) Grants(ctx context.Context, server string) ([]Grant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT server, scope, subject, tool_allow, tool_deny, config_overrides, enabled, created_at
		FROM mcp_grants WHERE ? = '' OR server = ? ORDER BY server, scope, subject`, server, server)
	if err != nil {
		return nil, fmt.Errorf("list grants: %w", err)
	}
	defer rows.Close()
	var out []Grant
	for rows.Next() {
		var g Grant
		var allow, deny, overrides string
		if err := rows.Scan(&g.Server, &g.Scope, &g.Subject, &allow, &deny, &overrides, &g.Enabled, &g.CreatedAt); err != nil {
			return nil, fmt.Errorf("list grants: %w", err)
		}
		stored, oerr := parseStoredOverrides(overrides)
		if err := errors.Join(json.Unmarshal([]byte(allow), &g.ToolAllow), json.Unmarshal([]byte(deny), &g.ToolDeny), oerr); err != nil {
			return nil, fmt.Errorf("grant %s/%s: stored lists are corrupt: %w", g.Server, g.Subject, err)
		}
		g.ConfigOverrides = stored.public()
		out = append(out, g)
	}
	return out, rows.Err()
}

// CreateRequest files a pending access request and returns its id.
func (s *Store) CreateRequest(ctx context.Context, r AccessRequest) (int64, error) {
	if err := r.Scope.valid(); err != nil {
		return 0, err
	}
	if r.Subject == "" {
		return 0, errors.New("access request: subject (agent or user name) is empty")
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO mcp_access_requests (server, scope, subject, tool_allow, reason) VALUES (?, ?, ?, ?, ?)`,
			r.Server, r.Scope, r.Subject, mustJSON(orEmpty(r.ToolAllow)), r.Reason)
		if err != nil {
			if isForeignKey(err) {
				return fmt.Errorf("access request: mcp server %q: %w", r.Server, ErrNotFound)
			}
			return fmt.Errorf("access request: %w", err)
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// Requests lists access requests; an empty status lists all, newest first.
func (s *Store) Requests(ctx context.Context, status string) ([]AccessRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, server, scope, subject, tool_allow, reason, status, reviewer, review_note,
		created_at, COALESCE(reviewed_at, '') FROM mcp_access_requests WHERE ? = '' OR status = ? ORDER BY id DESC`, status, status)
	if err != nil {
		return nil, fmt.Errorf("list access requests: %w", err)
	}
	defer rows.Close()
	var out []AccessRequest
	for rows.Next() {
		var r AccessRequest
		var allow string
		if err := rows.Scan(&r.ID, &r.Server, &r.Scope, &r.Subject, &allow, &r.Reason, &r.Status, &r.Reviewer, &r.ReviewNote,
			&r.CreatedAt, &r.ReviewedAt); err != nil {
			return nil, fmt.Errorf("list access requests: %w", err)
		}
		if err := json.Unmarshal([]byte(allow), &r.ToolAllow); err != nil {
			return nil, fmt.Errorf("access request %d: stored tool list is corrupt: %w", r.ID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Review approves or rejects a pending request. Approval creates (or
// replaces) the grant in the same transaction.
func (s *Store) Review(ctx context.Context, id int64, approve bool, reviewer, note string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var r AccessRequest
		var allow string
		err := tx.QueryRowContext(ctx, "SELECT server, scope, subject, tool_allow, status FROM mcp_access_requests WHERE id = ?", id).
			Scan(&r.Server, &r.Scope, &r.Subject, &allow, &r.Status)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("access request %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("access request %d: %w", id, err)
		}
		if r.Status != StatusPending {
			return fmt.Errorf("access request %d was already %s", id, r.Status)
		}
		status := StatusRejected
		if approve {
			status = StatusApproved
			if err := json.Unmarshal([]byte(allow), &r.ToolAllow); err != nil {
				return fmt.Errorf("access request %d: stored tool list is corrupt: %w", id, err)
			}
			g := Grant{Server: r.Server, Scope: r.Scope, Subject: r.Subject, ToolAllow: r.ToolAllow, Enabled: true}
			if err := s.saveGrant(ctx, tx, g, true); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE mcp_access_requests SET status = ?, reviewer = ?, review_note = ?, reviewed_at = ? WHERE id = ?`,
			status, reviewer, note, time.Now().UTC().Format(time.RFC3339Nano), id)
		if err != nil {
			return fmt.Errorf("access request %d: %w", id, err)
		}
		return nil
	})
}

// Access decides which of a server's tools an agent and user may use.
type Access struct {
	server Server
	grants []Grant
}

// NewAccess combines a server's settings with its grants.
func NewAccess(s Server, grants []Grant) Access { return Access{server: s, grants: grants} }

// Permits reports whether agent (for user) may call the server's tool, and
// why not. Order (seed §10): the server's own tool switches, then — for a
// restricted server or when grants exist for the subject — the enabled
// grants' deny lists (deny wins), then their allow lists.
func (a Access) Permits(agent, user, tool string) (bool, string) {
	if slices.Contains(a.server.ToolDeny, tool) {
		return false, fmt.Sprintf("tool %s of MCP server %s is switched off", tool, a.server.Name)
	}
	var mine []Grant
	for _, g := range a.grants {
		if (g.Scope == ScopeAgent && g.Subject == agent) || (g.Scope == ScopeUser && g.Subject == user) {
			mine = append(mine, g)
		}
	}
	if len(mine) == 0 {
		if a.server.Restricted {
			return false, fmt.Sprintf("MCP server %s is restricted and agent %s has no grant (request access)", a.server.Name, agent)
		}
		return true, ""
	}
	enabled := 0
	for _, g := range mine {
		if !g.Enabled {
			continue
		}
		enabled++
		if slices.Contains(g.ToolDeny, tool) {
			return false, fmt.Sprintf("the %s grant for %s on MCP server %s denies %s", g.Scope, g.Subject, a.server.Name, tool)
		}
	}
	if enabled == 0 {
		return false, fmt.Sprintf("the grant for agent %s on MCP server %s is disabled", agent, a.server.Name)
	}
	for _, g := range mine {
		if g.Enabled && len(g.ToolAllow) > 0 && !slices.Contains(g.ToolAllow, tool) {
			return false, fmt.Sprintf("the %s grant for %s on MCP server %s allows only %v", g.Scope, g.Subject, a.server.Name, g.ToolAllow)
		}
	}
	return true, ""
}

// PermitsSwitchedOn is Permits as if the user had not switched the tool
// off: whether agent could call it once it is on again.
func (a Access) PermitsSwitchedOn(agent, user, tool string) (bool, string) {
	a.server.ToolDeny = nil
	return a.Permits(agent, user, tool)
}

// Usable reports whether agent (for user) may use some tool of the server
// at all, and why not: the server-level part of Permits, for deciding which
// servers a run needs (Permits still judges every call).
func (a Access) Usable(agent, user string) (bool, string) {
	var mine, enabled int
	for _, g := range a.grants {
		if (g.Scope == ScopeAgent && g.Subject == agent) || (g.Scope == ScopeUser && g.Subject == user) {
			mine++
			if g.Enabled {
				enabled++
			}
		}
	}
	switch {
	case mine == 0 && a.server.Restricted:
		return false, fmt.Sprintf("MCP server %s is restricted and agent %s has no grant (request access)", a.server.Name, agent)
	case mine > 0 && enabled == 0:
		return false, fmt.Sprintf("the grant for agent %s on MCP server %s is disabled", agent, a.server.Name)
	}
	return true, ""
}

// AgentOverrides returns the decrypted overrides of every enabled agent
// grant that has some, by server and agent.
func (s *Store) AgentOverrides(ctx context.Context) (map[string]map[string]Overrides, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT server, subject, config_overrides FROM mcp_grants
		WHERE scope = ? AND enabled AND config_overrides NOT IN ('', '{}')`, ScopeAgent)
	if err != nil {
		return nil, fmt.Errorf("grant overrides: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]Overrides{}
	for rows.Next() {
		var server, agent, raw string
		if err := rows.Scan(&server, &agent, &raw); err != nil {
			return nil, fmt.Errorf("grant overrides: %w", err)
		}
		stored, err := parseStoredOverrides(raw)
		if err != nil {
			return nil, fmt.Errorf("grant for agent %s on %s: stored config_overrides are corrupt: %w", agent, server, err)
		}
		o, err := stored.open(s.box)
		if err != nil {
			return nil, fmt.Errorf("grant for agent %s on %s: config_overrides %w", agent, server, err)
		}
		if o.Empty() {
			continue
		}
		if out[server] == nil {
			out[server] = map[string]Overrides{}
		}
		out[server][agent] = o
	}
	return out, rows.Err()
}
