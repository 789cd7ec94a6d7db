package warren_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

func everythingBin(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../mcp/testdata/servers/node_modules/.bin/mcp-server-everything")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal("server-everything is not installed: run ./scripts/bootstrap.sh")
	}
	return p
}

// addServer stores a server, offers its tools under the default profile
// and connects it.
func addServer(t *testing.T, w *warren.Warren, s wmcp.Server) {
	t.Helper()
	ctx := context.Background()
	s.Enabled = true
	if err := w.SaveMCPServer(ctx, s, wmcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	if err := w.SetAlsoAllow(ctx, "group:mcp:"+s.Name, true); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := w.ConnectMCP(cctx, s.Name); err != nil {
		t.Fatal(err)
	}
}

func call(t *testing.T, w *warren.Warren, agent, name, args string) tools.Result {
	t.Helper()
	res, err := w.CallTool(context.Background(), warren.CallRequest{Name: name, Args: []byte(args), Agent: agent})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func inventoryRow(t *testing.T, w *warren.Warren, agent, name string) (warren.ToolInfo, bool) {
	t.Helper()
	inv, err := w.Inventory(context.Background(), warren.InventoryRequest{Agent: agent})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range inv {
		if row.Name == name {
			return row, true
		}
	}
	return warren.ToolInfo{}, false
}

func TestMCPToolsThroughTheCore(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	ctx := context.Background()
	if err := w.SaveMCPServer(ctx, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true}, wmcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	if hint := w.MCPPolicyHint(ctx, "ev"); !strings.Contains(hint, "also-allow group:mcp:ev") {
		t.Fatalf("hint under the coding profile = %q", hint)
	}
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	if hint := w.MCPPolicyHint(ctx, "ev"); hint != "" {
		t.Fatalf("hint after also-allow = %q", hint)
	}
	row, ok := inventoryRow(t, w, "default", "mcp_ev_get-sum")
	if !ok || !row.Allowed || row.Group != "mcp:ev" {
		t.Fatalf("inventory row = %+v, %v", row, ok)
	}
	if res := call(t, w, "default", "mcp_ev_get-sum", `{"a":20,"b":22}`); res.IsError || !strings.Contains(res.ForLLM, "42") {
		t.Fatalf("get-sum = %+v", res)
	}
	// A tool switched off disappears from the registry; a call says why.
	if err := w.SetMCPToolEnabled(ctx, "ev", "get-sum", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := inventoryRow(t, w, "default", "mcp_ev_get-sum"); ok {
		t.Fatal("a switched-off tool is still in the inventory")
	}
	if res := call(t, w, "default", "mcp_ev_get-sum", `{}`); res.Code() != tools.CodePermission || !strings.Contains(res.ForLLM, "switched off by the user") {
		t.Fatalf("switched-off tool still callable: %+v", res)
	}
	// Disabling the server takes its tools away.
	if err := w.SetMCPServerEnabled(ctx, "ev", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := inventoryRow(t, w, "default", "mcp_ev_echo"); ok {
		t.Fatal("a disabled server's tools are still listed")
	}
}

func TestMCPGrantsAndAccessRequests(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	ctx := context.Background()
	if err := w.Store().PutAgent(ctx, storeAgent("coder")); err != nil {
		t.Fatal(err)
	}
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Restricted: true})

	row, ok := inventoryRow(t, w, "coder", "mcp_ev_echo")
	if !ok || row.Allowed || !strings.Contains(row.Reason, "restricted") {
		t.Fatalf("restricted server without grant: %+v", row)
	}
	res := call(t, w, "coder", "mcp_ev_echo", `{"message":"hi"}`)
	if res.Code() != tools.CodePolicyDenied || !strings.Contains(res.Error.Message, "no grant") {
		t.Fatalf("call without grant = %+v", res)
	}

	id, err := w.MCP().Store().CreateRequest(ctx, wmcp.AccessRequest{Server: "ev", Scope: wmcp.ScopeAgent, Subject: "coder", ToolAllow: []string{"echo"}, Reason: "greetings"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.ReviewMCPRequest(ctx, id, true, "fine"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, w, "coder", "mcp_ev_echo", `{"message":"hi"}`); res.IsError {
		t.Fatalf("granted call = %+v", res)
	}
	res = call(t, w, "coder", "mcp_ev_get-sum", `{"a":1,"b":2}`)
	if res.Code() != tools.CodePolicyDenied || !strings.Contains(res.Error.Message, "allows only") {
		t.Fatalf("tool outside the grant's allow list = %+v", res)
	}
	// The default agent still has no grant.
	if row, _ := inventoryRow(t, w, "default", "mcp_ev_echo"); row.Allowed {
		t.Fatal("a grant for coder leaked to default")
	}
	// Deny wins over allow.
	if err := w.SaveMCPGrant(ctx, wmcp.Grant{Server: "ev", Scope: wmcp.ScopeAgent, Subject: "coder", ToolAllow: []string{"echo"}, ToolDeny: []string{"echo"}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if res := call(t, w, "coder", "mcp_ev_echo", `{"message":"hi"}`); res.Code() != tools.CodePolicyDenied {
		t.Fatalf("denied tool = %+v", res)
	}
}

func TestMCPToolSearchDefersLargeServers(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "big", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Deferred: true})
	res := call(t, w, "default", "tool_search", `{"query":"sum numbers"}`)
	if res.IsError || !strings.Contains(res.ForLLM, "mcp_big_get-sum") || strings.Contains(res.ForLLM, `"properties"`) {
		t.Fatalf("search = %+v", res)
	}
	res = call(t, w, "default", "tool_search", `{"load":["mcp_big_get-sum","nope"]}`)
	if res.IsError || !strings.Contains(res.ForLLM, `"properties"`) || !strings.Contains(res.ForLLM, "Not found: nope") {
		t.Fatalf("load = %+v", res)
	}
	// Deferred tools stay callable through the full pipeline.
	if res := call(t, w, "default", "mcp_big_get-sum", `{"a":1,"b":1}`); res.IsError {
		t.Fatalf("deferred call = %+v", res)
	}
}

// A server whose tool list changes at run time: the registry follows
// tools/list_changed without a reconnect.
func TestMCPListChanged(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "dyn", Transport: wmcp.TransportStdio, Command: os.Args[0],
		Args: []string{"-test.run=^TestHelperMCPServer$"}, Env: map[string]string{"WARREN_TEST_MCP_SERVER": "1"}})
	if res := call(t, w, "default", "mcp_dyn_add_tool", `{}`); res.IsError {
		t.Fatalf("add_tool = %+v", res)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := w.Registry().Get("mcp_dyn_dynamic_1"); ok {
			sts, _ := w.MCP().Statuses(context.Background())
			if sts[0].Restarts != 0 {
				t.Fatalf("the server was reconnected instead of refreshed: %+v", sts[0])
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the new tool never reached the registry")
}

// TestHelperMCPServer is a real MCP server (mcp-go) whose add_tool tool
// adds a tool and notifies tools/list_changed; TestMCPListChanged runs it.
func TestHelperMCPServer(t *testing.T) {
	if os.Getenv("WARREN_TEST_MCP_SERVER") == "" {
		t.Skip("helper process")
	}
	s := server.NewMCPServer("dyn", "1", server.WithToolCapabilities(true))
	var n atomic.Int32
	s.AddTool(mcp.NewTool("add_tool", mcp.WithDescription("adds a tool")), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name := fmt.Sprintf("dynamic_%d", n.Add(1))
		s.AddTool(mcp.NewTool(name, mcp.WithDescription("added at run time")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("dynamic"), nil
		})
		return mcp.NewToolResultText("added " + name), nil
	})
	if err := server.ServeStdio(s); err != nil {
		t.Log(err)
	}
	os.Exit(0) // no "PASS" on the protocol stream
}

func TestMCPImportExportAndClaudeOffer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	home := t.TempDir()
	cfgPath, err := mcpconfig.ClaudeDesktopConfigPath(mcpconfig.PathOptions{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	claude := `{"mcpServers": {
		"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"TOKEN": "tok-abc123"}},
		"remote": {"url": "http://127.0.0.1:9/sse"},
		"broken": {"args": []}
	}}`
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(claude), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := mcpconfig.PathOptions{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }}
	offer, err := w.ClaudeDesktopImportOffer(ctx, opts)
	if err != nil || offer == nil || len(offer.Servers) != 2 {
		t.Fatalf("offer = %+v, %v", offer, err)
	}
	rep, err := w.AnswerClaudeDesktopOffer(ctx, true, opts)
	if err != nil || len(rep.Added) != 2 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "broken") {
		t.Fatalf("import = %+v, %v", rep, err)
	}
	if offer, _ := w.ClaudeDesktopImportOffer(ctx, opts); offer != nil {
		t.Fatalf("offer shown again after the answer: %+v", offer)
	}
	remote, err := w.MCP().Store().Get(ctx, "remote")
	if err != nil || remote.Transport != wmcp.TransportSSE {
		t.Fatalf("remote = %+v, %v", remote, err)
	}
	// Importing again keeps existing servers unless asked to replace.
	rep, err = w.ImportMCPServers(ctx, []byte(claude), false)
	if err != nil || len(rep.Skipped) != 2 {
		t.Fatalf("second import = %+v, %v", rep, err)
	}
	out, err := w.ExportMCPServers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.MCPServers) != 2 || !strings.Contains(string(out), "tok-abc123") {
		t.Fatalf("export = %s, %v", out, err)
	}
	if _, err := w.ImportMCPServers(ctx, []byte(`{"nope": 1`), false); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Fatalf("bad JSON import = %v", err)
	}
}

// Warren's window keeps servers running and the CLI reads its snapshot.
func TestMCPStatusSnapshotForOtherProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := open(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := w.SaveMCPServer(ctx, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true}, wmcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	// Agent default's grant overrides the env: it gets its own connection.
	if err := w.SaveMCPGrant(ctx, wmcp.Grant{Server: "ev", Scope: wmcp.ScopeAgent, Subject: "default", Enabled: true,
		ConfigOverrides: wmcp.Overrides{Env: map[string]string{"MINE": "1"}}}); err != nil {
		t.Fatal(err)
	}
	go func() { _ = w.RunMCP(ctx) }()
	go func() {
		actx := tools.WithCallContext(ctx, tools.CallContext{Agent: "default"})
		for ctx.Err() == nil {
			if _, err := w.MCP().Call(actx, "ev", "echo", json.RawMessage(`{"message":"hi"}`)); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	// Another process (the CLI) opening the same data directory.
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperReadSnapshot$") //nolint:gosec // the test binary itself
	cmd.Env = append(os.Environ(), "WARREN_TEST_CLI_PROCESS=1", "WARREN_TEST_DIR="+dir)
	deadline := time.Now().Add(20 * time.Second)
	var out []byte
	for time.Now().Before(deadline) {
		c := *cmd
		out, _ = c.Output()
		if strings.Contains(string(out), "state=connected") && strings.Contains(string(out), "agents=[default:connected]") {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the other process never saw the window's status: %s", out)
}

func TestHelperReadSnapshot(t *testing.T) {
	if os.Getenv("WARREN_TEST_CLI_PROCESS") == "" {
		t.Skip("helper process")
	}
	w, err := warren.Open(context.Background(), warren.Options{DataDir: os.Getenv("WARREN_TEST_DIR")})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	views, err := w.MCPServerViews(context.Background())
	if err != nil || len(views) != 1 {
		t.Fatalf("views = %+v, %v", views, err)
	}
	var agents []string
	for _, ac := range views[0].Status.AgentConnections {
		agents = append(agents, ac.Agent+":"+string(ac.State))
	}
	fmt.Printf("state=%s agents=%v source=%q\n", views[0].Status.State, agents, views[0].Source)
}

// A deferred server's tools reach the model only after tool_search loads
// them, and then within the same turn.
func TestMCPDeferredToolsInTheAgentLoop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "tool_search", Arguments: []string{`{"load":["mcp_big_get-sum"]}`}}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "mcp_big_get-sum", Arguments: []string{`{"a":40,"b":2}`}}}},
		{Chunks: []string{"It is 42."}},
	}})
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "big", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Deferred: true})
	res, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "add 40 and 2", BaseURL: srv.URL + "/v1", Model: "m1"}, func(agent.Event) {})
	if err != nil || res.Text != "It is 42." {
		t.Fatalf("run = %+v, %v", res, err)
	}
	reqs := srv.Requests()
	var chat []string
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			chat = append(chat, string(r.Body))
		}
	}
	if len(chat) != 3 {
		t.Fatalf("%d model requests, want 3", len(chat))
	}
	if strings.Contains(chat[0], `"mcp_big_get-sum"`) || !strings.Contains(chat[0], `"tool_search"`) {
		t.Fatal("the first request offered the deferred tool (or not tool_search)")
	}
	if !strings.Contains(chat[1], `"name":"mcp_big_get-sum"`) {
		t.Fatal("the loaded tool was not offered after tool_search")
	}
	if !strings.Contains(chat[2], "The sum of 40 and 2 is 42") {
		t.Fatal("the deferred tool's result did not reach the model")
	}
}
