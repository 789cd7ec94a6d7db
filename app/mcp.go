package app

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
)

// SaveFileDialog asks where to save a file and returns the chosen path, or
// "" when the user cancelled. Swappable like Dialog (wruntime.SaveFileDialog
// in the window).
type SaveFileDialog func(ctx context.Context, title, defaultName string) (string, error)

// MCPServers lists every server with its live status.
func (a *App) MCPServers() ([]warren.MCPServerView, error) {
	views, err := a.core.MCPServerViews(a.context())
	if views == nil {
		views = []warren.MCPServerView{}
	}
	return views, err
}

// AddMCPServer stores a new server and starts it when enabled; with offer
// its tools are offered to agents. A taken name is an error.
func (a *App) AddMCPServer(srv mcp.Server, offer bool) error {
	return a.core.AddMCPServerOffered(a.context(), srv, offer)
}

// UpdateMCPServer saves an edited server (stored secrets and tool switches kept).
func (a *App) UpdateMCPServer(srv mcp.Server) error { return a.core.UpdateMCPServer(a.context(), srv) }

// DeleteMCPServer stops a server and removes it with its grants and requests.
func (a *App) DeleteMCPServer(name string) error {
	return a.core.DeleteMCPServer(a.context(), name)
}

// SetMCPServerEnabled switches a server on (starting it) or off (stopping it).
func (a *App) SetMCPServerEnabled(name string, on bool) error {
	if err := a.core.SetMCPServerEnabled(a.context(), name, on); err != nil || !on {
		return err
	}
	return a.core.MCP().Start(a.context(), name) // at once, a hand stop released
}

// StartMCPServer starts a stored server now, enabled or not.
func (a *App) StartMCPServer(name string) error { return a.core.MCP().Start(a.context(), name) }

// StopMCPServer stops a running server; it stays stopped until started
// again (or the window restarts), even when enabled.
func (a *App) StopMCPServer(name string) error {
	if _, err := a.core.MCP().Store().Get(a.context(), name); err != nil {
		return err
	}
	a.core.MCP().Hold(name)
	return nil
}

// RestartMCPServer restarts a server; a failed one retries from attempt 1.
func (a *App) RestartMCPServer(name string) error { return a.core.MCP().Restart(a.context(), name) }

// MCPTestTool is one tool a connection test found.
type MCPTestTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// MCPTestResult is a connection test's outcome. A failed test is a result
// (OK false, Error and the server's stderr lines), not a Go error, so the
// UI can show the stderr next to the message.
type MCPTestResult struct {
	OK            bool          `json:"ok"`
	Error         string        `json:"error,omitempty"`
	Protocol      string        `json:"protocol"`
	ServerName    string        `json:"server_name"`
	ServerVersion string        `json:"server_version"`
	Tools         []MCPTestTool `json:"tools"`
	LatencyMS     float64       `json:"latency_ms"`
	Warning       string        `json:"warning,omitempty"`
	Stderr        []string      `json:"stderr"`
}

// TestMCPServer connects once to a configuration, saved or not, and lists
// its tools. Env and header keys it does not set fall back to the values
// stored under the same server name.
func (a *App) TestMCPServer(srv mcp.Server) MCPTestResult {
	res, err := a.core.MCP().Test(a.context(), srv)
	out := MCPTestResult{
		OK: err == nil, Protocol: res.Protocol, ServerName: res.ServerName, ServerVersion: res.ServerVersion,
		Tools: make([]MCPTestTool, 0, len(res.Tools)), LatencyMS: res.LatencyMS, Warning: res.Warning, Stderr: res.Stderr,
	}
	if err != nil {
		out.Error = err.Error()
	}
	for _, t := range res.Tools {
		out.Tools = append(out.Tools, MCPTestTool{Name: t.Name, Description: t.Description})
	}
	if out.Stderr == nil {
		out.Stderr = []string{}
	}
	return out
}

// MCPServerTools lists a running server's tools with their on/off switch.
func (a *App) MCPServerTools(name string) ([]warren.MCPToolView, error) {
	list, err := a.core.MCPServerTools(a.context(), name)
	if list == nil {
		list = []warren.MCPToolView{}
	}
	return list, err
}

// SetMCPToolEnabled switches one of a server's tools on or off for every agent.
func (a *App) SetMCPToolEnabled(server, tool string, on bool) error {
	return a.core.SetMCPToolEnabled(a.context(), server, tool, on)
}

// MCPServerLogs returns up to lines last lines of a server's stderr log.
func (a *App) MCPServerLogs(name string, lines int) ([]string, error) {
	out, err := a.core.MCPServerLog(a.context(), name, lines)
	if out == nil {
		out = []string{}
	}
	return out, err
}

// MCPGrants lists grants; an empty server lists all.
func (a *App) MCPGrants(server string) ([]mcp.Grant, error) {
	gs, err := a.core.MCP().Store().Grants(a.context(), server)
	if gs == nil {
		gs = []mcp.Grant{}
	}
	return gs, err
}

// SaveMCPGrant creates or replaces the grant for (server, scope, subject).
func (a *App) SaveMCPGrant(g mcp.Grant) error { return a.core.SaveMCPGrant(a.context(), g) }

// DeleteMCPGrant removes a grant.
func (a *App) DeleteMCPGrant(server, scope, subject string) error {
	return a.core.DeleteMCPGrant(a.context(), server, mcp.Scope(scope), subject)
}

// MCPAccessRequests lists access requests with status ("" = all, "pending"),
// newest first.
func (a *App) MCPAccessRequests(status string) ([]mcp.AccessRequest, error) {
	rs, err := a.core.MCP().Store().Requests(a.context(), status)
	if rs == nil {
		rs = []mcp.AccessRequest{}
	}
	return rs, err
}

// RequestMCPAccess files a pending access request and returns its id.
func (a *App) RequestMCPAccess(r mcp.AccessRequest) (int64, error) {
	return a.core.MCP().Store().CreateRequest(a.context(), r)
}

// ReviewMCPRequest approves (creating the grant) or rejects a pending request.
func (a *App) ReviewMCPRequest(id int64, approve bool, note string) error {
	return a.core.ReviewMCPRequest(a.context(), id, approve, note)
}

// ImportMCPServers imports an mcpServers JSON document (Claude Desktop,
// Cursor, VS Code); existing servers are kept unless replace is set.
func (a *App) ImportMCPServers(text string, replace bool) (warren.MCPImportReport, error) {
	return a.core.ImportMCPServers(a.context(), []byte(text), replace)
}

// PreviewMCPImport parses a pasted mcpServers document and reports each
// server as an import would store it; nothing is stored or started.
func (a *App) PreviewMCPImport(text string) (warren.MCPImportPreview, error) {
	return a.core.PreviewMCPImport(a.context(), []byte(text))
}

// FindMCPConfigs previews the Claude Desktop, Cursor and VS Code MCP
// configs found on this machine.
func (a *App) FindMCPConfigs() ([]warren.MCPImportPreview, error) {
	return a.core.FindMCPConfigs(a.context(), a.claudePaths)
}

// ImportMCPSelection imports the chosen servers of pasted text or of a
// found config (by its path), each enabled or not as chosen.
func (a *App) ImportMCPSelection(req warren.MCPImportRequest) (warren.MCPImportReport, error) {
	return a.core.ImportMCPSelection(a.context(), req, a.claudePaths)
}

// ExportMCPServers returns every server as a Claude Desktop mcpServers
// document. It holds the decrypted env and header values.
func (a *App) ExportMCPServers() (string, error) {
	data, err := a.core.ExportMCPServers(a.context())
	return string(data), err
}

// CanSaveFiles reports whether SaveMCPExport has a native save dialog.
func (a *App) CanSaveFiles() bool { return a.saveFile != nil }

// SaveMCPExport asks where to save the export and writes it there (mode
// 0600: it holds secrets). It returns the path, or "" when cancelled.
func (a *App) SaveMCPExport() (string, error) {
	if a.saveFile == nil {
		return "", errors.New("no save dialog here: copy the exported JSON instead")
	}
	ctx := a.context()
	path, err := a.saveFile(ctx, "Export MCP servers", "mcp-servers.json")
	if err != nil || path == "" {
		return "", err
	}
	// Over an existing config (Claude Desktop's, say) its other keys stay.
	existing, err := os.ReadFile(path) //nolint:gosec // the path the user chose in the save dialog
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	data, err := a.core.ExportMCPServersInto(ctx, existing)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil { //nolint:gosec // the path the user chose in the save dialog
		return "", err
	}
	return path, nil
}

// ClaudeDesktopOffer is the first-run offer to import Claude Desktop's
// servers, or nil when there is nothing to offer or it was answered.
func (a *App) ClaudeDesktopOffer() (*warren.ClaudeDesktopOffer, error) {
	return a.core.ClaudeDesktopImportOffer(a.context(), a.claudePaths)
}

// AnswerClaudeDesktopOffer imports Claude Desktop's servers (accept) or
// dismisses the offer; either way it is not shown again.
func (a *App) AnswerClaudeDesktopOffer(accept bool) (warren.MCPImportReport, error) {
	return a.core.AnswerClaudeDesktopOffer(a.context(), accept, a.claudePaths)
}

// MCPAgentAccess says whether agents are offered a server's tools under the
// active profile.
type MCPAgentAccess struct {
	// AlsoAllowed: the global also-allow list has group:mcp:NAME.
	AlsoAllowed bool `json:"also_allowed"`
	// Hint explains how to offer the tools when they are not; "" when they are.
	Hint    string `json:"hint"`
	Profile string `json:"profile"`
}

// MCPAgentAccess reports whether the active profile offers server's tools.
func (a *App) MCPAgentAccess(server string) MCPAgentAccess {
	return MCPAgentAccess{Hint: a.core.MCPPolicyHint(a.context(), server), Profile: a.core.ActiveProfile(),
		AlsoAllowed: a.core.MCPOffered(server)}
}

// SetMCPOffered adds (on) or removes the also-allow entry group:mcp:NAME
// that offers a server's tools to agents under a profile without them.
func (a *App) SetMCPOffered(server string, on bool) error {
	return a.core.SetMCPOffered(a.context(), server, on)
}
