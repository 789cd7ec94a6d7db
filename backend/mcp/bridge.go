package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

// bridged is one MCP server tool seen through Warren's registry: the whole
// pipeline (policy, grants, rate limit, approvals, scrubbing, events) wraps
// it like any built-in tool.
type bridged struct {
	m        *Manager
	server   string
	tool     string
	deferred bool
	info     tools.Info
}

// Bridged is what the registry needs to know about a bridged tool.
type Bridged interface {
	tools.Tool
	// Origin names the server and the tool's name on it.
	Origin() (server, tool string)
	// Deferred tools are offered to the model only after tool_search loads them.
	Deferred() bool
}

// BridgeTools returns a registry tool for every enabled tool of every
// running server, with the problems (bad schemas) that kept some out.
func (m *Manager) BridgeTools() ([]Bridged, []string) {
	var out []Bridged
	var problems []string
	for _, st := range m.Running() {
		for _, t := range st.Tools {
			if slices.Contains(st.Server.ToolDeny, t.Name) {
				continue
			}
			b, err := m.bridge(st.Server, t)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			out = append(out, b)
		}
	}
	return out, problems
}

func (m *Manager) bridge(srv Server, t mcp.Tool) (*bridged, error) {
	raw, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("MCP server %s tool %s: schema: %w", srv.Name, t.Name, err)
	}
	schema, err := tools.RawSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("MCP server %s tool %s: %w", srv.Name, t.Name, err)
	}
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = t.Title
	}
	return &bridged{m: m, server: srv.Name, tool: t.Name, deferred: srv.Deferred, info: tools.Info{
		Name:            ToolName(srv.Prefix(), t.Name),
		Group:           policy.MCPGroup(srv.Name),
		Description:     fmt.Sprintf("[MCP %s] %s", srv.Name, tools.FirstLine(desc, 300)),
		LongDescription: desc,
		Schema:          schema,
		Danger:          DangerOf(t.Annotations),
		Class:           tools.ClassStatic,
	}}, nil
}

// DangerOf maps a tool's own hints to a danger level; they are hints, so an
// unmarked tool is a warning, not safe.
func DangerOf(a mcp.ToolAnnotation) tools.DangerLevel {
	switch {
	case a.DestructiveHint != nil && *a.DestructiveHint:
		return tools.DangerDangerous
	case a.ReadOnlyHint != nil && *a.ReadOnlyHint:
		return tools.DangerSafe
	}
	return tools.DangerWarning
}

func (b *bridged) Info() tools.Info { return b.info }

func (b *bridged) Origin() (string, string) { return b.server, b.tool }

func (b *bridged) Deferred() bool { return b.deferred }

// Execute calls the server. The server's isError results and an unreachable
// server are error results the model can read; only Warren's own failures
// would be Go errors.
func (b *bridged) Execute(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	res, err := b.m.Call(ctx, b.server, b.tool, args)
	if err != nil {
		code := tools.CodeExecution
		switch {
		case errors.Is(err, ErrNotConnected):
			code = tools.CodeNetwork
		case errors.Is(err, ErrCallTimeout):
			code = tools.CodeTimeout
		}
		return tools.Errorf(code, "%v", err), nil
	}
	text := ResultText(res)
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return tools.Errorf(tools.CodeExecution, "%s", text), nil
	}
	return tools.Text(text), nil
}

// ResultText renders a tool result's content for the model: text as is,
// resources with their URI, binary content described by type and size.
func ResultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			parts = append(parts, t.Text)
			continue
		}
		if img, ok := mcp.AsImageContent(c); ok {
			parts = append(parts, fmt.Sprintf("[%s image, %d bytes base64]", img.MIMEType, len(img.Data)))
			continue
		}
		if au, ok := mcp.AsAudioContent(c); ok {
			parts = append(parts, fmt.Sprintf("[%s audio, %d bytes base64]", au.MIMEType, len(au.Data)))
			continue
		}
		if link, ok := c.(mcp.ResourceLink); ok {
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", link.Name, link.URI))
			continue
		}
		if er, ok := mcp.AsEmbeddedResource(c); ok {
			if tr, ok := mcp.AsTextResourceContents(er.Resource); ok {
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", tr.URI, tr.Text))
			} else if br, ok := mcp.AsBlobResourceContents(er.Resource); ok {
				parts = append(parts, fmt.Sprintf("[resource %s: %s, %d bytes base64]", br.URI, br.MIMEType, len(br.Blob)))
			}
			continue
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}
