package mcpconfig

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var intoServers = []Server{
	{Name: "fs", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "server-fs", "/new"}},
	{Name: "web", Transport: TransportStreamableHTTP, URL: "https://x.example/mcp", Headers: map[string]string{"Authorization": "Bearer t"}},
}

// checkServers asserts that out parses and holds every exported server as
// Warren has it.
func checkServers(t *testing.T, out []byte, want []Server) []Server {
	t.Helper()
	got, _, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(ExportInto): %v\n%s", err, out)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			if g.Name == w.Name {
				found = true
				if !reflect.DeepEqual(g, w) {
					t.Errorf("server %s = %#v, want %#v\n%s", w.Name, g, w, out)
				}
			}
		}
		if !found {
			t.Errorf("server %s missing\n%s", w.Name, out)
		}
	}
	return got
}

func TestExportIntoKeepsWhatWarrenDoesNotManage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, existing string
		keep           []string // substrings that must survive
		gone           []string // substrings that must not
		servers        int      // servers Parse finds afterwards
	}{
		{"claude desktop", `{
  // my shortcut
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "server-fs", "/old"],
      "cwd": "/somewhere",
      "autoApprove": ["read_file"],
      "timeout": 60
    },
    /* a server only this client has */
    "other": { "command": "other-server" }
  },
  "theme": {"dark": true}
}
`, []string{`// my shortcut`, `"globalShortcut": "Ctrl+Space"`, `"autoApprove": [`, `"timeout": 60`, `/* a server only this client has */`,
			`"other": { "command": "other-server" }`, `"theme": {"dark": true}`, `"/new"`}, []string{`"/old"`, `"cwd"`}, 3},
		{"vs code mcp.json", `{
	// VS Code
	"inputs": [{"id": "tok", "type": "promptString"}],
	"servers": {
		"fs": {"type": "stdio", "command": "npx", "args": ["old"], "envFile": "${workspaceFolder}/.env"},
	},
}`, []string{`// VS Code`, `"inputs": [{"id": "tok", "type": "promptString"}]`, `"type": "stdio"`, `"envFile": "${workspaceFolder}/.env"`,
			"\t\t\"web\": {\n\t\t  \"type\": \"http\""}, []string{`"old"`}, 2},
		{"settings.json", `{"editor.fontSize": 14, "mcp": {"servers": {}}}`, []string{`"editor.fontSize": 14`, `"mcp": {`}, nil, 2},
		{"no servers yet", `{"globalShortcut": ""}`, []string{`"globalShortcut": ""`, `"mcpServers": {`}, nil, 2},
		{"empty object", `{}`, []string{`"mcpServers"`}, nil, 2},
		{"empty file", ``, []string{`"mcpServers"`}, nil, 2},
		{"transport that now disagrees", `{"mcpServers": {"web": {"transport": "sse", "url": "http://old/sse", "note": 1}}}`,
			[]string{`"note": 1`, `"type": "http"`}, []string{`"transport"`, `http://old`}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, err := ExportInto([]byte(c.existing), intoServers)
			if err != nil {
				t.Fatalf("ExportInto: %v", err)
			}
			for _, k := range c.keep {
				if !strings.Contains(string(out), k) {
					t.Errorf("lost %q:\n%s", k, out)
				}
			}
			for _, g := range c.gone {
				if strings.Contains(string(out), g) {
					t.Errorf("kept %q:\n%s", g, out)
				}
			}
			if got := checkServers(t, out, intoServers); len(got) != c.servers {
				t.Errorf("%d servers after export, want %d:\n%s", len(got), c.servers, out)
			}
			again, err := ExportInto(out, intoServers)
			if err != nil || string(again) != string(out) {
				t.Errorf("a second export changed the file (%v):\n%s\nthen\n%s", err, out, again)
			}
		})
	}
}

func TestExportIntoRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`[1]`, `"x"`, `{"a": `, `{"mcpServers": {"fs": }}`} {
		if out, err := ExportInto([]byte(in), intoServers); err == nil {
			t.Errorf("ExportInto(%q) = %s, want an error", in, out)
		}
	}
}

// FuzzExportInto: whatever the existing file holds, ExportInto does not
// panic, and when it writes, the result parses and holds Warren's servers.
func FuzzExportInto(f *testing.F) {
	f.Add([]byte(`{"globalShortcut": "x", "mcpServers": {"fs": {"command": "a", "z": 1}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := ExportInto(in, intoServers)
		if err != nil {
			return
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(stripJSONC(out), &top); err != nil {
			t.Fatalf("output is not JSON(C): %v\n%s", err, out)
		}
		checkServers(t, out, intoServers)
	})
}
