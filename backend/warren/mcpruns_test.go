package warren_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcptest"
	"github.com/warren-dev/warren/backend/warren"
)

// marker returns a unique environment entry to find a server's processes by.
func marker(t *testing.T) (key, value string) {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "WARREN_TEST_MARK", hex.EncodeToString(b)
}

// processesWith lists the pids whose environment holds key=value.
func processesWith(t *testing.T, key, value string) []string {
	t.Helper()
	return mcptest.PIDsWithEnv(t, key+"="+value)
}

// waitGone polls until no process carries the marker, or fails.
func waitGone(t *testing.T, key, value string) {
	t.Helper()
	mcptest.WaitNoPIDsWithEnv(t, key+"="+value, "the run")
}

// chatRequest is the part of a recorded model request the tests read.
type chatRequest struct {
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct{ Name string } `json:"function"`
	} `json:"tools"`
}

func chatRequests(t *testing.T, srv *llmtest.Server) []chatRequest {
	t.Helper()
	var out []chatRequest
	for _, r := range srv.Requests() {
		if !strings.HasSuffix(r.Path, "/chat/completions") {
			continue
		}
		var c chatRequest
		if err := json.Unmarshal(r.Body, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func (c chatRequest) toolNames() []string {
	names := make([]string, len(c.Tools))
	for i, tl := range c.Tools {
		names[i] = tl.Function.Name
	}
	return names
}

// A run in a process that does not run the servers (the CLI) starts the
// servers its agent may use, offers their tools, tells the model why a
// failed one's are missing, and stops what it started when it ends.
func TestRunStartsAndStopsItsAgentsMCPServers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "c1", Name: "mcp_ev_echo", Arguments: []string{`{"message":"hello from the run"}`}},
			// Called by name although not offered: the reasons come back.
			{ID: "c2", Name: "mcp_secret_echo", Arguments: []string{`{"message":"x"}`}},
			{ID: "c3", Name: "mcp_broken_echo", Arguments: []string{`{"message":"x"}`}},
		}},
		{Chunks: []string{"echoed"}},
		{Chunks: []string{"nothing to echo with"}},
	}})
	w := open(t, t.TempDir())
	key, mark := marker(t)
	bin := everythingBin(t)
	for _, s := range []wmcp.Server{
		{Name: "ev", Command: bin, Args: []string{"stdio"}, Env: map[string]string{key: mark}},
		{Name: "broken", Command: "sh", Args: []string{"-c", "echo boom-on-stderr >&2; exit 3"}},
		// Restricted with a grant for another agent only: default may not use it.
		{Name: "secret", Command: bin, Args: []string{"stdio"}, Env: map[string]string{key: mark + "-secret"}, Restricted: true},
		// Not offered by the policy: never started.
		{Name: "unoffered", Command: bin, Args: []string{"stdio"}, Env: map[string]string{key: mark + "-unoffered"}},
	} {
		s.Transport, s.Enabled = wmcp.TransportStdio, true
		if err := w.SaveMCPServer(ctx, s, wmcp.ReplaceSecrets); err != nil {
			t.Fatal(err)
		}
		if s.Name != "unoffered" {
			if err := w.SetAlsoAllow(ctx, "group:mcp:"+s.Name, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.SaveMCPGrant(ctx, wmcp.Grant{Server: "secret", Scope: wmcp.ScopeAgent, Subject: "other", Enabled: true}); err != nil {
		t.Fatal(err)
	}

	var notices []string
	var during []string
	res, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "echo something", BaseURL: srv.URL + "/v1", Model: "m1"},
		func(ev agent.Event) {
			switch {
			case ev.Kind == agent.EventNotice:
				notices = append(notices, ev.Text)
			case ev.Kind == agent.EventToolEnd && ev.Tool == "mcp_ev_echo":
				during = processesWith(t, key, mark)
			}
		})
	if err != nil || res.Text != "echoed" {
		t.Fatalf("run = %+v, %v", res, err)
	}
	chat := chatRequests(t, srv)
	if len(chat) != 2 {
		t.Fatalf("%d model requests, want 2", len(chat))
	}
	names := chat[0].toolNames()
	if !slices.Contains(names, "mcp_ev_echo") {
		t.Fatalf("the first request did not offer mcp_ev_echo: %v", names)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "mcp_secret_") || strings.HasPrefix(n, "mcp_unoffered_") {
			t.Fatalf("default was offered %s", n)
		}
	}
	if sys := chat[0].Messages[0].Content; !strings.Contains(sys, "MCP server broken") || !strings.Contains(sys, "boom-on-stderr") {
		t.Fatalf("the system prompt does not say why broken's tools are missing:\n%s", sys)
	}
	results := chat[1].Messages[len(chat[1].Messages)-3:]
	if results[0].Role != "tool" || !strings.Contains(results[0].Content, "hello from the run") {
		t.Fatalf("the echo result did not reach the model: %+v", results[0])
	}
	if !strings.Contains(results[1].Content, "PolicyDenied") || !strings.Contains(results[1].Content, "secret is restricted") {
		t.Fatalf("an ungranted server's tool called by name: %q", results[1].Content)
	}
	if !strings.Contains(results[2].Content, "MCP server broken is down") || !strings.Contains(results[2].Content, "boom-on-stderr") {
		t.Fatalf("a failed server's tool called by name: %q", results[2].Content)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "ev: connected") || !strings.Contains(notices[0], "broken: not available") ||
		strings.Contains(notices[0], "secret") || strings.Contains(notices[0], "unoffered") {
		t.Fatalf("notices = %q", notices)
	}
	if len(during) == 0 {
		t.Fatal("no ev process was found while its tool ran (the marker scan finds nothing)")
	}
	// The run is over: what it started is stopped, with the core still open.
	waitGone(t, key, mark)
	for _, m := range []string{mark + "-secret", mark + "-unoffered"} {
		if pids := processesWith(t, key, m); len(pids) > 0 {
			t.Fatalf("a server default may not use was started: %v", pids)
		}
	}
	if _, running := w.MCP().Tools("ev"); running {
		t.Fatal("ev still runs after the run")
	}

	// The granted agent gets the restricted server's tools.
	if _, err := w.SaveAgent(ctx, storeAgent("other")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunAgent(ctx, warren.RunRequest{Agent: "other", Prompt: "hi", BaseURL: srv.URL + "/v1", Model: "m1"}, nil); err != nil {
		t.Fatal(err)
	}
	chat = chatRequests(t, srv)
	if names := chat[2].toolNames(); !slices.Contains(names, "mcp_secret_echo") {
		t.Fatalf("other was not offered the granted server's tools: %v", names)
	}
	waitGone(t, key, mark+"-secret")
}

// A server that was running before the run (started for another reason)
// is used by the run and left running after it.
func TestRunLeavesServersItDidNotStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{{Chunks: []string{"ok"}}}})
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	if _, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "hi", BaseURL: srv.URL + "/v1", Model: "m1"}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(chatRequests(t, srv)[0].toolNames(), "mcp_ev_echo") {
		t.Fatal("the running server's tools were not offered")
	}
	if _, running := w.MCP().Tools("ev"); !running {
		t.Fatal("the run stopped a server it did not start")
	}
}

// A server that never answers does not hold a run up past the wait: the
// lease reports it as still connecting, and releasing the lease ends its
// processes.
func TestLeaseWaitIsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	key, mark := marker(t)
	s := wmcp.Server{Name: "hung", Transport: wmcp.TransportStdio, Command: "sh", Args: []string{"-c", "sleep 120"},
		Env: map[string]string{key: mark}, Enabled: true}
	if err := w.SaveMCPServer(ctx, s, wmcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	if err := w.SetAlsoAllow(ctx, "group:mcp:hung", true); err != nil {
		t.Fatal(err)
	}
	lease, report, err := w.LeaseMCP(ctx, warren.MCPUse{Agent: "default", Wait: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(report) != 1 || report[0].Server != "hung" || !strings.Contains(report[0].Problem, "still connecting") {
		t.Fatalf("report = %+v", report)
	}
	if pids := processesWith(t, key, mark); len(pids) == 0 {
		t.Fatal("the hung server was not started")
	}
	lease.Release()
	lease.Release() // a second release gives nothing back twice
	waitGone(t, key, mark)
}
