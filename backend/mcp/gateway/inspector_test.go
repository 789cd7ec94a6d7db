package gateway_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
)

// inspector runs the official MCP Inspector's CLI (pinned in
// testdata/inspector) against url and returns what it printed.
func inspector(t *testing.T, url, token string, args ...string) (string, error) {
	t.Helper()
	bin, err := filepath.Abs("testdata/inspector/node_modules/.bin/mcp-inspector")
	must(t, err)
	if _, err := os.Stat(bin); err != nil {
		t.Fatal("the MCP Inspector is not installed: run ./scripts/bootstrap.sh")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	argv := append([]string{"--cli", url, "--transport", "http", "--header", "Authorization: Bearer " + token}, args...)
	cmd := exec.CommandContext(ctx, bin, argv...) //nolint:gosec // G204: the test's own pinned client
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "catalog.json"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.String(), err
}

// TestInspectorCLIAsThirdPartyClient drives the gateway with the MCP
// Inspector: the pass-through tools are listed and called, an ungranted
// server's tool is not offered, and a wrong token is reported as a wrong
// token (not as a failed OAuth sign-in).
func TestInspectorCLIAsThirdPartyClient(t *testing.T) {
	t.Parallel()
	core := openCore(t, warren.Options{})
	addPassThrough(t, core)
	url := serveHTTP(t, gateway.New(core, gateway.Options{}))

	out, err := inspector(t, url, testToken, "--method", "tools/list")
	if err != nil || !strings.Contains(out, `"mcp_ev_echo"`) || !strings.Contains(out, `"read_file"`) || strings.Contains(out, "mcp_secret_") {
		t.Fatalf("tools/list: %v\n%s", err, out)
	}
	out, err = inspector(t, url, testToken, "--method", "tools/call", "--tool-name", "mcp_ev_echo", "--tool-arg", "message=from the inspector")
	if err != nil || !strings.Contains(out, "from the inspector") {
		t.Fatalf("tools/call mcp_ev_echo: %v\n%s", err, out)
	}
	// The Inspector looks a tool up in tools/list before calling it, so an
	// unlisted one never reaches the gateway (TestPassThroughHTTP calls it
	// by name and gets the reason).
	out, err = inspector(t, url, testToken, "--method", "tools/call", "--tool-name", "mcp_secret_echo", "--tool-arg", "message=x")
	if err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("tools/call of an ungranted server's tool: %v\n%s", err, out)
	}
	out, err = inspector(t, url, "wrong-token-0123456789", "--method", "tools/list")
	if err == nil || !strings.Contains(out, "wrong token") || !strings.Contains(out, "--print-token") {
		t.Fatalf("a wrong token: %v\n%s", err, out)
	}
	t.Logf("the Inspector on a wrong token:\n%s", out)
}
