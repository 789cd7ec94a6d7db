package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	core "github.com/warren-dev/warren/backend/warren"
)

// `mcp enable` on a server the window cannot connect retries it at once,
// and `mcp restart` restarts it in the window and reports how it came back.
func TestMCPRestartAndEnableRetry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flag := filepath.Join(t.TempDir(), "ready")
	script := "test -f " + flag + " || { echo 'waiting for the flag file' >&2; exit 3; }; exec " + everything(t) + " stdio"
	want(t, warren(t, dir, "mcp", "add", "flaky", "--", "sh", "-c", script), 0, "added MCP server flaky")
	want(t, warren(t, dir, "mcp", "restart", "flaky"), 0, "no Warren window is running MCP servers")
	want(t, warren(t, dir, "mcp", "restart", "nosuch"), 2, "nosuch")

	ctx := context.Background()
	window := startWindow(t, dir)

	// The window fails to connect and backs off (2 s, 4 s, … 60 s).
	waitCLI(t, dir, "the window's failing server", func(r run) bool {
		return strings.Contains(r.stdout, "reconnecting") && strings.Contains(r.stdout, "waiting for the flag file")
	}, "mcp", "list")
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := cliProcess(t, dir, "mcp", "enable", "flaky")
	want(t, r, 0, "enabled: flaky", "retries it if it had failed")
	waitCLI(t, dir, "the retried server connected", func(r run) bool { return strings.Contains(r.stdout, "connected") }, "mcp", "list")
	st, _ := window.MCP().Statuses(ctx)
	pid := st[0].PID

	r = cliProcess(t, dir, "mcp", "restart", "flaky")
	want(t, r, 0, "asked the Warren window (pid", "to restart flaky", "flaky: connected")
	if st, _ := window.MCP().Statuses(ctx); st[0].PID == pid {
		t.Fatalf("restart kept the old process %d", pid)
	}
}

// waitCLI runs a CLI command in its own process until ok or a deadline.
func waitCLI(t *testing.T, dir, what string, ok func(run) bool, args ...string) run {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := cliProcess(t, dir, args...)
		if ok(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("never saw %s:\n%s%s", what, r.stdout, r.stderr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// `mcp export FILE` over an existing Claude Desktop config keeps what
// Warren does not manage.
func TestMCPExportIntoExistingFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want(t, warren(t, dir, "mcp", "add", "fs", "--", "npx", "-y", "server-fs", "/new"), 0, "added MCP server fs")
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	existing := `{
  // set by hand
  "globalShortcut": "Alt+Space",
  "mcpServers": {
    "fs": {"command": "npx", "args": ["/old"], "autoApprove": ["read_file"]},
    "theirs": {"command": "their-server"}
  }
}
`
	if err := os.WriteFile(file, []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	want(t, warren(t, dir, "mcp", "export", file), 0, "updated (its other keys, servers and comments kept)")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"// set by hand", `"globalShortcut": "Alt+Space"`, `"autoApprove": [`, `"theirs": {"command": "their-server"}`, `"/new"`} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("export lost %q:\n%s", keep, data)
		}
	}
	if strings.Contains(string(data), `"/old"`) {
		t.Errorf("export kept the old args:\n%s", data)
	}
	if err := os.WriteFile(file, []byte(`["not", "a", "config"]`), 0o600); err != nil {
		t.Fatal(err)
	}
	want(t, warren(t, dir, "mcp", "export", file), 1, "not overwriting it")
}

// startWindow opens dir as the window does and runs its MCP servers until
// the test ends.
func startWindow(t *testing.T, dir string) *core.Warren {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	window, err := core.Open(ctx, core.Options{DataDir: dir})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = window.RunMCP(ctx) }()
	t.Cleanup(func() { cancel(); <-done; _ = window.Close() })
	return window
}
