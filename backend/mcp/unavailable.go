package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Unavailable is why a stored server's tool cannot be called now.
type Unavailable struct {
	Server string
	// Tool is the server's own name for the tool (best effort when the
	// server never listed its tools in this process).
	Tool   string
	Reason string
	// ByUser: the user switched the tool or server off or stopped it (as
	// opposed to a server that is down).
	ByUser bool
}

// Unavailable explains a registry name (mcp_{prefix}_{tool}) that belongs
// to a stored server but is not registered now: the tool or the server is
// switched off, the server was stopped by hand, or it is down and why.
// ok is false when no stored server owns the name, or when the server is
// connected (then the tool really is unknown). The caller decides who may
// read the reason.
func (m *Manager) Unavailable(ctx context.Context, name string) (Unavailable, bool) {
	if !strings.HasPrefix(name, "mcp_") {
		return Unavailable{}, false
	}
	list, err := m.opts.Store.List(ctx)
	if err != nil {
		return Unavailable{}, false
	}
	var srv Server
	for _, s := range list {
		if strings.HasPrefix(name, "mcp_"+s.Prefix()+"_") && len(s.Prefix()) > len(srv.Prefix()) {
			srv = s
		}
	}
	if srv.Name == "" {
		return Unavailable{}, false
	}
	u := Unavailable{Server: srv.Name, Tool: m.toolFor(srv, name)}
	st, running := m.status(srv.Name)
	m.mu.Lock()
	held := m.held[srv.Name]
	m.mu.Unlock()
	switch {
	case containsTool(srv.ToolDeny, srv.Prefix(), name):
		u.Reason, u.ByUser = fmt.Sprintf("tool %s of MCP server %s is switched off by the user", u.Tool, srv.Name), true
	case !srv.Enabled:
		u.Reason, u.ByUser = fmt.Sprintf("MCP server %s is switched off by the user", srv.Name), true
	case held:
		u.Reason, u.ByUser = fmt.Sprintf("MCP server %s was stopped by the user", srv.Name), true
	case !running:
		u.Reason = fmt.Sprintf("MCP server %s is not running", srv.Name)
	case st.State == StateConnected:
		return Unavailable{}, false
	default:
		u.Reason = downText(srv.Name, st)
	}
	return u, true
}

// toolFor is the server's own name of the tool a registry name stands for.
func (m *Manager) toolFor(srv Server, name string) string {
	ts, _ := m.Tools(srv.Name)
	for _, t := range ts {
		if ToolName(srv.Prefix(), t.Name) == name {
			return t.Name
		}
	}
	for _, t := range srv.ToolDeny {
		if ToolName(srv.Prefix(), t) == name {
			return t
		}
	}
	return strings.TrimPrefix(name, "mcp_"+srv.Prefix()+"_")
}

func containsTool(list []string, prefix, name string) bool {
	for _, t := range list {
		if ToolName(prefix, t) == name {
			return true
		}
	}
	return false
}

// downText says why a server that is not connected cannot answer, for
// the model and the user alike.
func downText(label string, st Status) string {
	switch st.State {
	case StateConnecting:
		return fmt.Sprintf("MCP server %s is still connecting", label)
	case StateStopped:
		return fmt.Sprintf("MCP server %s is not running", label)
	}
	why := st.LastError
	if why == "" {
		why = string(st.State)
	}
	out := fmt.Sprintf("MCP server %s is down: %s", label, why)
	switch {
	case st.State == StateFailed:
		out += fmt.Sprintf(" (Warren gave up after %d attempts; the user can retry with `warren mcp restart %s`)", st.Attempt, st.Name)
	case !st.NextRetry.IsZero():
		out += fmt.Sprintf(" (reconnect attempt %d/%d in %s)", st.Attempt, st.MaxAttempts, max(time.Until(st.NextRetry), 0).Round(time.Second))
	}
	return out
}
