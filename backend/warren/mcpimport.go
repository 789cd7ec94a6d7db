package warren

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
)

// MCPImportReport says what an import did, server by server.
type MCPImportReport struct {
	Added    []string `json:"added"`
	Replaced []string `json:"replaced"`
	// Skipped servers already exist (import again with replace to overwrite).
	Skipped []string `json:"skipped"`
	// Disabled are imported servers stored switched off: the user left
	// them off, the file disables them, or they download code on start.
	Disabled []string `json:"disabled"`
	Warnings []string `json:"warnings"`
}

// MCPImportChoice is one server the user chose to import, and whether
// Warren runs it.
type MCPImportChoice struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// MCPImportRequest imports the chosen servers of a document: pasted Text,
// or the known config at Path (see FindMCPConfigs).
type MCPImportRequest struct {
	Text string `json:"text,omitempty"`
	Path string `json:"path,omitempty"`
	// Servers are the ones to import; a name Warren has already is replaced.
	Servers []MCPImportChoice `json:"servers"`
	// Offer adds each imported server to the policy's also-allow list, so
	// agents are offered its tools.
	Offer bool `json:"offer"`
}

// ImportMCPServers reads an mcpServers JSON document (Claude Desktop,
// Cursor, VS Code) and stores its servers, each switched on as its preview
// suggests: a server that downloads code when it starts is stored disabled
// (see MCPPreviewServer.Enable). Existing servers are kept unless replace
// is set; problems with one server never lose the others.
func (w *Warren) ImportMCPServers(ctx context.Context, data []byte, replace bool) (MCPImportReport, error) {
	p, err := w.PreviewMCPImport(ctx, data)
	if err != nil {
		return MCPImportReport{}, err
	}
	var choices []MCPImportChoice
	var skipped []string
	for _, s := range p.Servers {
		if s.Exists && !replace {
			skipped = append(skipped, s.Name)
			continue
		}
		choices = append(choices, MCPImportChoice{Name: s.Name, Enabled: s.Enable})
	}
	rep, err := w.importMCPChoices(ctx, data, choices, false)
	rep.Skipped = append(rep.Skipped, skipped...)
	return rep, err
}

// ImportMCPSelection imports exactly the chosen servers of a pasted
// document or a known config file, each enabled or not as chosen; a chosen
// name Warren has already is replaced. Importing Claude Desktop's config
// answers the first-run offer.
func (w *Warren) ImportMCPSelection(ctx context.Context, req MCPImportRequest, opts mcpconfig.PathOptions) (MCPImportReport, error) {
	data := []byte(req.Text)
	var from mcpconfig.KnownConfig
	switch {
	case req.Path != "" && req.Text != "":
		return MCPImportReport{}, errors.New("import from pasted text or from a file, not both")
	case req.Path != "":
		var err error
		if from, data, err = readKnownMCPConfig(opts, req.Path); err != nil {
			return MCPImportReport{}, err
		}
	}
	rep, err := w.importMCPChoices(ctx, data, req.Servers, req.Offer)
	if err != nil {
		return rep, err
	}
	if from.Client == mcpconfig.ClientClaudeDesktop {
		return rep, w.db.SetSetting(ctx, settingClaudeOffer, "imported")
	}
	return rep, nil
}

// importMCPChoices stores the chosen servers of data, replacing existing
// ones, and applies them.
func (w *Warren) importMCPChoices(ctx context.Context, data []byte, choices []MCPImportChoice, offer bool) (MCPImportReport, error) {
	rep := MCPImportReport{Added: []string{}, Replaced: []string{}, Skipped: []string{}, Disabled: []string{}, Warnings: []string{}}
	servers, warnings, err := mcpconfig.Parse(data)
	if err != nil {
		return rep, err
	}
	for _, wn := range warnings {
		rep.Warnings = append(rep.Warnings, wn.String())
	}
	store := w.MCP().Store()
	for _, c := range choices {
		i := slices.IndexFunc(servers, func(s mcpconfig.Server) bool { return s.Name == c.Name })
		if i < 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("server %q is not in the file (not imported)", c.Name))
			continue
		}
		s := servers[i]
		_, err := store.Get(ctx, s.Name)
		exists := err == nil
		if err != nil && !errors.Is(err, mcp.ErrNotFound) {
			return rep, err
		}
		srv := mcp.Server{
			Name: s.Name, Transport: mcp.Transport(s.Transport), Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, Enabled: c.Enabled,
		}
		if err := store.Save(ctx, srv, mcp.ReplaceSecrets); err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("server %q: %v (not imported)", s.Name, err))
			continue
		}
		if exists {
			rep.Replaced = append(rep.Replaced, s.Name)
		} else {
			rep.Added = append(rep.Added, s.Name)
		}
		if !c.Enabled {
			rep.Disabled = append(rep.Disabled, s.Name)
		}
		if offer {
			if err := w.SetAlsoAllow(ctx, mcpAlsoAllowEntry(s.Name), true); err != nil {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("server %q: imported, but its tools could not be offered to agents: %v", s.Name, err))
			}
		}
	}
	return rep, w.reloadMCP(ctx, true)
}

// ExportMCPServers writes every server as a Claude Desktop mcpServers
// document. It contains the decrypted env and header values: the caller
// must tell the user the file holds secrets.
func (w *Warren) ExportMCPServers(ctx context.Context) ([]byte, error) {
	return w.ExportMCPServersInto(ctx, nil)
}

// ExportMCPServersInto writes every server into an existing config file's
// text (Claude Desktop, Cursor, VS Code), keeping what Warren does not
// manage: other keys, other servers, comments (see mcpconfig.ExportInto).
func (w *Warren) ExportMCPServersInto(ctx context.Context, existing []byte) ([]byte, error) {
	store := w.MCP().Store()
	list, err := store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]mcpconfig.Server, 0, len(list))
	for _, s := range list {
		env, headers, err := store.Secrets(ctx, s.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, s.Config(env, headers))
	}
	return mcpconfig.ExportInto(existing, out)
}

// settingClaudeOffer remembers that the user answered the first-run offer.
const settingClaudeOffer = "mcp.claude_desktop_offer"

// ClaudeDesktopOffer is the first-run offer to import Claude Desktop's servers.
type ClaudeDesktopOffer struct {
	Path string `json:"path"`
	// Servers are the names not yet in Warren.
	Servers []string `json:"servers"`
}

// ClaudeDesktopImportOffer returns the offer when Claude Desktop's config
// exists, has servers Warren lacks, and the user has not dismissed it; nil
// otherwise.
func (w *Warren) ClaudeDesktopImportOffer(ctx context.Context, opts mcpconfig.PathOptions) (*ClaudeDesktopOffer, error) {
	if _, answered, err := w.db.GetSetting(ctx, settingClaudeOffer); err != nil || answered {
		return nil, err
	}
	path, err := mcpconfig.ClaudeDesktopConfigPath(opts)
	if err != nil {
		return nil, nil //nolint:nilerr // no home directory: nothing to offer
	}
	data, err := os.ReadFile(path) //nolint:gosec // the well-known Claude Desktop config path
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	servers, _, err := mcpconfig.Parse(data)
	if err != nil {
		return nil, nil //nolint:nilerr // an unreadable file is not worth a first-run prompt
	}
	offer := &ClaudeDesktopOffer{Path: path}
	for _, s := range servers {
		if _, err := w.MCP().Store().Get(ctx, s.Name); errors.Is(err, mcp.ErrNotFound) {
			offer.Servers = append(offer.Servers, s.Name)
		}
	}
	if len(offer.Servers) == 0 {
		return nil, nil
	}
	return offer, nil
}

// AnswerClaudeDesktopOffer imports (accept) or dismisses the offer; either
// way it is not shown again. Accepting imports every server Warren lacks as
// its preview suggests: those that download code on start stay disabled.
func (w *Warren) AnswerClaudeDesktopOffer(ctx context.Context, accept bool, opts mcpconfig.PathOptions) (MCPImportReport, error) {
	var rep MCPImportReport
	if accept {
		path, err := mcpconfig.ClaudeDesktopConfigPath(opts)
		if err != nil {
			return rep, err
		}
		data, err := os.ReadFile(path) //nolint:gosec // the well-known Claude Desktop config path
		if err != nil {
			return rep, fmt.Errorf("read %s: %w", path, err)
		}
		if rep, err = w.ImportMCPServers(ctx, data, false); err != nil {
			return rep, err
		}
	}
	answer := "dismissed"
	if accept {
		answer = "imported"
	}
	return rep, w.db.SetSetting(ctx, settingClaudeOffer, answer)
}
