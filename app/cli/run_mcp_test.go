package cli_test

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/mcp/mcptest"
)

// `warren run` starts the MCP servers the agent may use, offers their
// tools, and leaves no server process behind.
func TestRunOffersMCPTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp_ev_echo", Arguments: []string{`{"message":"cli says hi"}`}}}},
		{Chunks: []string{"done"}},
	}})
	dir := t.TempDir()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	mark := "WARREN_TEST_MARK=" + hex.EncodeToString(b)
	want(t, warren(t, dir, "mcp", "add", "ev", "--env", mark, "--", everything(t), "stdio"), 0, "added MCP server ev")
	want(t, warren(t, dir, "policy", "also-allow", "group:mcp:ev"), 0)
	r := warren(t, dir, "run", "--base-url", srv.URL+"/v1", "--model", "m1", "echo please")
	want(t, r, 0, "MCP servers: ev: connected", "→ mcp_ev_echo", "← mcp_ev_echo ok", "done")
	reqs := srv.Requests()
	if len(reqs) < 2 || !strings.Contains(string(reqs[0].Body), `"name":"mcp_ev_echo"`) ||
		!strings.Contains(string(reqs[len(reqs)-1].Body), "cli says hi") {
		t.Fatalf("the model was not offered the tool or did not get its result: %d requests", len(reqs))
	}
	mcptest.WaitNoPIDsWithEnv(t, mark, "warren run")
}

// `warren run` shows an MCP tool's progress on stderr.
func TestRunShowsMCPProgress(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp_ev_trigger-long-running-operation", Arguments: []string{`{"duration":0.4,"steps":2}`}}}},
		{Chunks: []string{"done"}},
	}})
	dir := t.TempDir()
	want(t, warren(t, dir, "mcp", "add", "ev", "--", everything(t), "stdio"), 0, "added MCP server ev")
	want(t, warren(t, dir, "policy", "also-allow", "group:mcp:ev"), 0)
	r := warren(t, dir, "run", "--base-url", srv.URL+"/v1", "--model", "m1", "go slow")
	want(t, r, 0, "progress: 50%", "progress: 100%", "← mcp_ev_trigger-long-running-operation ok", "done")
}
