package mcpconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// exported is one server in Claude Desktop's format. The field order is the
// output order; stdio servers carry no "type", as Claude Desktop writes them.
type exported struct {
	Command  string            `json:"command,omitempty"`
	Args     []string          `json:"args,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Cwd      string            `json:"cwd,omitempty"`
	Type     string            `json:"type,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Disabled bool              `json:"disabled,omitempty"`
}

// Export writes servers as a Claude Desktop config ({"mcpServers": {…}}),
// indented, with servers and keys in a stable order, so Parse reads back the
// same servers. Every server must pass Validate and names must be unique.
//
// Remote servers get an explicit "type" ("sse", or "http" as VS Code and
// Claude Code spell streamable HTTP) rather than relying on the URL. Disabled
// servers are written with "disabled": true; clients that do not know the
// field would start them, so callers exporting for such a client leave them out.
func Export(servers []Server) ([]byte, error) {
	out := make(map[string]exported, len(servers))
	for _, s := range servers {
		if err := Validate(s); err != nil {
			return nil, err
		}
		if _, dup := out[s.Name]; dup {
			return nil, fmt.Errorf("server %q: the name is used twice", s.Name)
		}
		e := exported{
			Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, Disabled: s.Disabled,
		}
		switch s.Transport {
		case TransportSSE:
			e.Type = "sse"
		case TransportStreamableHTTP:
			e.Type = "http"
		}
		out[s.Name] = e
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "&&" and "<" readable in args
	// encoding/json writes map keys sorted, which orders the servers.
	if err := enc.Encode(struct {
		MCPServers map[string]exported `json:"mcpServers"`
	}{out}); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return buf.Bytes(), nil
}
