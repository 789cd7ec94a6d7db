package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strings"
)

// ContextFileStore keeps agent context files (SOUL.md & co.) out of the
// workspace: agent-level templates and per-user copies. backend/store
// implements it in SQLite.
type ContextFileStore interface {
	AgentType(ctx context.Context, agent string) (string, error) // "open" or "predefined"; unknown agent → "open"
	GetAgentFile(ctx context.Context, agent, name string) (content string, ok bool, err error)
	PutAgentFile(ctx context.Context, agent, name, content string) error
	DeleteAgentFile(ctx context.Context, agent, name string) error
	GetUserFile(ctx context.Context, agent, user, name string) (content string, ok bool, err error)
	PutUserFile(ctx context.Context, agent, user, name, content string) error
	DeleteUserFile(ctx context.Context, agent, user, name string) error
}

// Agent types returned by ContextFileStore.AgentType.
const (
	AgentTypeOpen       = "open"
	AgentTypePredefined = "predefined"
)

// bootstrapFile is deleted, not stored, when written empty: its absence is
// what marks the first run as done.
const bootstrapFile = "BOOTSTRAP.md"

// contextFileNames are the routed context files, in the seed's order. The
// seed announces seven but lists six; GoClaw's seventh, HEARTBEAT.md, stays
// on disk until an issue asks for it.
var contextFileNames = []string{"SOUL.md", "IDENTITY.md", "AGENTS.md", "TOOLS.md", "USER.md", bootstrapFile}

// ContextFileNames lists the routed context files.
func ContextFileNames() []string { return slices.Clone(contextFileNames) }

// IsContextFile reports whether rel is one of the routed context files. Only
// exact names at the workspace root are routed.
func IsContextFile(rel string) bool { return slices.Contains(contextFileNames, rel) }

// ContextFileScope says whose a stored context file is.
type ContextFileScope string

// Context file scopes.
const (
	// ScopeAgent files are shared by every user of the agent.
	ScopeAgent ContextFileScope = "agent"
	// ScopeUser files belong to one user of the agent.
	ScopeUser ContextFileScope = "user"
)

// ContextFileRoute is where a routed file lives for one agent type.
type ContextFileRoute struct {
	Scope ContextFileScope
	// Fallback: a user with no copy of their own reads the agent-level
	// template (only with ScopeUser).
	Fallback bool
}

// RouteContextFile says where name lives for agents of agentType (unknown
// types route as open); ok is false when name is not a routed file. The
// interceptor routes with it, and so do editors that must show and change
// exactly what the agent reads.
func RouteContextFile(agentType, name string) (route ContextFileRoute, ok bool) {
	if !IsContextFile(name) {
		return ContextFileRoute{}, false
	}
	if agentType == AgentTypePredefined {
		if name == "USER.md" {
			return ContextFileRoute{Scope: ScopeUser}, true
		}
		return ContextFileRoute{Scope: ScopeAgent}, true
	}
	// BOOTSTRAP.md does not fall back: once the user's copy is deleted the
	// first run is over, and the template must not bring it back.
	return ContextFileRoute{Scope: ScopeUser, Fallback: name != bootstrapFile}, true
}

// ContextFileInterceptor routes context files to a ContextFileStore. Open
// agents keep every file per user, reading the agent-level template when the
// user has none; predefined agents keep only USER.md per user.
type ContextFileInterceptor struct {
	store ContextFileStore
}

// NewContextFileInterceptor returns an interceptor backed by store.
func NewContextFileInterceptor(store ContextFileStore) *ContextFileInterceptor {
	return &ContextFileInterceptor{store: store}
}

// route says where name lives for agent: per user or agent-level, and
// whether a missing user copy falls back to the agent-level template.
func (c *ContextFileInterceptor) route(ctx context.Context, agent, name string) (perUser, fallback bool, err error) {
	typ, err := c.store.AgentType(ctx, agent)
	if err != nil {
		return false, false, fmt.Errorf("agent type of %s: %w", agent, err)
	}
	r, _ := RouteContextFile(typ, name) // callers checked IsContextFile
	return r.Scope == ScopeUser, r.Fallback, nil
}

// Read serves a routed file from the store.
func (c *ContextFileInterceptor) Read(ctx context.Context, rel string) (string, bool, error) {
	if !IsContextFile(rel) {
		return "", false, nil
	}
	agent, user := callIdentity(ctx)
	perUser, fallback, err := c.route(ctx, agent, rel)
	if err != nil {
		return "", true, err
	}
	if perUser {
		content, ok, err := c.store.GetUserFile(ctx, agent, user, rel)
		if err != nil {
			return "", true, fmt.Errorf("read %s of %s/%s: %w", rel, agent, user, err)
		}
		if ok {
			return content, true, nil
		}
		if !fallback {
			return "", true, notExist(rel)
		}
	}
	content, ok, err := c.store.GetAgentFile(ctx, agent, rel)
	if err != nil {
		return "", true, fmt.Errorf("read %s of %s: %w", rel, agent, err)
	}
	if !ok {
		return "", true, notExist(rel)
	}
	return content, true, nil
}

// Write stores a routed file; appending extends what Read would return.
// An empty (whitespace-only) BOOTSTRAP.md deletes the stored row.
func (c *ContextFileInterceptor) Write(ctx context.Context, rel, content string, appendMode bool) (bool, error) {
	if !IsContextFile(rel) {
		return false, nil
	}
	agent, user := callIdentity(ctx)
	perUser, _, err := c.route(ctx, agent, rel)
	if err != nil {
		return true, err
	}
	if appendMode {
		current, _, err := c.Read(ctx, rel)
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return true, err
		}
		content = current + content
	}
	switch {
	case rel == bootstrapFile && strings.TrimSpace(content) == "" && perUser:
		err = c.store.DeleteUserFile(ctx, agent, user, rel)
	case rel == bootstrapFile && strings.TrimSpace(content) == "":
		err = c.store.DeleteAgentFile(ctx, agent, rel)
	case perUser:
		err = c.store.PutUserFile(ctx, agent, user, rel, content)
	default:
		err = c.store.PutAgentFile(ctx, agent, rel, content)
	}
	if err != nil {
		return true, fmt.Errorf("write %s of %s/%s: %w", rel, agent, user, err)
	}
	return true, nil
}
