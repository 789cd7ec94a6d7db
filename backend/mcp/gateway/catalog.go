package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/warren-dev/warren/backend/warren"
)

// The pass-through servers' resources and prompts are served namespaced by
// server: a resource's URI becomes mcp://SERVER/ORIGINAL-URI and a prompt's
// name SERVER_NAME (its title and description say which server it is from).
// Reads and renders go through the core, which checks again that the
// agent may use the server and scrubs the text.

// resourcePrefix starts every pass-through resource URI.
const resourcePrefix = "mcp://"

// resourceURI namespaces a server's resource URI.
func resourceURI(srv, uri string) string { return resourcePrefix + srv + "/" + uri }

// splitResourceURI is the inverse of resourceURI.
func splitResourceURI(uri string) (srv, orig string, ok bool) {
	rest, ok := strings.CutPrefix(uri, resourcePrefix)
	if !ok {
		return "", "", false
	}
	srv, orig, ok = strings.Cut(rest, "/")
	return srv, orig, ok && srv != "" && orig != ""
}

// refreshCatalog serves the current resources and prompts of servers
// (the ones the gateway leased), replacing the old lists only when they
// changed, which tells clients with list_changed.
func (g *Gateway) refreshCatalog(ctx context.Context, servers []string) {
	var resources []server.ServerResource
	var templates []server.ServerResourceTemplate
	var prompts []server.ServerPrompt
	h := sha256.New()
	for _, srv := range servers {
		ref := g.serverRef(srv)
		ts, err := g.core.MCPResourceTemplates(ctx, ref)
		if err != nil {
			g.log.Warn("mcp gateway: resource templates not served", "server", srv, "err", g.core.Scrub(err.Error()))
		}
		for _, rt := range ts {
			if rt.URITemplate == nil || rt.URITemplate.Template == nil {
				continue
			}
			var tmpl mcp.URITemplate
			raw, _ := json.Marshal(resourceURI(srv, rt.URITemplate.Raw()))
			if err := tmpl.UnmarshalJSON(raw); err != nil {
				g.log.Warn("mcp gateway: a resource template is not served", "server", srv, "template", rt.URITemplate.Raw(), "err", err)
				continue
			}
			rt.URITemplate = &tmpl
			rt.Name = srv + ": " + rt.Name
			b, _ := json.Marshal(rt)
			h.Write(b)
			templates = append(templates, server.ServerResourceTemplate{Template: rt, Handler: g.readResource})
		}
		rs, err := g.core.MCPResources(ctx, ref)
		if err != nil {
			g.log.Warn("mcp gateway: resources not served", "server", srv, "err", g.core.Scrub(err.Error()))
		}
		for _, r := range rs {
			r.URI = resourceURI(srv, r.URI)
			r.Name = srv + ": " + r.Name
			b, _ := json.Marshal(r)
			h.Write(b)
			resources = append(resources, server.ServerResource{Resource: r, Handler: g.readResource})
		}
		ps, err := g.core.MCPPrompts(ctx, ref)
		if err != nil {
			g.log.Warn("mcp gateway: prompts not served", "server", srv, "err", g.core.Scrub(err.Error()))
		}
		for _, p := range ps {
			orig := p.Name
			p.Name = srv + "_" + orig
			p.Description = fmt.Sprintf("[MCP %s] %s", srv, p.Description)
			b, _ := json.Marshal(p)
			h.Write(b)
			prompts = append(prompts, server.ServerPrompt{Prompt: p, Handler: g.getPrompt(srv, orig)})
		}
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	g.catalogMu.Lock()
	defer g.catalogMu.Unlock()
	if sum == g.catalogSum {
		return
	}
	g.catalogSum = sum
	g.srv.SetResourceTemplates(append(templates, server.ServerResourceTemplate{
		// Any URI of a pass-through server reaches the core, which reads it
		// or says why the agent may not (an unlisted URI is not refused as
		// merely "not found").
		Template: mcp.NewResourceTemplate(resourcePrefix+"{server}/{+uri}", "MCP server resource",
			mcp.WithTemplateDescription("A resource of an MCP server Warren passes through: "+resourcePrefix+"SERVER/URI")),
		Handler: g.readResource,
	})...)
	g.srv.SetResources(resources...)
	g.srv.SetPrompts(prompts...)
}

// serverRef names a pass-through server as the served agent sees it.
func (g *Gateway) serverRef(srv string) warren.MCPServerRef {
	return warren.MCPServerRef{Agent: g.opts.Agent, Profile: g.opts.Profile, Server: srv}
}

// readResource reads a pass-through resource through the core.
func (g *Gateway) readResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	srv, orig, ok := splitResourceURI(req.Params.URI)
	if !ok {
		return nil, fmt.Errorf("resource %q: not a Warren pass-through URI (%sSERVER/URI)", req.Params.URI, resourcePrefix)
	}
	contents, err := g.core.ReadMCPResource(ctx, g.serverRef(srv), orig)
	if err != nil {
		return nil, fmt.Errorf("%s", g.core.Scrub(err.Error()))
	}
	for i, c := range contents {
		switch v := c.(type) {
		case *mcp.TextResourceContents:
			v.URI = resourceURI(srv, v.URI)
		case mcp.TextResourceContents:
			v.URI = resourceURI(srv, v.URI)
			contents[i] = v
		case *mcp.BlobResourceContents:
			v.URI = resourceURI(srv, v.URI)
		case mcp.BlobResourceContents:
			v.URI = resourceURI(srv, v.URI)
			contents[i] = v
		}
	}
	return contents, nil
}

// getPrompt renders a pass-through prompt through the core.
func (g *Gateway) getPrompt(srv, name string) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		res, err := g.core.GetMCPPrompt(ctx, g.serverRef(srv), name, req.Params.Arguments)
		if err != nil {
			return nil, fmt.Errorf("%s", g.core.Scrub(err.Error()))
		}
		return res, nil
	}
}
