package app

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/warren"
)

// EventMCPElicitation carries a server's question to the user
// (warren.ElicitationRequest) and its resolution (warren.ElicitationAnswer).
const EventMCPElicitation = "mcp:elicitation"

// MCPResourceList is a server's resources and resource templates.
type MCPResourceList struct {
	Resources []mcpgo.Resource         `json:"resources"`
	Templates []mcpgo.ResourceTemplate `json:"templates"`
}

// MCPResources lists a server's resources as agent may use them.
func (a *App) MCPResources(server, agent string) (MCPResourceList, error) {
	ref := warren.MCPServerRef{Agent: agent, Server: server}
	out := MCPResourceList{Resources: []mcpgo.Resource{}, Templates: []mcpgo.ResourceTemplate{}}
	res, err := a.core.MCPResources(a.context(), ref)
	if err != nil {
		return out, err
	}
	tpl, err := a.core.MCPResourceTemplates(a.context(), ref)
	if err != nil {
		return out, err
	}
	if res != nil {
		out.Resources = res
	}
	if tpl != nil {
		out.Templates = tpl
	}
	return out, nil
}

// MCPResourceContent is a read resource, for a preview.
type MCPResourceContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mime_type,omitempty"`
	Text     string `json:"text,omitempty"`
	// BlobSize is the base64 length of binary content (not shown).
	BlobSize int `json:"blob_size,omitempty"`
}

// ReadMCPResource reads a resource as agent may.
func (a *App) ReadMCPResource(server, agent, uri string) ([]MCPResourceContent, error) {
	contents, err := a.core.ReadMCPResource(a.context(), warren.MCPServerRef{Agent: agent, Server: server}, uri)
	out := []MCPResourceContent{}
	for _, c := range contents {
		if t, ok := mcpgo.AsTextResourceContents(c); ok {
			out = append(out, MCPResourceContent{URI: t.URI, MIMEType: t.MIMEType, Text: t.Text})
		} else if b, ok := mcpgo.AsBlobResourceContents(c); ok {
			out = append(out, MCPResourceContent{URI: b.URI, MIMEType: b.MIMEType, BlobSize: len(b.Blob)})
		}
	}
	return out, err
}

// AttachMCPResource attaches a resource to agent's chat (into its workspace).
func (a *App) AttachMCPResource(server, agent, uri string) (warren.Attachment, error) {
	return a.core.AttachMCPResource(a.context(), warren.MCPServerRef{Agent: agent, Server: server}, uri)
}

// MCPChatPrompts lists the prompts the chat composer offers for agent.
func (a *App) MCPChatPrompts(agent string) ([]warren.MCPChatPrompt, error) {
	out, err := a.core.MCPChatPrompts(a.context(), agent)
	if out == nil {
		out = []warren.MCPChatPrompt{}
	}
	return out, err
}

// RenderMCPPrompt renders a prompt into the text the composer receives.
func (a *App) RenderMCPPrompt(server, agent, name string, args map[string]string) (string, error) {
	return a.core.RenderMCPPrompt(a.context(), warren.MCPServerRef{Agent: agent, Server: server}, name, args)
}

// PendingElicitations are the servers' questions waiting for the user.
func (a *App) PendingElicitations() []warren.ElicitationRequest {
	return a.core.PendingElicitations()
}

// AnswerElicitation answers one: action accept (with content), decline or cancel.
func (a *App) AnswerElicitation(ans warren.ElicitationAnswer) (bool, error) {
	return a.core.AnswerElicitation(ans)
}

// MCPChatResources lists the resources the chat offers to attach for agent.
func (a *App) MCPChatResources(agent string) ([]warren.MCPChatResource, error) {
	out, err := a.core.MCPChatResources(a.context(), agent)
	if out == nil {
		out = []warren.MCPChatResource{}
	}
	return out, err
}
