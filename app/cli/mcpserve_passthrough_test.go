package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcptest"
)

// TestMCPServeProcessPassThrough runs the real `warren mcp serve --stdio`
// process with a configured server-everything: its tools pass through, and
// the server's processes end with the gateway's.
func TestMCPServeProcessPassThrough(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bin := buildWarren(t)
	dir, core := prepareDataDir(t)
	everything, err := filepath.Abs("../../backend/mcp/testdata/servers/node_modules/.bin/mcp-server-everything")
	check(t, err)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	mark := hex.EncodeToString(b)
	check(t, core.SaveMCPServer(ctx, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everything, Args: []string{"stdio"},
		Env: map[string]string{"WARREN_TEST_MARK": mark}, Enabled: true}, wmcp.ReplaceSecrets))
	check(t, core.SetAlsoAllow(ctx, "group:mcp:ev", true))

	argv, env := serveCommand(dir, "--stdio", "--approve", "no")
	var stderr syncBuffer
	c := client.NewClient(transport.NewStdioWithOptions(bin, env, argv, transport.WithCommandStderrWriter(&stderr)))
	defer func() {
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()
	check(t, c.Start(ctx))
	initClient(t, c, "Claude Desktop")
	if names := listNames(t, c); !slices.Contains(names, "mcp_ev_echo") {
		t.Fatalf("tools/list lacks the pass-through tool: %v", names)
	}
	if text, isErr := callText(t, c, "mcp_ev_echo", map[string]any{"message": "through the process"}); isErr || !strings.Contains(text, "through the process") {
		t.Fatalf("mcp_ev_echo: %v %q", isErr, text)
	}
	if !strings.Contains(stderr.String(), "serving MCP server") {
		t.Fatalf("the gateway did not report the server it serves:\n%s", stderr.String())
	}
	if len(mcptest.PIDsWithEnv(t, "WARREN_TEST_MARK="+mark)) == 0 {
		t.Fatal("no server process found while the gateway runs (the scan finds nothing)")
	}
	check(t, c.Close()) // stdin closes: the gateway ends
	mcptest.WaitNoPIDsWithEnv(t, "WARREN_TEST_MARK="+mark, "warren mcp serve")
}
