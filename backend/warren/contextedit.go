package warren

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"

	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/fs"
)

// ErrInvalidContextFile marks a save the caller can fix: a name that is not
// a routed context file, or content over the write limit.
var ErrInvalidContextFile = errors.New("invalid context file")

// contextFilePurpose says what each routed file is for (seed §3).
var contextFilePurpose = map[string]string{
	"SOUL.md":      "Persona: the agent's personality and behavior",
	"IDENTITY.md":  "Agent identity information: who it is, its name and role",
	"AGENTS.md":    "Sub-agent definitions",
	"TOOLS.md":     "Tool usage guidance",
	"USER.md":      "Per-user preferences and context",
	"BOOTSTRAP.md": "First-run instructions; the agent writes it empty (deleting it) when the first run is done",
}

// ContextFileView is one routed context file of an agent, as the agent
// reads it on this desktop (user "local").
type ContextFileView struct {
	Name    string `json:"name"`
	Purpose string `json:"purpose"`
	// Scope is where the file is stored: "agent" (shared by every user of
	// the agent) or "user" (the local user's own copy).
	Scope fs.ContextFileScope `json:"scope"`
	// Content is what read_file returns; "" when the file does not exist.
	Content string `json:"content"`
	// Exists reports whether read_file finds the file.
	Exists bool `json:"exists"`
	// Template: the user has no copy of this open agent's file, so Content
	// is the agent-level template read_file falls back to; saving creates
	// the user's copy.
	Template bool `json:"template"`
	// InPrompt reports whether the system prompt includes the file.
	InPrompt bool `json:"in_prompt"`
}

// AgentContextFiles lists every routed context file of agent with where it
// lives for the agent's type and what the agent reads from it.
func (w *Warren) AgentContextFiles(ctx context.Context, agent string) ([]ContextFileView, error) {
	typ, err := w.contextAgentType(ctx, agent)
	if err != nil {
		return nil, err
	}
	ic := fs.NewContextFileInterceptor(w.db)
	callCtx := contextFileCall(ctx, agent)
	var out []ContextFileView
	for _, name := range fs.ContextFileNames() {
		route, _ := fs.RouteContextFile(typ, name)
		v := ContextFileView{Name: name, Purpose: contextFilePurpose[name], Scope: route.Scope}
		content, _, err := ic.Read(callCtx, name)
		switch {
		case errors.Is(err, iofs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("context file %s of %s: %w", name, agent, err)
		default:
			v.Content, v.Exists = content, true
		}
		if v.Exists && route.Fallback {
			_, own, err := w.db.GetUserFile(ctx, agent, localUser, name)
			if err != nil {
				return nil, err
			}
			v.Template = !own
		}
		// The rule systemPrompt applies: listed there, present, not blank.
		v.InPrompt = v.Exists && inPrompt(name, content)
		out = append(out, v)
	}
	return out, nil
}

// SaveAgentContextFile writes one routed context file of agent where the
// file tools would. Blank content removes the file; when an open agent's
// template would then show through, an empty copy is kept instead, so the
// agent reads what was saved.
func (w *Warren) SaveAgentContextFile(ctx context.Context, agent, name, content string) error {
	if !fs.IsContextFile(name) {
		return fmt.Errorf("%w: %q is not one of %s", ErrInvalidContextFile, name, strings.Join(fs.ContextFileNames(), ", "))
	}
	if len(content) > fs.DefaultMaxWriteBytes {
		return fmt.Errorf("%w: %s is %d bytes, over the %d-byte limit", ErrInvalidContextFile, name, len(content), fs.DefaultMaxWriteBytes)
	}
	typ, err := w.contextAgentType(ctx, agent)
	if err != nil {
		return err
	}
	ic := fs.NewContextFileInterceptor(w.db)
	callCtx := contextFileCall(ctx, agent)
	if strings.TrimSpace(content) != "" {
		_, err := ic.Write(callCtx, name, content, false)
		return err
	}
	route, _ := fs.RouteContextFile(typ, name)
	if route.Fallback {
		if _, ok, err := w.db.GetAgentFile(ctx, agent, name); err != nil {
			return err
		} else if ok {
			_, err := ic.Write(callCtx, name, "", false)
			return err
		}
	}
	if route.Scope == fs.ScopeUser {
		return w.db.DeleteUserFile(ctx, agent, localUser, name)
	}
	return w.db.DeleteAgentFile(ctx, agent, name)
}

// contextAgentType returns the routing type of an existing agent; context
// files are never written for an agent that is not configured.
func (w *Warren) contextAgentType(ctx context.Context, agent string) (string, error) {
	if agent == "" {
		return "", fmt.Errorf("%w: name the agent", ErrUnknownAgent)
	}
	if err := w.checkProfileAgent(ctx, "", agent); err != nil {
		return "", err
	}
	return w.db.AgentType(ctx, agent)
}

// contextFileCall is the identity the agent's own file tools and its system
// prompt run with on the desktop.
func contextFileCall(ctx context.Context, agent string) context.Context {
	return tools.WithCallContext(ctx, tools.CallContext{Agent: agent, User: localUser})
}
