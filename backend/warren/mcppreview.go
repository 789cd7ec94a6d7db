package warren

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
)

// MCPImportPreview is what importing one mcpServers document would store,
// server by server. Making it stores nothing and starts nothing.
type MCPImportPreview struct {
	// Client and Path say where a found config lives ("" for pasted text).
	Client string `json:"client,omitempty"`
	Path   string `json:"path,omitempty"`
	// Servers are sorted by name.
	Servers []MCPPreviewServer `json:"servers"`
	// Warnings are about the file: servers left out, renamed, fields ignored.
	Warnings []string `json:"warnings"`
	// Error says why a found config could not be read; it has no servers.
	Error string `json:"error,omitempty"`
}

// MCPPreviewServer is one server of a preview. Env and header values are
// never part of it: only their names.
type MCPPreviewServer struct {
	Name       string   `json:"name"`
	Transport  string   `json:"transport"`
	Command    string   `json:"command,omitempty"`
	Args       []string `json:"args"`
	Cwd        string   `json:"cwd,omitempty"`
	URL        string   `json:"url,omitempty"`
	EnvKeys    []string `json:"env_keys"`
	HeaderKeys []string `json:"header_keys"`
	// Downloads says why starting it fetches code first (`npx -y …`); "" when not.
	Downloads string `json:"downloads,omitempty"`
	// DisabledInFile: the file itself marks the server disabled.
	DisabledInFile bool `json:"disabled_in_file,omitempty"`
	// Exists: Warren has a server of that name; importing it replaces it.
	Exists bool `json:"exists"`
	// Enable is the suggested switch: off when it downloads code on start
	// or the file disables it, so nothing runs that the user did not see.
	Enable bool `json:"enable"`
	// Notes are what will not work as written: placeholders, a missing command.
	Notes []string `json:"notes"`
}

// PreviewMCPImport parses an mcpServers document (Claude Desktop, Cursor,
// VS Code) and reports each server as an import would store it.
func (w *Warren) PreviewMCPImport(ctx context.Context, data []byte) (MCPImportPreview, error) {
	servers, warnings, err := mcpconfig.Parse(data)
	if err != nil {
		return MCPImportPreview{}, err
	}
	p := MCPImportPreview{Servers: make([]MCPPreviewServer, 0, len(servers)), Warnings: []string{}}
	notes := map[string][]string{}
	for _, wn := range warnings {
		if !wn.Skipped && slices.ContainsFunc(servers, func(s mcpconfig.Server) bool { return s.Name == wn.Server }) {
			notes[wn.Server] = append(notes[wn.Server], wn.Message)
			continue
		}
		p.Warnings = append(p.Warnings, wn.String())
	}
	for _, s := range servers {
		_, err := w.MCP().Store().Get(ctx, s.Name)
		if err != nil && !errors.Is(err, mcp.ErrNotFound) {
			return MCPImportPreview{}, err
		}
		in := mcpconfig.Inspect(s, mcpconfig.InspectOptions{LookPath: exec.LookPath})
		p.Servers = append(p.Servers, MCPPreviewServer{
			Name: s.Name, Transport: s.Transport, Command: s.Command, Args: orEmpty(s.Args), Cwd: s.Cwd, URL: s.URL,
			EnvKeys: sortedKeys(s.Env), HeaderKeys: sortedKeys(s.Headers), Downloads: in.Downloads,
			DisabledInFile: s.Disabled, Exists: err == nil, Enable: !s.Disabled && in.Downloads == "",
			Notes: append(orEmpty(notes[s.Name]), in.Notes...),
		})
	}
	return p, nil
}

// FindMCPConfigs previews every Claude Desktop, Cursor and VS Code MCP
// config on this machine (mcpconfig.KnownConfigs) that has servers. A
// config that exists but cannot be read is listed with its Error.
func (w *Warren) FindMCPConfigs(ctx context.Context, opts mcpconfig.PathOptions) ([]MCPImportPreview, error) {
	known, err := mcpconfig.KnownConfigs(opts)
	if err != nil {
		return []MCPImportPreview{}, nil //nolint:nilerr // no home directory: nothing to find
	}
	out := []MCPImportPreview{}
	for _, k := range known {
		data, err := os.ReadFile(k.Path) //nolint:gosec // one of the well-known client config paths
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		p := MCPImportPreview{Client: k.Client, Path: k.Path, Servers: []MCPPreviewServer{}, Warnings: []string{}}
		if err == nil {
			var perr error
			if p, perr = w.PreviewMCPImport(ctx, data); perr != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				// VS Code's settings.json holds every setting: one without MCP servers is not a finding.
				if filepath.Base(k.Path) == "settings.json" {
					continue
				}
				p = MCPImportPreview{Servers: []MCPPreviewServer{}, Warnings: []string{}, Error: perr.Error()}
			}
			p.Client, p.Path = k.Client, k.Path
		} else {
			p.Error = fmt.Sprintf("cannot read it: %v", err)
		}
		if p.Error == "" && len(p.Servers) == 0 && len(p.Warnings) == 0 {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// readKnownMCPConfig reads path only when it is one of the known config
// locations: the UI names a file by path, and no other file may be read
// through that door.
func readKnownMCPConfig(opts mcpconfig.PathOptions, path string) (mcpconfig.KnownConfig, []byte, error) {
	known, err := mcpconfig.KnownConfigs(opts)
	if err != nil {
		return mcpconfig.KnownConfig{}, nil, err
	}
	for _, k := range known {
		if k.Path == path {
			data, err := os.ReadFile(path) //nolint:gosec // one of the well-known client config paths
			if err != nil {
				return k, nil, fmt.Errorf("read %s's config: %w", k.Client, err)
			}
			return k, data, nil
		}
	}
	return mcpconfig.KnownConfig{}, nil, fmt.Errorf("%s is not a Claude Desktop, Cursor or VS Code MCP config", path)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
