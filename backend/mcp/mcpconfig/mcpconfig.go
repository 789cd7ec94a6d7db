// Package mcpconfig reads and writes the "mcpServers" JSON that Claude Desktop,
// Cursor and VS Code use to list MCP servers (issue 5 item 4, "Bring your own
// setup"), and finds Claude Desktop's config file.
//
// It only converts and checks. Storing servers, connecting to them and
// sealing their secrets belong to the MCP manager in backend/mcp, which
// imports this package and not the other way round.
package mcpconfig

import "fmt"

// Transports a Server can use; the values match backend/mcp's Transport.
const (
	TransportStdio          = "stdio"
	TransportSSE            = "sse"
	TransportStreamableHTTP = "streamable-http"
)

// MaxNameLength is the longest server name Validate accepts.
const MaxNameLength = 40

// Server is one MCP server as the config files describe it.
type Server struct {
	// Name is unique in a file and becomes part of tool names
	// (mcp_{name}_{tool}), hence the rules in Validate.
	Name string
	// Transport is TransportStdio, TransportSSE or TransportStreamableHTTP.
	Transport string

	// Command, Args, Env and Cwd start a stdio server.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// URL and Headers reach an sse or streamable-http server.
	URL     string
	Headers map[string]string

	// Disabled servers are listed but not started.
	Disabled bool
}

// Warning is something Parse worked around instead of failing the whole file.
type Warning struct {
	// Server is the server's name as written in the file (which may be "").
	Server string
	// Message names the field concerned, e.g. `"args" must be an array of strings`.
	Message string
	// Skipped is true when the server was left out of Parse's result.
	Skipped bool
}

// String renders w for a person: `server "git": "args" must be … (not imported)`.
func (w Warning) String() string {
	s := fmt.Sprintf("server %q: %s", w.Server, w.Message)
	if w.Skipped {
		s += " (not imported)"
	}
	return s
}
