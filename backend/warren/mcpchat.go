package warren

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// MCP resources and prompts in the chat: a resource becomes an attachment
// of the chat's agent, a prompt becomes text for the composer. Both go
// through the agent's access (mcpcatalog.go).

// AttachMCPResource reads a resource of a server the agent may use and
// attaches its first content (text or blob) to the agent's chat.
func (w *Warren) AttachMCPResource(ctx context.Context, ref MCPServerRef, uri string) (Attachment, error) {
	contents, err := w.ReadMCPResource(ctx, ref, uri)
	if err != nil {
		return Attachment{}, err
	}
	for _, c := range contents {
		if t, ok := mcpgo.AsTextResourceContents(c); ok {
			return w.Attach(ctx, ref.Agent, resourceFileName(t.URI, t.MIMEType), []byte(t.Text))
		}
		if b, ok := mcpgo.AsBlobResourceContents(c); ok {
			data, err := base64.StdEncoding.DecodeString(b.Blob)
			if err != nil {
				return Attachment{}, fmt.Errorf("resource %s: the blob is not base64: %w", b.URI, err)
			}
			return w.Attach(ctx, ref.Agent, resourceFileName(b.URI, b.MIMEType), data)
		}
	}
	return Attachment{}, errors.New("resource " + uri + " has no content")
}

// resourceFileName names an attached resource after its URI's last part.
func resourceFileName(uri, mime string) string {
	name := ""
	if u, err := url.Parse(uri); err == nil {
		name = path.Base(u.Path)
		if name == "/" || name == "." || name == "" {
			name = u.Host
		}
	}
	if name == "" {
		name = "resource"
	}
	if path.Ext(name) == "" {
		switch {
		case mime == "application/json":
			name += ".json"
		case strings.HasPrefix(mime, "text/markdown"):
			name += ".md"
		case strings.HasPrefix(mime, "text/"):
			name += ".txt"
		}
	}
	return name
}

// RenderMCPPrompt renders a prompt of a server the agent may use as the
// text the user's composer receives: the messages' text, one after another.
func (w *Warren) RenderMCPPrompt(ctx context.Context, ref MCPServerRef, name string, args map[string]string) (string, error) {
	res, err := w.GetMCPPrompt(ctx, ref, name, args)
	if err != nil {
		return "", err
	}
	parts := make([]string, 0, len(res.Messages))
	for _, m := range res.Messages {
		if t := PromptContentText(m.Content); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}

// PromptContentText is a prompt message's content as text: text as is, an
// embedded text resource's text, other content described.
func PromptContentText(c mcpgo.Content) string {
	switch c := c.(type) {
	case mcpgo.TextContent:
		return c.Text
	case mcpgo.EmbeddedResource:
		if t, ok := mcpgo.AsTextResourceContents(c.Resource); ok {
			return t.Text
		}
		if b, ok := mcpgo.AsBlobResourceContents(c.Resource); ok {
			return fmt.Sprintf("[resource %s: %s]", b.URI, b.MIMEType)
		}
	case mcpgo.ImageContent:
		return fmt.Sprintf("[%s image]", c.MIMEType)
	case mcpgo.AudioContent:
		return fmt.Sprintf("[%s audio]", c.MIMEType)
	case mcpgo.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", c.Name, c.URI)
	}
	return ""
}

// MCPChatPrompt is one prompt offered in an agent's chat composer.
type MCPChatPrompt struct {
	Server string       `json:"server"`
	Prompt mcpgo.Prompt `json:"prompt"`
}

// MCPChatPrompts lists the prompts of the running servers the agent may
// use; a server that fails to list them is left out (its status says why).
func (w *Warren) MCPChatPrompts(ctx context.Context, agent string) ([]MCPChatPrompt, error) {
	return eachMCPServer(ctx, w, agent, func(name string) ([]MCPChatPrompt, error) {
		prompts, err := w.MCP().Prompts(ctx, name, agent)
		out := make([]MCPChatPrompt, len(prompts))
		for i, p := range prompts {
			out[i] = MCPChatPrompt{Server: name, Prompt: p}
		}
		return out, err
	})
}

// eachMCPServer gathers list's items over the servers the agent may use,
// leaving out a server whose list fails.
func eachMCPServer[T any](ctx context.Context, w *Warren, agent string, list func(server string) ([]T, error)) ([]T, error) {
	names, err := w.mcpServersFor(ctx, MCPUse{Agent: agent})
	if err != nil {
		return nil, err
	}
	var out []T
	for _, name := range names {
		if items, err := list(name); err == nil {
			out = append(out, items...)
		}
	}
	return out, nil
}

// MCPChatResource is one resource offered for attaching in an agent's chat.
type MCPChatResource struct {
	Server   string         `json:"server"`
	Resource mcpgo.Resource `json:"resource"`
}

// MCPChatResources lists the resources of the running servers the agent
// may use; a server that fails to list them is left out.
func (w *Warren) MCPChatResources(ctx context.Context, agent string) ([]MCPChatResource, error) {
	return eachMCPServer(ctx, w, agent, func(name string) ([]MCPChatResource, error) {
		res, err := w.MCP().Resources(ctx, name, agent)
		out := make([]MCPChatResource, len(res))
		for i, r := range res {
			out[i] = MCPChatResource{Server: name, Resource: r}
		}
		return out, err
	})
}
