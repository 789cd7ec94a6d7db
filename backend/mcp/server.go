// Package mcp is Warren's MCP manager (issue 5, seed §10): servers stored in
// SQLite, connections over stdio, SSE and streamable HTTP that Warren owns
// and watches, their tools bridged into the tool registry as
// mcp_{server}_{tool}, and per-agent/per-user grants with access requests.
package mcp

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
)

// Transport is how Warren talks to a server.
type Transport string

// Transports (seed §10).
const (
	TransportStdio Transport = mcpconfig.TransportStdio
	TransportSSE   Transport = mcpconfig.TransportSSE
	TransportHTTP  Transport = mcpconfig.TransportStreamableHTTP
)

// Defaults for a server's timeouts.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultCallTimeout    = 2 * time.Minute
)

// Server is one configured MCP server. Env and header values are write-only:
// reads return their keys (EnvKeys, HeaderKeys) and never the values.
type Server struct {
	Name      string            `json:"name"`
	Transport Transport         `json:"transport"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Enabled   bool              `json:"enabled"`
	// ToolPrefix replaces the server name inside tool names (mcp_{prefix}_{tool}).
	ToolPrefix     string        `json:"tool_prefix,omitempty"`
	ConnectTimeout time.Duration `json:"connect_timeout_ns,omitempty"`
	CallTimeout    time.Duration `json:"call_timeout_ns,omitempty"`
	// ToolDeny lists the server's tools switched off for every agent.
	ToolDeny []string `json:"tool_deny,omitempty"`
	// Restricted servers are usable only by agents/users with an enabled grant.
	Restricted bool `json:"restricted"`
	// Deferred servers' tools hide behind tool_search.
	Deferred bool `json:"deferred"`
	// Sandboxed stdio servers run inside a Podman container.
	Sandboxed      bool `json:"sandboxed"`
	SandboxNetwork bool `json:"sandbox_network"`

	// EnvKeys and HeaderKeys name the stored (sealed) values; read-only.
	EnvKeys    []string `json:"env_keys,omitempty"`
	HeaderKeys []string `json:"header_keys,omitempty"`

	// sealed is the stored (sealed) env and headers as read, so a running
	// server notices a secret's value changing under the same key.
	sealed string
}

// ValidateName checks a server name or tool prefix (what names "what" in
// the message): it becomes part of tool names, which models accept only
// from a small alphabet.
func ValidateName(what, name string) error {
	if err := mcpconfig.ValidateName(name); err != nil {
		return fmt.Errorf("%s %q: %w", what, name, err)
	}
	return nil
}

// Validate reports the first problem with s, naming the field.
func (s Server) Validate() error {
	if err := ValidateName("server name", s.Name); err != nil {
		return err
	}
	if s.ToolPrefix != "" {
		if err := ValidateName("tool prefix", s.ToolPrefix); err != nil {
			return err
		}
	}
	switch s.Transport {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			return fmt.Errorf("server %q: a stdio server needs a command", s.Name)
		}
		if s.URL != "" {
			return fmt.Errorf("server %q: a stdio server has no url (did you mean --transport http?)", s.Name)
		}
	case TransportSSE, TransportHTTP:
		if s.Command != "" {
			return fmt.Errorf("server %q: an %s server has no command", s.Name, s.Transport)
		}
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("server %q: url %q must be an http:// or https:// address", s.Name, s.URL)
		}
		if s.Sandboxed {
			return fmt.Errorf("server %q: only stdio servers can run in the sandbox", s.Name)
		}
	case "":
		return fmt.Errorf("server %q: transport is empty (stdio, sse or streamable-http)", s.Name)
	default:
		return fmt.Errorf("server %q: unknown transport %q (stdio, sse or streamable-http)", s.Name, s.Transport)
	}
	for k := range s.Env {
		if err := validEnvName(k); err != nil {
			return fmt.Errorf("server %q: %w", s.Name, err)
		}
	}
	for k := range s.Headers {
		if err := validHeaderName(k); err != nil {
			return fmt.Errorf("server %q: %w", s.Name, err)
		}
	}
	if s.ConnectTimeout < 0 || s.CallTimeout < 0 {
		return fmt.Errorf("server %q: timeouts must be positive", s.Name)
	}
	// The rest of what an mcpServers file may hold (header names that are
	// HTTP tokens, no NUL anywhere): a server saved here always exports.
	// An empty value deletes a stored one (MergeSecrets): not part of it.
	return mcpconfig.Validate(s.Config(nonEmpty(s.Env), nonEmpty(s.Headers)))
}

func nonEmpty(m map[string]string) map[string]string {
	out := maps.Clone(m)
	maps.DeleteFunc(out, func(_, v string) bool { return v == "" })
	return out
}

// Config is the server as an mcpServers entry, with the given (plain)
// env and header values.
func (s Server) Config(env, headers map[string]string) mcpconfig.Server {
	return mcpconfig.Server{Name: s.Name, Transport: string(s.Transport), Command: s.Command, Args: s.Args, Env: env,
		Cwd: s.Cwd, URL: s.URL, Headers: headers, Disabled: !s.Enabled}
}

func validEnvName(k string) error {
	if k == "" || strings.ContainsAny(k, "=\x00") {
		return fmt.Errorf("env name %q is invalid", k)
	}
	return nil
}

func validHeaderName(k string) error {
	if k == "" || strings.ContainsAny(k, ": \r\n") {
		return fmt.Errorf("header name %q is invalid", k)
	}
	return nil
}

// Prefix is the server's part of its tool names (mcp_{prefix}_{tool}).
func (s Server) Prefix() string {
	if s.ToolPrefix != "" {
		return s.ToolPrefix
	}
	return s.Name
}

func (s Server) connectTimeout() time.Duration {
	if s.ConnectTimeout > 0 {
		return s.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (s Server) callTimeout() time.Duration {
	if s.CallTimeout > 0 {
		return s.CallTimeout
	}
	return DefaultCallTimeout
}

// toolNameRE is what model APIs accept as a function name.
var toolNameBad = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// ToolName is the registry name of a server's tool: mcp_{prefix}_{tool},
// with characters models reject replaced and the length capped at 64.
func ToolName(prefix, tool string) string {
	name := "mcp_" + prefix + "_" + toolNameBad.ReplaceAllString(tool, "_")
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}
