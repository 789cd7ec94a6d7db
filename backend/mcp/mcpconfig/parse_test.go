package mcpconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func warningStrings(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

// checkParse parses input and compares servers and warnings exactly.
func checkParse(t *testing.T, input string, want []Server, wantWarnings []string) {
	t.Helper()
	got, ws, err := Parse([]byte(input))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers:\n got %#v\nwant %#v", got, want)
	}
	if gotW := warningStrings(ws); !reflect.DeepEqual(gotW, wantWarnings) {
		t.Errorf("warnings:\n got %q\nwant %q", gotW, wantWarnings)
	}
}

func TestParseFormats(t *testing.T) {
	t.Parallel()
	stdio := func(name, cmd string, args ...string) Server {
		return Server{Name: name, Transport: TransportStdio, Command: cmd, Args: args}
	}
	remote := func(name, transport, url string) Server {
		return Server{Name: name, Transport: transport, URL: url}
	}
	tests := []struct {
		name     string
		input    string
		want     []Server
		warnings []string
	}{
		{
			name: "claude desktop stdio with every field",
			input: `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server-fs", "/tmp"],
				"env": {"DEBUG": "1", "EMPTY": ""}, "cwd": "/home/a"}}}`,
			want: []Server{{Name: "fs", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "server-fs", "/tmp"},
				Env: map[string]string{"DEBUG": "1", "EMPTY": ""}, Cwd: "/home/a"}},
		},
		{
			name:  "cursor url defaults to streamable-http",
			input: `{"mcpServers": {"c7": {"url": "https://mcp.context7.com/mcp", "headers": {"Authorization": "Bearer x"}}}}`,
			want: []Server{{Name: "c7", Transport: TransportStreamableHTTP, URL: "https://mcp.context7.com/mcp",
				Headers: map[string]string{"Authorization": "Bearer x"}}},
		},
		{
			name: "url path ending in /sse means sse",
			input: `{"mcpServers": {
				"a": {"url": "http://localhost:8000/sse"},
				"b": {"url": "http://localhost:8000/v1/sse/"},
				"c": {"url": "http://localhost:8000/sse?session=1"},
				"d": {"url": "http://localhost:8000/ssefoo"},
				"e": {"url": "http://sse.example.com/mcp"}}}`,
			want: []Server{
				remote("a", TransportSSE, "http://localhost:8000/sse"),
				remote("b", TransportSSE, "http://localhost:8000/v1/sse/"),
				remote("c", TransportSSE, "http://localhost:8000/sse?session=1"),
				remote("d", TransportStreamableHTTP, "http://localhost:8000/ssefoo"),
				remote("e", TransportStreamableHTTP, "http://sse.example.com/mcp"),
			},
		},
		{
			name: "type and transport spellings",
			input: `{"mcpServers": {
				"a": {"type": "sse", "url": "https://x.example/events"},
				"b": {"type": "http", "url": "https://x.example/sse"},
				"c": {"type": "streamable-http", "url": "https://x.example/mcp"},
				"d": {"type": "streamableHttp", "url": "https://x.example/mcp"},
				"e": {"transport": "SSE", "url": "https://x.example/mcp"},
				"f": {"type": "stdio", "command": "x"},
				"g": {"type": "http", "transport": "streamable_http", "url": "https://x.example/mcp"},
				"h": {"type": "", "url": "https://x.example/mcp"}}}`,
			want: []Server{
				remote("a", TransportSSE, "https://x.example/events"),
				remote("b", TransportStreamableHTTP, "https://x.example/sse"),
				remote("c", TransportStreamableHTTP, "https://x.example/mcp"),
				remote("d", TransportStreamableHTTP, "https://x.example/mcp"),
				remote("e", TransportSSE, "https://x.example/mcp"),
				stdio("f", "x"),
				remote("g", TransportStreamableHTTP, "https://x.example/mcp"),
				remote("h", TransportStreamableHTTP, "https://x.example/mcp"),
			},
		},
		{
			name:  "vscode servers",
			input: `{"servers": {"git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]}}}`,
			want:  []Server{stdio("git", "uvx", "mcp-server-git")},
		},
		{
			name: "vscode JSONC: comments and trailing commas",
			input: `{
				// line comment with "quotes" and a trailing comma,
				"servers": { /* block */
					"web": {"url": "https://x.example/a//b/*c*/", "type": "http",},
					"git": {"command": "uvx", "args": ["a // not a comment", "b",],},
				},
			}`,
			want: []Server{
				stdio("git", "uvx", "a // not a comment", "b"),
				remote("web", TransportStreamableHTTP, "https://x.example/a//b/*c*/"),
			},
		},
		{
			name: "vscode inputs are kept verbatim and reported",
			input: `{"inputs": [{"type": "promptString", "id": "key", "password": true}],
				"servers": {
				  "p": {"command": "npx", "args": ["--token", "${input:key}"], "env": {"A": "${input:key}", "B": "plain"}},
				  "r": {"url": "https://x.example/${input:tenant}/mcp", "headers": {"X-Key": "${input:key}"}},
				  "s": {"url": "https://${input:host}/mcp"}}}`,
			want: []Server{
				{Name: "p", Transport: TransportStdio, Command: "npx", Args: []string{"--token", "${input:key}"},
					Env: map[string]string{"A": "${input:key}", "B": "plain"}},
				{Name: "r", Transport: TransportStreamableHTTP, URL: "https://x.example/${input:tenant}/mcp",
					Headers: map[string]string{"X-Key": "${input:key}"}},
			},
			warnings: []string{
				`server "p": kept VS Code input references (${input:…}) as written in args[1], env.A; Warren does not prompt for them, so set the real values after import`,
				`server "r": kept VS Code input references (${input:…}) as written in url, headers.X-Key; Warren does not prompt for them, so set the real values after import`,
				`server "s": "url" is not a valid URL: parse "https://${input:host}/mcp": invalid port ":host}" after host; the server uses VS Code ${input:…} references, which Warren does not fill in (not imported)`,
			},
		},
		{
			name:  "disabled",
			input: `{"mcpServers": {"off": {"command": "x", "disabled": true}, "on": {"command": "y", "disabled": false}}}`,
			want:  []Server{{Name: "off", Transport: TransportStdio, Command: "x", Disabled: true}, stdio("on", "y")},
		},
		{
			name:  "null and empty fields read as absent",
			input: `{"mcpServers": {"x": {"command": "x", "args": [], "env": {}, "cwd": null, "url": null, "headers": null, "type": null, "disabled": null}}}`,
			want:  []Server{stdio("x", "x")},
		},
		{
			name:  "empty mcpServers",
			input: `{"mcpServers": {}}`,
		},
		{
			name:  "byte order mark",
			input: "\xef\xbb\xbf" + `{"mcpServers": {"x": {"command": "x"}}}`,
			want:  []Server{stdio("x", "x")},
		},
		{
			name:  "other top-level keys are ignored silently",
			input: `{"globalShortcut": "Alt+Space", "preferences": {"a": 1}, "mcpServers": {"x": {"command": "x"}}}`,
			want:  []Server{stdio("x", "x")},
		},
		{
			name:  "sorted by name",
			input: `{"mcpServers": {"zeta": {"command": "z"}, "Alpha": {"command": "a"}, "beta": {"command": "b"}, "_u": {"command": "u"}}}`,
			want:  []Server{stdio("Alpha", "a"), stdio("_u", "u"), stdio("beta", "b"), stdio("zeta", "z")},
		},
		{
			name:     "mcpServers and servers together merge, mcpServers wins",
			input:    `{"mcpServers": {"a": {"command": "from-mcpServers"}}, "servers": {"a": {"command": "from-servers"}, "b": {"command": "b"}}}`,
			want:     []Server{stdio("a", "from-mcpServers"), stdio("b", "b")},
			warnings: []string{`server "a": listed in both "mcpServers" and "servers"; kept the "mcpServers" entry`},
		},
		{
			name:  "html characters and unicode survive",
			input: `{"mcpServers": {"sh": {"command": "sh", "args": ["-c", "a && b < c > d"], "env": {"GREETING": "héllo ✓"}}}}`,
			want: []Server{{Name: "sh", Transport: TransportStdio, Command: "sh", Args: []string{"-c", "a && b < c > d"},
				Env: map[string]string{"GREETING": "héllo ✓"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkParse(t, tt.input, tt.want, tt.warnings)
		})
	}
}

// A bad server is a skipped Warning that names it and the field; the good
// server beside it ("ok") always imports.
func TestParseSkipsBadServers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		server string // the JSON of server "bad"
		want   string // its warning
	}{
		{"args not an array", `{"command": "x", "args": "-y"}`, `"args" must be an array of strings, got a string`},
		{"args item a number", `{"command": "x", "args": ["--port", 8080]}`, `"args" must be an array of strings, but item 1 is a number`},
		{"args item null", `{"command": "x", "args": [null]}`, `"args" must be an array of strings, but item 0 is null`},
		{"env an array", `{"command": "x", "env": ["A=1"]}`, `"env" must be an object of strings, got an array`},
		{"env value a number", `{"command": "x", "env": {"PORT": 8080}}`, `"env" must be an object of strings, but "PORT" is a number`},
		{"env value a boolean", `{"command": "x", "env": {"DEBUG": true}}`, `"env" must be an object of strings, but "DEBUG" is a boolean`},
		{"headers value an object", `{"url": "https://x.example", "headers": {"A": {}}}`, `"headers" must be an object of strings, but "A" is an object`},
		{"command a number", `{"command": 1}`, `"command" must be a string, got a number`},
		{"command an array", `{"command": ["npx", "-y"]}`, `"command" must be a string, got an array`},
		{"cwd a boolean", `{"command": "x", "cwd": true}`, `"cwd" must be a string, got a boolean`},
		{"url an object", `{"url": {}}`, `"url" must be a string, got an object`},
		{"disabled a string", `{"command": "x", "disabled": "true"}`, `"disabled" must be true or false, got a string`},
		{"type a number", `{"command": "x", "type": 1}`, `"type" must be a string, got a number`},
		{"type unknown", `{"url": "https://x.example", "type": "websocket"}`, `"type" "websocket" is unknown; expected "stdio", "sse", "http" or "streamable-http"`},
		{"transport unknown", `{"url": "https://x.example", "transport": "ws"}`, `"transport" "ws" is unknown; expected "stdio", "sse", "http" or "streamable-http"`},
		{"type and transport disagree", `{"url": "https://x.example", "type": "sse", "transport": "http"}`, `"type" and "transport" disagree ("sse" and "http")`},
		{"command and url", `{"command": "x", "url": "https://x.example"}`, `has both a "command" and a "url"; expected one`},
		{"neither command nor url", `{"args": ["x"]}`, `needs a "command" (stdio) or a "url" (sse, streamable-http)`},
		{"empty object", `{}`, `needs a "command" (stdio) or a "url" (sse, streamable-http)`},
		{"empty command", `{"command": ""}`, `needs a "command" (stdio) or a "url" (sse, streamable-http)`},
		{"blank command", `{"command": "  "}`, `stdio servers need a "command"`},
		{"server a string", `"npx -y server"`, `must be an object with a "command" or a "url", got a string`},
		{"server null", `null`, `must be an object with a "command" or a "url", got null`},
		{"server an array", `[]`, `must be an object with a "command" or a "url", got an array`},
		{"sse type with a command", `{"type": "sse", "command": "x"}`, `"type" is "sse", which needs a "url", but the server has a "command"`},
		{"stdio transport with a url", `{"transport": "stdio", "url": "https://x.example"}`, `"transport" is "stdio", which needs a "command", but the server has a "url"`},
		{"url not http", `{"url": "ftp://x.example/mcp"}`, `"url" "ftp://x.example/mcp" must start with http:// or https://`},
		{"url relative", `{"url": "localhost:8080/mcp"}`, `"url" "localhost:8080/mcp" must start with http:// or https://`},
		{"url without host", `{"url": "http:///mcp"}`, `"url" "http:///mcp" has no host`},
		{"url unparsable", `{"url": "http://[::1/mcp"}`, `"url" is not a valid URL: parse "http://[::1/mcp": missing ']' in host`},
		{"env name with =", `{"command": "x", "env": {"A=B": "1"}}`, `"env" variable "A=B" has '=' or NUL in its name`},
		{"env name empty", `{"command": "x", "env": {"": "1"}}`, `"env" has a variable with an empty name`},
		{"NUL in an arg", `{"command": "x", "args": ["a\u0000b"]}`, `"args" item 0 contains a NUL character`},
		{"NUL in the command", `{"command": "x\u0000"}`, `"command" contains a NUL character`},
		{"NUL in cwd", `{"command": "x", "cwd": "/a\u0000"}`, `"cwd" contains a NUL character`},
		{"NUL in an env value", `{"command": "x", "env": {"A": "\u0000"}}`, `"env" variable "A" contains a NUL character`},
		{"header name with a space", `{"url": "https://x.example", "headers": {"X Key": "1"}}`, `"headers" name "X Key" is not a valid HTTP header name`},
		{"header value with CRLF", `{"url": "https://x.example", "headers": {"A": "1\r\nB: 2"}}`, `"headers" value for "A" contains a control character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			input := `{"mcpServers": {"bad": ` + tt.server + `, "ok": {"command": "ok"}}}`
			checkParse(t, input,
				[]Server{{Name: "ok", Transport: TransportStdio, Command: "ok"}},
				[]string{`server "bad": ` + tt.want + ` (not imported)`})
		})
	}
}

func TestParseWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		input    string
		want     []Server
		warnings []string
	}{
		{
			name:     "unknown fields are listed and dropped",
			input:    `{"mcpServers": {"x": {"command": "x", "autoApprove": [], "alwaysAllow": ["a"], "Command": "y"}}}`,
			want:     []Server{{Name: "x", Transport: TransportStdio, Command: "x"}},
			warnings: []string{`server "x": ignored unknown fields "Command", "alwaysAllow", "autoApprove"`},
		},
		{
			name:     "one unknown field",
			input:    `{"servers": {"x": {"command": "x", "envFile": "${workspaceFolder}/.env"}}}`,
			want:     []Server{{Name: "x", Transport: TransportStdio, Command: "x"}},
			warnings: []string{`server "x": ignored unknown field "envFile"`},
		},
		{
			name:     "headers on a stdio server are dropped",
			input:    `{"mcpServers": {"x": {"command": "x", "headers": {"A": "1"}}}}`,
			want:     []Server{{Name: "x", Transport: TransportStdio, Command: "x"}},
			warnings: []string{`server "x": ignored "headers": only sse and streamable-http servers use them`},
		},
		{
			name:     "args, env and cwd on a url server are dropped",
			input:    `{"mcpServers": {"x": {"url": "https://x.example/mcp", "args": ["a"], "env": {"A": "1"}, "cwd": "/"}}}`,
			want:     []Server{{Name: "x", Transport: TransportStreamableHTTP, URL: "https://x.example/mcp"}},
			warnings: []string{`server "x": ignored "args", "env", "cwd": only stdio servers use them`},
		},
		{
			name:  "invalid names are renamed",
			input: `{"mcpServers": {"my server": {"command": "a"}, "github.com/org/repo": {"command": "b"}, "数据": {"command": "c"}, "": {"command": "d"}}}`,
			want: []Server{
				{Name: "__", Transport: TransportStdio, Command: "c"},
				{Name: "github_com_org_repo", Transport: TransportStdio, Command: "b"},
				{Name: "my_server", Transport: TransportStdio, Command: "a"},
				{Name: "server", Transport: TransportStdio, Command: "d"},
			},
			warnings: []string{
				`server "": renamed to "server": name is empty; use 1 to 40 letters, digits, '_' or '-'`,
				`server "github.com/org/repo": renamed to "github_com_org_repo": name has '.' at character 7; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
				`server "my server": renamed to "my_server": name has ' ' at character 3; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
				`server "数据": renamed to "__": name has '数' at character 1; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
			},
		},
		{
			name: "renaming never takes a valid name and breaks ties",
			// "a b" sorts before "a_b", yet "a_b" keeps its name.
			input: `{"mcpServers": {"a b": {"command": "1"}, "a_b": {"command": "2"}, "a.b": {"command": "3"}}}`,
			want: []Server{
				{Name: "a_b", Transport: TransportStdio, Command: "2"},
				{Name: "a_b_2", Transport: TransportStdio, Command: "1"},
				{Name: "a_b_3", Transport: TransportStdio, Command: "3"},
			},
			warnings: []string{
				`server "a b": renamed to "a_b_2": name has ' ' at character 2; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
				`server "a.b": renamed to "a_b_3": name has '.' at character 2; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
			},
		},
		{
			name:  "long names are cut to 40 characters",
			input: `{"mcpServers": {"` + strings.Repeat("x", 45) + `": {"command": "1"}, "` + strings.Repeat("x", 40) + `": {"command": "2"}}}`,
			want: []Server{
				{Name: strings.Repeat("x", 38) + "_2", Transport: TransportStdio, Command: "1"},
				{Name: strings.Repeat("x", 40), Transport: TransportStdio, Command: "2"},
			},
			warnings: []string{`server "` + strings.Repeat("x", 45) + `": renamed to "` + strings.Repeat("x", 38) + `_2": name is 45 characters long; the limit is 40`},
		},
		{
			name:     "a skipped server is not renamed",
			input:    `{"mcpServers": {"bad name": {"command": 1}}}`,
			warnings: []string{`server "bad name": "command" must be a string, got a number (not imported)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkParse(t, tt.input, tt.want, tt.warnings)
		})
	}
}

func TestParseFileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"invalid JSON", `{"mcpServers": {"a": }}`, `invalid JSON at line 1, column 22 (byte 21): invalid character '}' looking for beginning of value`},
		{"invalid JSON on a later line", "{\n  \"mcpServers\": {\n    \"é\": {\"command\" \"x\"}\n  }\n}", `invalid JSON at line 3, column 21 (byte 41): invalid character '"' after object key`},
		{"truncated", `{"mcpServers": {`, `invalid JSON at line 1, column 16 (byte 15): unexpected end of JSON input`},
		{"empty input", ``, `invalid JSON at line 1, column 1 (byte 0): unexpected end of JSON input`},
		{"trailing garbage", `{"mcpServers": {}} x`, `invalid JSON at line 1, column 20 (byte 19): invalid character 'x' after top-level value`},
		{"unterminated comment", `{"mcpServers": {}} /* x`, `invalid JSON at line 1, column 20 (byte 19): invalid character '/' after top-level value`},
		{"double comma", `{"mcpServers": {"a": {"command": "x"},,}}`, `invalid JSON at line 1, column 39 (byte 38): invalid character ',' looking for beginning of object key string`},
		{"top level an array", `[{"command": "x"}]`, `expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code), got an array`},
		{"top level null", `null`, `expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code), got null`},
		{"top level a string", `"x"`, `expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code), got a string`},
		{"empty object", `{}`, `expected a top-level "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code); the object is empty`},
		{
			"bare map of servers", `{"git": {"command": "uvx"}, "fs": {"command": "npx"}}`,
			`expected a top-level "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code); found "fs", "git" (a bare map of servers must be wrapped as {"mcpServers": {…}})`,
		},
		{
			"many unrelated keys", `{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1}`,
			`expected a top-level "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code); found "a", "b", "c", "d", "e" and 2 more (a bare map of servers must be wrapped as {"mcpServers": {…}})`,
		},
		{"mcpServers an array", `{"mcpServers": [{"command": "x"}]}`, `"mcpServers" must be an object of servers by name, got an array`},
		{"mcpServers null", `{"mcpServers": null}`, `"mcpServers" must be an object of servers by name, got null`},
		{"servers a string", `{"servers": "x"}`, `"servers" must be an object of servers by name, got a string`},
		{"good mcpServers, bad servers", `{"mcpServers": {}, "servers": 1}`, `"servers" must be an object of servers by name, got a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			servers, ws, err := Parse([]byte(tt.input))
			if err == nil {
				t.Fatalf("no error; servers %v, warnings %v", servers, ws)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
			if servers != nil || ws != nil {
				t.Errorf("servers %v and warnings %v returned with the error", servers, ws)
			}
		})
	}
}

func TestParseSyntaxErrorUnwraps(t *testing.T) {
	t.Parallel()
	_, _, err := Parse([]byte(`{"mcpServers": }`))
	if _, ok := errors.AsType[*json.SyntaxError](err); !ok {
		t.Fatalf("error %v does not wrap *json.SyntaxError", err)
	}
}

// The files in testdata are what users have on disk.
func TestParseTestdata(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file     string
		want     []Server
		warnings []string
	}{
		{
			file: "claude_desktop_config.json",
			want: []Server{
				{Name: "Sequential_Thinking", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-sequential-thinking"}},
				{Name: "brave-search", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-brave-search"},
					Env: map[string]string{"BRAVE_API_KEY": "<YOUR_API_KEY>"}},
				{Name: "filesystem", Transport: TransportStdio, Command: "npx",
					Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/alice/Desktop", "/Users/alice/Downloads"}},
				{Name: "github", Transport: TransportStdio, Command: "docker",
					Args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"},
					Env:  map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "<YOUR_TOKEN>"}},
				{Name: "linear", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "mcp-remote", "https://mcp.linear.app/sse"}},
				{Name: "obsidian", Transport: TransportStdio, Command: "/Users/alice/.local/bin/uv", Args: []string{"run", "mcp-obsidian"},
					Cwd: "/Users/alice/src/mcp-obsidian", Env: map[string]string{"OBSIDIAN_API_KEY": "<YOUR_API_KEY>", "OBSIDIAN_HOST": "127.0.0.1"}},
				{Name: "puppeteer", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-puppeteer"}, Disabled: true},
				{Name: "sqlite", Transport: TransportStdio, Command: "uvx", Args: []string{"mcp-server-sqlite", "--db-path", "/Users/alice/test.db"}},
			},
			warnings: []string{
				`server "Sequential Thinking": renamed to "Sequential_Thinking": name has ' ' at character 11; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`,
			},
		},
		{
			file: "vscode_mcp.json",
			want: []Server{
				{Name: "Perplexity", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "server-perplexity-ask"},
					Env: map[string]string{"PERPLEXITY_API_KEY": "${input:perplexity-key}"}},
				{Name: "fetch", Transport: TransportStdio, Command: "uvx", Args: []string{"mcp-server-fetch"}},
				{Name: "github", Transport: TransportStreamableHTTP, URL: "https://api.githubcopilot.com/mcp/"},
			},
			warnings: []string{
				`server "Perplexity": kept VS Code input references (${input:…}) as written in env.PERPLEXITY_API_KEY; Warren does not prompt for them, so set the real values after import`,
				`server "fetch": ignored unknown field "envFile"`,
			},
		},
		{
			file: "cursor_mcp.json",
			want: []Server{
				{Name: "context7", Transport: TransportStreamableHTTP, URL: "https://mcp.context7.com/mcp"},
				{Name: "legacy-sse", Transport: TransportSSE, URL: "https://example.com/events"},
				{Name: "local-events", Transport: TransportSSE, URL: "http://localhost:8000/sse"},
				{Name: "notion", Transport: TransportStreamableHTTP, URL: "https://mcp.notion.com/mcp",
					Headers: map[string]string{"Authorization": "Bearer <YOUR_TOKEN>"}},
				{Name: "stripe", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "@stripe/mcp", "--tools=all"},
					Env: map[string]string{"STRIPE_SECRET_KEY": "<YOUR_KEY>"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			checkParse(t, string(data), tt.want, tt.warnings)
			assertRoundTrip(t, tt.want)
		})
	}
}
