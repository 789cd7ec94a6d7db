package warren

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools/fs"
)

// ErrDefaultAgent marks an attempt to remove the default agent, which runs
// whenever a request names none.
var ErrDefaultAgent = errors.New("the default agent cannot be removed")

// AgentFieldError is SaveAgent refusing one field of an agent. It wraps
// store.ErrInvalidAgent and the cause, so each caller can point at the
// field its own way (the CLI names the flag).
type AgentFieldError struct {
	Agent string // the agent's key
	Field string // the store.Agent JSON field: provider, profile, workspace, allow or deny
	Err   error
}

func (e *AgentFieldError) Error() string {
	return fmt.Sprintf("%v %q: %s: %v", store.ErrInvalidAgent, e.Agent, e.Field, e.Err)
}

// Unwrap exposes both store.ErrInvalidAgent and the cause to errors.Is.
func (e *AgentFieldError) Unwrap() []error { return []error{store.ErrInvalidAgent, e.Err} }

// SaveAgent validates and stores an agent; its allow/deny lists apply at
// once. An unknown provider or profile, a workspace that is not an existing
// directory ("~" is the home directory) or a malformed allow/deny entry is
// refused with an *AgentFieldError: a bad list would otherwise leave the
// agent silently without tools. Provider, profile and workspace are judged
// only when they differ from the stored agent, so an agent whose provider
// or folder went away can still be edited. The warnings name list entries
// that select no tool the agent has (likely typos; not errors, because MCP
// tools register later).
func (w *Warren) SaveAgent(ctx context.Context, a store.Agent) ([]string, error) {
	old, err := w.db.GetAgent(ctx, a.Key)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if a.Workspace, err = expandHome(a.Workspace); err != nil {
		return nil, &AgentFieldError{Agent: a.Key, Field: "workspace", Err: err}
	}
	if err := w.checkAgentFields(ctx, a, old); err != nil {
		return nil, err
	}
	if err := w.db.PutAgent(ctx, a); err != nil {
		return nil, err
	}
	w.forgetAgentPolicy(a.Key)
	if a.Workspace != old.Workspace && w.mcp != nil {
		// MCP servers' roots are agents' workspaces: they ask again.
		w.MCP().RootsChanged(ctx)
	}
	reg, err := w.registryFor(ctx, a.Key)
	if err != nil {
		reg = w.registry // the warnings are advice; the agent is stored
	}
	// Top-level lists, as in checkAgentFields: "deny[0]: …".
	return policy.Config{Allow: a.Allow, Deny: a.Deny}.Warnings(toolRefs(reg.List())), nil
}

// checkAgentFields judges the fields of a that differ from old (the stored
// agent; zero when a is new). The allow/deny lists are always judged.
func (w *Warren) checkAgentFields(ctx context.Context, a, old store.Agent) error {
	bad := func(field string, err error) error { return &AgentFieldError{Agent: a.Key, Field: field, Err: err} }
	if a.Provider != "" && a.Provider != old.Provider {
		if _, err := w.Providers().Get(ctx, a.Provider); errors.Is(err, store.ErrNotFound) {
			return bad("provider", fmt.Errorf("no provider %q", a.Provider))
		} else if err != nil {
			return err
		}
	}
	if a.Profile != "" && a.Profile != old.Profile {
		if _, err := policy.ParseProfile(a.Profile); err != nil {
			return bad("profile", err)
		}
	}
	if a.Workspace != "" && a.Workspace != old.Workspace {
		if err := checkWorkspace(a.Workspace); err != nil {
			return bad("workspace", err)
		}
	}
	// Judged as top-level lists so messages read "allow[0]: …", not
	// `agents["key"].allow[0]: …` after the key was named already.
	if err := (policy.Config{Allow: a.Allow}).Validate(); err != nil {
		return bad("allow", err)
	}
	if err := (policy.Config{Deny: a.Deny}).Validate(); err != nil {
		return bad("deny", err)
	}
	return nil
}

// expandHome turns a leading "~" into the home directory: the window
// accepts "~/code", and nothing later would expand it.
func expandHome(dir string) (string, error) {
	rest, ok := strings.CutPrefix(dir, "~")
	if !ok || (rest != "" && rest[0] != '/' && rest[0] != filepath.Separator) {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("%q: %w", dir, err)
	}
	return filepath.Join(home, rest), nil
}

// checkWorkspace requires an absolute path to an existing directory: a
// relative one would depend on where Warren was started.
func checkWorkspace(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("%q is not an absolute path", dir)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%q is not an existing directory", dir)
	}
	return nil
}

// DeleteAgent removes an agent and its context files; the default agent
// cannot be removed (ErrDefaultAgent).
func (w *Warren) DeleteAgent(ctx context.Context, key string) error {
	if key == fs.DefaultAgent {
		return ErrDefaultAgent
	}
	if err := w.db.DeleteAgent(ctx, key); err != nil {
		return err
	}
	w.forgetAgentPolicy(key)
	return nil
}
