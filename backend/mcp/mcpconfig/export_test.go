package mcpconfig

import (
	"reflect"
	"strings"
	"testing"
)

// assertRoundTrip checks that Parse reads back exactly what Export wrote.
func assertRoundTrip(t *testing.T, servers []Server) {
	t.Helper()
	data, err := Export(servers)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	got, _, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse(Export): %v\n%s", err, data)
	}
	if !reflect.DeepEqual(got, servers) {
		t.Fatalf("round trip changed the servers:\n got %#v\nwant %#v\nexported:\n%s", got, servers, data)
	}
	again, err := Export(got)
	if err != nil {
		t.Fatalf("second Export: %v", err)
	}
	if string(again) != string(data) {
		t.Fatalf("Export is not stable:\n%s\nthen\n%s", data, again)
	}
}

func TestExport(t *testing.T) {
	t.Parallel()
	servers := []Server{
		{Name: "web", Transport: TransportStreamableHTTP, URL: "https://x.example/mcp", Headers: map[string]string{"X-B": "2", "Authorization": "Bearer t"}},
		{Name: "fs", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "server-fs", "a && b"},
			Env: map[string]string{"Z": "1", "A": "<2>"}, Cwd: "/tmp", Disabled: true},
		{Name: "events", Transport: TransportSSE, URL: "http://127.0.0.1:8000/events"},
		{Name: "bare", Transport: TransportStdio, Command: "bare"},
	}
	want := `{
  "mcpServers": {
    "bare": {
      "command": "bare"
    },
    "events": {
      "type": "sse",
      "url": "http://127.0.0.1:8000/events"
    },
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "server-fs",
        "a && b"
      ],
      "env": {
        "A": "<2>",
        "Z": "1"
      },
      "cwd": "/tmp",
      "disabled": true
    },
    "web": {
      "type": "http",
      "url": "https://x.example/mcp",
      "headers": {
        "Authorization": "Bearer t",
        "X-B": "2"
      }
    }
  }
}
`
	got, err := Export(servers)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	empty, err := Export(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(empty) != "{\n  \"mcpServers\": {}\n}\n" {
		t.Errorf("empty export %q", empty)
	}
}

func TestExportErrors(t *testing.T) {
	t.Parallel()
	ok := Server{Name: "ok", Transport: TransportStdio, Command: "x"}
	tests := []struct {
		name    string
		servers []Server
		want    string
	}{
		{"invalid name", []Server{ok, {Name: "a b", Transport: TransportStdio, Command: "x"}},
			`server "a b": name has ' ' at character 2; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})`},
		{"no transport", []Server{{Name: "x", Command: "x"}},
			`server "x": "transport" is empty; expected "stdio", "sse" or "streamable-http"`},
		{"duplicate name", []Server{ok, ok}, `server "ok": the name is used twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data, err := Export(tt.servers)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v (output %q), want %s", err, data, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		servers []Server
	}{
		{"none", nil},
		{"stdio with everything", []Server{{Name: "fs", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "", "\"quoted\"", "\\", "<&>"},
			Env: map[string]string{"A": "", "B": "ünïcode ✓\u2028"}, Cwd: `C:\Users\a b`, Disabled: true}}},
		// The declared type must survive URLs that would infer the other transport.
		{"streamable-http at /sse", []Server{{Name: "h", Transport: TransportStreamableHTTP, URL: "https://x.example/sse"}}},
		{"sse at /mcp", []Server{{Name: "s", Transport: TransportSSE, URL: "https://x.example/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}}},
		{"input references", []Server{{Name: "p", Transport: TransportStdio, Command: "npx", Env: map[string]string{"K": "${input:k}"}}}},
		{"longest name", []Server{{Name: strings.Repeat("n", MaxNameLength), Transport: TransportStdio, Command: "x"}}},
		{"many, sorted", []Server{
			{Name: "A", Transport: TransportStdio, Command: "a"},
			{Name: "b-2", Transport: TransportSSE, URL: "http://localhost:1/sse"},
			{Name: "c_3", Transport: TransportStreamableHTTP, URL: "http://[::1]:8080/mcp"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assertRoundTrip(t, tt.servers)
		})
	}
}
