package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/app/cli"
	"github.com/warren-dev/warren/tools"
)

func everything(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../backend/mcp/testdata/servers/node_modules/.bin/mcp-server-everything")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal("server-everything is not installed: run ./scripts/bootstrap.sh")
	}
	return p
}

func want(t *testing.T, r run, code int, in ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range in {
		if !strings.Contains(r.stdout+r.stderr, s) {
			t.Fatalf("output lacks %q\nstdout: %s\nstderr: %s", s, r.stdout, r.stderr)
		}
	}
}

func TestMCPCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := everything(t)

	want(t, warren(t, dir, "mcp", "list"), 0, "no MCP servers")
	want(t, warren(t, dir, "mcp", "add", "ev", "--offer=false", "--env", "GREETING=hi", "--", bin, "stdio"), 0, "added MCP server ev", "also-allow group:mcp:ev")
	want(t, warren(t, dir, "mcp", "add", "ev", "--", bin, "stdio"), 2, "already exists")
	want(t, warren(t, dir, "mcp", "add", "EV", "--", bin, "stdio"), 2, `MCP server name "EV": name taken by server "ev"`)
	want(t, warren(t, dir, "mcp", "add", "EV", "--replace", "--", bin, "stdio"), 2, `name taken by server "ev"`)
	want(t, warren(t, dir, "mcp", "list"), 0, "ev", "stdio", "stopped")
	want(t, warren(t, dir, "mcp", "test", "ev"), 0, "connected to", "tools", "echo")
	want(t, warren(t, dir, "mcp", "tools", "ev"), 0, "mcp_ev_get-sum", "REGISTERED AS")
	want(t, warren(t, dir, "mcp", "tools", "ev", "--off", "get-env"), 0, "ev/get-env: off")
	r := warren(t, dir, "mcp", "tools", "ev", "--json")
	want(t, r, 0)
	var listed []struct {
		Name    string `json:"name"`
		Enabled bool   `json:"enabled"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil {
		t.Fatal(err)
	}
	for _, tool := range listed {
		if tool.Enabled == (tool.Name == "get-env") {
			t.Fatalf("%s enabled=%v after switching get-env off", tool.Name, tool.Enabled)
		}
	}
	want(t, warren(t, dir, "mcp", "logs", "ev"), 0, "warren: starting ev")

	// Tools are offered once the profile allows the server's group.
	want(t, warren(t, dir, "tool", "call", "mcp_ev_get-sum", `{"a":1,"b":2}`), 1, "PolicyDenied")
	want(t, warren(t, dir, "policy", "also-allow", "group:mcp:ev"), 0, "group:mcp:ev")
	want(t, warren(t, dir, "tool", "call", "mcp_ev_get-sum", `{"a":1,"b":2}`), 0, "3")
	want(t, warren(t, dir, "tools"), 0, "mcp_ev_echo")

	// Export, then import into a fresh data directory.
	out := filepath.Join(t.TempDir(), "servers.json")
	want(t, warren(t, dir, "mcp", "export", out), 0, "contains the servers' env")
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), `"GREETING": "hi"`) {
		t.Fatalf("export = %s, %v", data, err)
	}
	other := t.TempDir()
	want(t, warren(t, other, "mcp", "import", out), 0, "1 added [ev]")
	want(t, warren(t, other, "mcp", "import", out), 0, "1 skipped [ev]", "--replace")
	want(t, warren(t, other, "mcp", "import", out, "--replace"), 0, "1 replaced [ev]")

	// Grants and access requests.
	want(t, warren(t, dir, "mcp", "request", "ev", "--agent", "default", "--allow", "echo", "--reason", "demo"), 0, "access request 1 filed")
	want(t, warren(t, dir, "mcp", "requests"), 0, "demo", "pending")
	want(t, warren(t, dir, "mcp", "approve", "1"), 0, "request 1 approved")
	want(t, warren(t, dir, "mcp", "grants"), 0, "default", "echo")
	want(t, warren(t, dir, "tool", "call", "mcp_ev_get-sum", `{"a":1,"b":2}`), 1, "allows only")
	want(t, warren(t, dir, "mcp", "revoke", "ev", "--agent", "default"), 0, "revoked")
	// An agent grant's overrides give that agent its own connection.
	want(t, warren(t, dir, "mcp", "tools", "ev", "--on", "get-env"), 0, "ev/get-env: on")
	want(t, warren(t, dir, "mcp", "grant", "ev", "--agent", "default", "--env", "GREETING=override-value"), 0, "its own connection")
	want(t, warren(t, dir, "mcp", "grants"), 0, "env GREETING")
	want(t, warren(t, dir, "tool", "call", "mcp_ev_get-env", `{}`), 0, "override-value")
	want(t, warren(t, dir, "mcp", "grant", "ev", "--user", "me", "--call-timeout", "5s"), 1, "only agent grants")
	want(t, warren(t, dir, "mcp", "revoke", "ev", "--agent", "default"), 0, "revoked")
	want(t, warren(t, dir, "mcp", "approve", "1"), 1, "already approved")

	want(t, warren(t, dir, "mcp", "disable", "ev"), 0, "disabled: ev")
	want(t, warren(t, dir, "mcp", "remove", "ev"), 0, "removed: ev")
	want(t, warren(t, dir, "mcp", "remove", "ev"), 2, "not found")
}

func TestMCPBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"mcp"}, "expected a subcommand"},
		{[]string{"mcp", "frob"}, `unknown subcommand "frob"`},
		{[]string{"mcp", "add", "x"}, "want -- COMMAND"},
		{[]string{"mcp", "add", "bad name", "--", "x"}, "has ' '"},
		{[]string{"mcp", "add", "x", "--url", "ftp://h"}, "must be an http"},
		{[]string{"mcp", "add", "x", "--url", "http://h", "--transport", "ws"}, `--transport "ws"`},
		{[]string{"mcp", "add", "x", "--env", "NOEQUALS", "--", "cmd"}, "want K=V"},
		{[]string{"mcp", "test", "missing"}, "not found"},
		{[]string{"mcp", "grant", "x"}, "exactly one of --agent"},
		{[]string{"mcp", "approve", "abc"}, "not a number"},
		{[]string{"mcp", "import", "/nonexistent/file.json"}, "no such file"},
	} {
		want(t, warren(t, dir, tc.args...), 2, tc.msg)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"mcpServers": {"a": {"command": "x",}`), 0o600)
	want(t, warren(t, dir, "mcp", "import", bad), 2, "invalid JSON")
	want(t, warren(t, dir, "mcp", "add", "broken", "--", "sh", "-c", "echo nope >&2; exit 4"), 0)
	want(t, warren(t, dir, "mcp", "test", "broken"), 1, "exited with code 4", "nope")
	want(t, warren(t, dir, "tools"), 0, "warning: MCP server broken")
}

// `warren mcp list` shows the window's agent connections (its snapshot).
func TestMCPListShowsAgentConnections(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want(t, warren(t, dir, "mcp", "add", "ev", "--", everything(t), "stdio"), 0, "added MCP server ev",
		"its tools are offered to agents (group:mcp:ev)")
	want(t, warren(t, dir, "policy", "also-allow"), 0, "also-allow: group:mcp:ev")
	want(t, warren(t, dir, "mcp", "grant", "ev", "--agent", "default", "--env", "MINE=1"), 0, "its own connection")

	// The window: it runs the servers; agent default calls a tool.
	ctx := context.Background()
	window := startWindow(t, dir)
	actx := tools.WithCallContext(ctx, tools.CallContext{Agent: "default"})

	deadline := time.Now().Add(30 * time.Second)
	var r run
	for time.Now().Before(deadline) {
		_, _ = window.MCP().Call(actx, "ev", "echo", json.RawMessage(`{"message":"hi"}`))
		r = cliProcess(t, dir, "mcp", "list")
		if strings.Contains(r.stdout, "└ agent default") && strings.Contains(r.stdout, "(own connection)") &&
			strings.Contains(r.stdout, "connected  ") {
			t.Log(r.stdout)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("mcp list never showed agent default's connection:\n%s%s", r.stdout, r.stderr)
}

// cliProcess runs the CLI in a process of its own (the test binary), as a
// user's shell would next to a running window.
func cliProcess(t *testing.T, dir string, args ...string) run {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCLIProcess$") //nolint:gosec // the test binary itself
	cmd.Env = append(os.Environ(), "WARREN_TEST_CLI_ARGS="+strings.Join(args, "\x1f"), "WARREN_TEST_DIR="+dir)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return run{code, out.String(), errb.String()}
}

func TestHelperCLIProcess(t *testing.T) {
	args := os.Getenv("WARREN_TEST_CLI_ARGS")
	if args == "" {
		t.Skip("helper process")
	}
	os.Exit(cli.Run(context.Background(), cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, DataDir: os.Getenv("WARREN_TEST_DIR")},
		strings.Split(args, "\x1f")))
}

// Tools that could not be bridged (two servers on one prefix) are named
// when `warren tools` connects the servers.
func TestMCPToolClashIsReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want(t, warren(t, dir, "mcp", "add", "one", "--prefix", "ev", "--", everything(t), "stdio"), 0, "added MCP server one")
	want(t, warren(t, dir, "mcp", "add", "two", "--prefix", "ev", "--", everything(t), "stdio"), 0, "added MCP server two")
	want(t, warren(t, dir, "tools"), 0, "already taken by another server (set a tool prefix)")
}
