package mcpconfig

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	stdio := Server{Name: "fs", Transport: TransportStdio, Command: "npx"}
	remote := Server{Name: "web", Transport: TransportStreamableHTTP, URL: "https://x.example/mcp"}
	with := func(s Server, edit func(*Server)) Server {
		edit(&s)
		return s
	}
	const charRule = "only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})"
	tests := []struct {
		name   string
		server Server
		want   string // "" when valid
	}{
		{"stdio", with(stdio, func(s *Server) {
			s.Args, s.Env, s.Cwd, s.Disabled = []string{"-y", ""}, map[string]string{"A": ""}, "/tmp", true
		}), ""},
		{"streamable-http", with(remote, func(s *Server) { s.Headers = map[string]string{"Authorization": "Bearer x\ty"} }), ""},
		{"sse", with(remote, func(s *Server) { s.Transport = TransportSSE }), ""},
		{"name with every allowed character", with(stdio, func(s *Server) { s.Name = "aZ09_-" }), ""},
		{"name of 40 characters", with(stdio, func(s *Server) { s.Name = strings.Repeat("a", 40) }), ""},

		{"empty name", with(stdio, func(s *Server) { s.Name = "" }), `server "": name is empty; use 1 to 40 letters, digits, '_' or '-'`},
		{"name of 41 characters", with(stdio, func(s *Server) { s.Name = strings.Repeat("a", 41) }),
			`server "` + strings.Repeat("a", 41) + `": name is 41 characters long; the limit is 40`},
		{"name with a dot", with(stdio, func(s *Server) { s.Name = "a.b" }), `server "a.b": name has '.' at character 2; ` + charRule},
		{"name with a space", with(stdio, func(s *Server) { s.Name = "my server" }), `server "my server": name has ' ' at character 3; ` + charRule},
		{"name with a colon", with(stdio, func(s *Server) { s.Name = "mcp:git" }), `server "mcp:git": name has ':' at character 4; ` + charRule},
		{"name with unicode", with(stdio, func(s *Server) { s.Name = "café" }), `server "café": name has 'é' at character 4; ` + charRule},
		{"name with invalid UTF-8", with(stdio, func(s *Server) { s.Name = "a\xff" }), `server "a\xff": name has '�' at character 2; ` + charRule},

		{"no transport", with(stdio, func(s *Server) { s.Transport = "" }), `server "fs": "transport" is empty; expected "stdio", "sse" or "streamable-http"`},
		{"unknown transport", with(stdio, func(s *Server) { s.Transport = "http" }), `server "fs": "transport" "http" is unknown; expected "stdio", "sse" or "streamable-http"`},

		{"stdio without command", with(stdio, func(s *Server) { s.Command = "" }), `server "fs": stdio servers need a "command"`},
		{"stdio with url", with(stdio, func(s *Server) { s.URL = "https://x.example" }), `server "fs": stdio servers have no "url" or "headers"`},
		{"stdio with headers", with(stdio, func(s *Server) { s.Headers = map[string]string{"A": "1"} }), `server "fs": stdio servers have no "url" or "headers"`},
		{"env name with NUL", with(stdio, func(s *Server) { s.Env = map[string]string{"A\x00": "1"} }), `server "fs": "env" variable "A\x00" has '=' or NUL in its name`},

		{"remote with command", with(remote, func(s *Server) { s.Command = "x" }), `server "web": streamable-http servers have no "command", "args", "env" or "cwd"`},
		{"remote with env", with(remote, func(s *Server) { s.Env = map[string]string{"A": "1"} }), `server "web": streamable-http servers have no "command", "args", "env" or "cwd"`},
		{"sse with cwd", with(remote, func(s *Server) { s.Transport, s.Cwd = TransportSSE, "/" }), `server "web": sse servers have no "command", "args", "env" or "cwd"`},
		{"remote without url", with(remote, func(s *Server) { s.URL = "" }), `server "web": streamable-http servers need a "url"`},
		{"url with a port and no host", with(remote, func(s *Server) { s.URL = "http://:8080/mcp" }), `server "web": "url" "http://:8080/mcp" has no host`},
		{"url with spaces", with(remote, func(s *Server) { s.URL = "https://x example/" }), `server "web": "url" is not a valid URL: parse "https://x example/": invalid character " " in host name`},
		{"header name empty", with(remote, func(s *Server) { s.Headers = map[string]string{"": "1"} }), `server "web": "headers" name "" is not a valid HTTP header name`},
		{"header name with a colon", with(remote, func(s *Server) { s.Headers = map[string]string{"A:": "1"} }), `server "web": "headers" name "A:" is not a valid HTTP header name`},
		{"header value with NUL", with(remote, func(s *Server) { s.Headers = map[string]string{"A": "\x00"} }), `server "web": "headers" value for "A" contains a control character`},
		{"header value with DEL", with(remote, func(s *Server) { s.Headers = map[string]string{"A": "\x7f"} }), `server "web": "headers" value for "A" contains a control character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Validate(tt.server)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("error:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestWarningString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		w    Warning
		want string
	}{
		{Warning{Message: "m"}, `server "": m`},
		{Warning{Server: "s", Message: "m"}, `server "s": m`},
		{Warning{Server: "s", Message: "m", Skipped: true}, `server "s": m (not imported)`},
	}
	for _, tt := range tests {
		if got := tt.w.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
