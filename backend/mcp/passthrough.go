package mcp

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// Resources and prompts of a running server, for passing them through
// (`warren mcp serve`). A server that does not declare the capability has
// none; agent is served by its own connection when its grant has one.

// connFor is agent's live connection to server, or why there is none,
// with ctx bounded by the server's call timeout.
func (m *Manager) connFor(ctx context.Context, server, agent string) (*conn, context.Context, context.CancelFunc, error) {
	s, err := m.target(ctx, server, agent)
	if err != nil {
		return nil, nil, nil, err
	}
	s.mu.Lock()
	c, st, timeout := s.conn, s.status, s.cfg.callTimeout()
	s.mu.Unlock()
	if c == nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", downText(server, st), ErrNotConnected)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	return c, ctx, cancel, nil
}

// Resources lists a running server's resources.
func (m *Manager) Resources(ctx context.Context, server, agent string) ([]mcp.Resource, error) {
	return listAll(ctx, m, server, agent, "resources/list",
		func(caps mcp.ServerCapabilities) bool { return caps.Resources != nil },
		func(ctx context.Context, c *conn, cursor mcp.Cursor) ([]mcp.Resource, mcp.Cursor, error) {
			req := mcp.ListResourcesRequest{}
			req.Params.Cursor = cursor
			res, err := c.client.ListResources(ctx, req)
			if err != nil {
				return nil, "", err
			}
			return res.Resources, res.NextCursor, nil
		})
}

// ResourceTemplates lists a running server's resource templates.
func (m *Manager) ResourceTemplates(ctx context.Context, server, agent string) ([]mcp.ResourceTemplate, error) {
	return listAll(ctx, m, server, agent, "resources/templates/list",
		func(caps mcp.ServerCapabilities) bool { return caps.Resources != nil },
		func(ctx context.Context, c *conn, cursor mcp.Cursor) ([]mcp.ResourceTemplate, mcp.Cursor, error) {
			req := mcp.ListResourceTemplatesRequest{}
			req.Params.Cursor = cursor
			res, err := c.client.ListResourceTemplates(ctx, req)
			if err != nil {
				return nil, "", err
			}
			return res.ResourceTemplates, res.NextCursor, nil
		})
}

// listAll gathers every page of a list the server declares (declared
// reports whether it does); a server that never ends its list is cut off
// after 100 pages.
func listAll[T any](ctx context.Context, m *Manager, server, agent, method string, declared func(mcp.ServerCapabilities) bool,
	page func(context.Context, *conn, mcp.Cursor) ([]T, mcp.Cursor, error)) ([]T, error) {
	c, ctx, cancel, err := m.connFor(ctx, server, agent)
	if err != nil {
		return nil, err
	}
	defer cancel()
	if c.init == nil || !declared(c.init.Capabilities) {
		return nil, nil
	}
	var out []T
	var cursor mcp.Cursor
	for range 100 {
		items, next, err := page(ctx, c, cursor)
		if err != nil {
			return nil, fmt.Errorf("MCP server %s: %s: %w", server, method, c.preferDeath(err))
		}
		out = append(out, items...)
		if next == "" {
			break
		}
		cursor = next
	}
	return out, nil
}

// ReadResource reads one resource of a running server.
func (m *Manager) ReadResource(ctx context.Context, server, agent, uri string) ([]mcp.ResourceContents, error) {
	c, ctx, cancel, err := m.connFor(ctx, server, agent)
	if err != nil {
		return nil, err
	}
	defer cancel()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.client.ReadResource(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("MCP server %s: resources/read %s: %w", server, uri, c.preferDeath(err))
	}
	return res.Contents, nil
}

// Prompts lists a running server's prompts.
func (m *Manager) Prompts(ctx context.Context, server, agent string) ([]mcp.Prompt, error) {
	return listAll(ctx, m, server, agent, "prompts/list",
		func(caps mcp.ServerCapabilities) bool { return caps.Prompts != nil },
		func(ctx context.Context, c *conn, cursor mcp.Cursor) ([]mcp.Prompt, mcp.Cursor, error) {
			req := mcp.ListPromptsRequest{}
			req.Params.Cursor = cursor
			res, err := c.client.ListPrompts(ctx, req)
			if err != nil {
				return nil, "", err
			}
			return res.Prompts, res.NextCursor, nil
		})
}

// GetPrompt renders one prompt of a running server.
func (m *Manager) GetPrompt(ctx context.Context, server, agent, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	c, ctx, cancel, err := m.connFor(ctx, server, agent)
	if err != nil {
		return nil, err
	}
	defer cancel()
	req := mcp.GetPromptRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.client.GetPrompt(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("MCP server %s: prompts/get %s: %w", server, name, c.preferDeath(err))
	}
	return res, nil
}
