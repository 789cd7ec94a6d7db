package mcpconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInspectDownloads(t *testing.T) {
	t.Parallel()
	local := t.TempDir()
	if err := os.MkdirAll(filepath.Join(local, "node_modules", "@scope", "srv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "node_modules", "@scope", "srv", "package.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command string
		args    []string
		cwd     string
		want    string // a substring of the reason; "" = no download
	}{
		{"npx -y", "npx", []string{"-y", "@modelcontextprotocol/server-everything", "stdio"}, "", "npx downloads the package @modelcontextprotocol/server-everything"},
		{"npx without -y still fetches", "npx", []string{"mcp-remote", "https://x/sse"}, "", "package mcp-remote"},
		{"npx --package=", "npx", []string{"--package=@m/srv", "srv-bin"}, "", "package @m/srv"},
		{"npx of a package installed in cwd", "npx", []string{"-y", "@scope/srv@1.2.0"}, local, ""},
		{"npx --no-install", "npx", []string{"--no-install", "srv"}, "", ""},
		{"npx.cmd on Windows", `C:\Program Files\nodejs\npx.cmd`, []string{"-y", "srv"}, "", "package srv"},
		{"cmd /c npx", "cmd", []string{"/c", "npx", "-y", "srv"}, "", "package srv"},
		{"npm exec", "npm", []string{"exec", "--yes", "srv"}, "", "package srv"},
		{"uvx", "uvx", []string{"mcp-server-fetch"}, "", "uvx downloads the Python package mcp-server-fetch"},
		{"uv tool run", "/usr/local/bin/uv", []string{"tool", "run", "mcp-server-time"}, "", "uv tool run downloads"},
		{"uv run is a local project", "uv", []string{"run", "mcp-obsidian"}, "", ""},
		{"bunx", "bunx", []string{"srv"}, "", "bunx downloads"},
		{"pnpm dlx", "pnpm", []string{"dlx", "srv"}, "", "pnpm dlx downloads the package srv"},
		{"yarn dlx", "yarn", []string{"dlx", "srv"}, "", "yarn dlx downloads"},
		{"pipx run", "pipx", []string{"run", "mcp-server-git"}, "", "pipx run downloads the Python package mcp-server-git"},
		{"deno with a URL", "deno", []string{"run", "-A", "https://example.com/srv.ts"}, "", "deno downloads https://example.com/srv.ts"},
		{"a local binary", "/usr/bin/mcp-server-everything", []string{"stdio"}, "", ""},
		{"node of a local file", "node", []string{"/srv/index.js"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Inspect(Server{Name: "s", Transport: TransportStdio, Command: tt.command, Args: tt.args, Cwd: tt.cwd}, InspectOptions{}).Downloads
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Fatalf("Downloads = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInspectNotes(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "srv")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	onPath := func(name string) (string, error) {
		if name == "npx" {
			return "/usr/bin/npx", nil
		}
		return "", errors.New("not found")
	}
	tests := []struct {
		name string
		srv  Server
		want []string
	}{
		{"installed command", Server{Transport: TransportStdio, Command: "npx", Args: []string{"-y", "x"}}, nil},
		{"missing command", Server{Transport: TransportStdio, Command: "uvx"}, []string{"the command uvx is not installed here (not found on PATH)"}},
		{"existing path", Server{Transport: TransportStdio, Command: bin}, nil},
		{"missing path", Server{Transport: TransportStdio, Command: "/opt/none/srv"}, []string{"the command /opt/none/srv does not exist on this machine"}},
		{"placeholders", Server{Transport: TransportStdio, Command: bin, Args: []string{"--root", "${workspaceFolder}/a", "${HOME}"},
			Env: map[string]string{"DB": "${env:HOME}/db"}},
			[]string{
				"args[1] has ${workspaceFolder}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import",
				"args[2] has ${HOME}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import",
				"env.DB has ${env:HOME}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import",
			}},
		{"placeholder command is not also missing", Server{Transport: TransportStdio, Command: "${userHome}/bin/x"},
			[]string{"command has ${userHome}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import"}},
		{"remote", Server{Transport: TransportStreamableHTTP, URL: "https://h/${env:TEAM}/mcp"},
			[]string{"url has ${env:TEAM}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import"}},
		{"input references have Parse's note", Server{Transport: TransportStdio, Command: "npx", Env: map[string]string{"K": "${input:key}"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Inspect(tt.srv, InspectOptions{LookPath: onPath}).Notes
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("Notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// VS Code's user settings.json keeps its servers under "mcp"; the other
// settings are not Parse's business.
func TestParseVSCodeSettings(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "vscode_settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	servers, warnings, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
		in := Inspect(s, InspectOptions{LookPath: func(string) (string, error) { return "", fs.ErrNotExist }})
		switch s.Name {
		case "notes":
			if in.Downloads != "" || len(in.Notes) != 2 {
				t.Errorf("notes: %+v", in)
			}
		case "time":
			if !strings.Contains(in.Downloads, "uvx") {
				t.Errorf("time: %+v", in)
			}
		case "memory":
			if !strings.Contains(in.Downloads, "@modelcontextprotocol/server-memory") || len(in.Notes) != 2 {
				t.Errorf("memory: %+v", in)
			}
		}
	}
	if strings.Join(names, ",") != "memory,notes,time" {
		t.Fatalf("servers %v", names)
	}
}

func TestKnownConfigs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	none := func(string) string { return "" }
	tests := []struct {
		opts PathOptions
		want []string
	}{
		{PathOptions{GOOS: "linux", Home: home, Getenv: none}, []string{
			filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"),
			filepath.Join(home, ".cursor", "mcp.json"),
			filepath.Join(home, ".config", "Code", "User", "mcp.json"),
			filepath.Join(home, ".config", "Code", "User", "settings.json"),
		}},
		{PathOptions{GOOS: "darwin", Home: home, Getenv: none}, []string{
			filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
			filepath.Join(home, ".cursor", "mcp.json"),
			filepath.Join(home, "Library", "Application Support", "Code", "User", "mcp.json"),
			filepath.Join(home, "Library", "Application Support", "Code", "User", "settings.json"),
		}},
		{PathOptions{GOOS: "windows", Home: home, Getenv: func(k string) string {
			if k == "APPDATA" {
				return filepath.Join(home, "AppData", "Roaming")
			}
			return ""
		}}, []string{
			filepath.Join(home, "AppData", "Roaming", "Claude", "claude_desktop_config.json"),
			filepath.Join(home, ".cursor", "mcp.json"),
			filepath.Join(home, "AppData", "Roaming", "Code", "User", "mcp.json"),
			filepath.Join(home, "AppData", "Roaming", "Code", "User", "settings.json"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.opts.GOOS, func(t *testing.T) {
			t.Parallel()
			got, err := KnownConfigs(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, k := range got {
				paths = append(paths, k.Path)
			}
			if strings.Join(paths, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(paths, "\n"), strings.Join(tt.want, "\n"))
			}
			if got[0].Client != ClientClaudeDesktop || got[1].Client != ClientCursor || got[2].Client != ClientVSCode {
				t.Fatalf("clients %+v", got)
			}
		})
	}
}
