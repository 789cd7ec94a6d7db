package warren

import (
	"context"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/store"
)

// Resources and prompts of the MCP servers an agent may use, for passing
// them through (`warren mcp serve`): the same servers as its tools (policy
// and grants), text scrubbed like tool results.

// MCPServerRef names a server as seen by one agent under a profile ("" =
// the agent's own or the active one).
type MCPServerRef struct {
	Agent, Profile, Server string
}

// mayUseMCP is nil when agent may use server, else an error saying why not.
func (w *Warren) mayUseMCP(ctx context.Context, agent, profile, server string) error {
	if agent != "" {
		// An unknown agent has no grants to judge: refused, not judged by
		// the active profile.
		if _, err := w.db.GetAgent(ctx, agent); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("%w %q", ErrUnknownAgent, agent)
			}
			return err
		}
	}
	verdicts, err := w.mcpVerdicts(ctx, MCPUse{Agent: agent, Profile: profile})
	if err != nil {
		return err
	}
	for _, v := range verdicts {
		if v.server.Name == server {
			if v.why != "" {
				return errors.New(v.why)
			}
			return nil
		}
	}
	return fmt.Errorf("MCP server %q: %w", server, mcp.ErrNotFound)
}

// MCPResources lists the resources of a server agent may use.
func (w *Warren) MCPResources(ctx context.Context, ref MCPServerRef) ([]mcpgo.Resource, error) {
	if err := w.mayUseMCP(ctx, ref.Agent, ref.Profile, ref.Server); err != nil {
		return nil, err
	}
	return w.MCP().Resources(ctx, ref.Server, ref.Agent)
}

// MCPResourceTemplates lists the resource templates of a server agent may use.
func (w *Warren) MCPResourceTemplates(ctx context.Context, ref MCPServerRef) ([]mcpgo.ResourceTemplate, error) {
	if err := w.mayUseMCP(ctx, ref.Agent, ref.Profile, ref.Server); err != nil {
		return nil, err
	}
	return w.MCP().ResourceTemplates(ctx, ref.Server, ref.Agent)
}

// ReadMCPResource reads a resource of a server agent may use; text is scrubbed.
func (w *Warren) ReadMCPResource(ctx context.Context, ref MCPServerRef, uri string) ([]mcpgo.ResourceContents, error) {
	if err := w.mayUseMCP(ctx, ref.Agent, ref.Profile, ref.Server); err != nil {
		return nil, err
	}
	contents, err := w.MCP().ReadResource(ctx, ref.Server, ref.Agent, uri)
	if err != nil {
		return nil, err
	}
	for i, c := range contents {
		if t, ok := mcpgo.AsTextResourceContents(c); ok {
			t.Text = w.Scrub(t.Text)
			contents[i] = *t
		}
	}
	return contents, nil
}

// MCPPrompts lists the prompts of a server agent may use.
func (w *Warren) MCPPrompts(ctx context.Context, ref MCPServerRef) ([]mcpgo.Prompt, error) {
	if err := w.mayUseMCP(ctx, ref.Agent, ref.Profile, ref.Server); err != nil {
		return nil, err
	}
	return w.MCP().Prompts(ctx, ref.Server, ref.Agent)
}

// GetMCPPrompt renders a prompt of a server agent may use; text is scrubbed.
func (w *Warren) GetMCPPrompt(ctx context.Context, ref MCPServerRef, name string, args map[string]string) (*mcpgo.GetPromptResult, error) {
	if err := w.mayUseMCP(ctx, ref.Agent, ref.Profile, ref.Server); err != nil {
		return nil, err
	}
	res, err := w.MCP().GetPrompt(ctx, ref.Server, ref.Agent, name, args)
	if err != nil {
		return nil, err
	}
	res.Description = w.Scrub(res.Description)
	for i, m := range res.Messages {
		switch c := m.Content.(type) {
		case mcpgo.TextContent:
			c.Text = w.Scrub(c.Text)
			res.Messages[i].Content = c
		case mcpgo.EmbeddedResource:
			if t, ok := mcpgo.AsTextResourceContents(c.Resource); ok {
				t.Text = w.Scrub(t.Text)
				c.Resource = *t
				res.Messages[i].Content = c
			}
		}
	}
	return res, nil
}
