package warren_test

import (
	"context"
	"strings"
	"testing"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/tools"
)

// A tool whose server is stopped or switched off (or that is switched off
// itself) tells the model why, instead of "unknown tool"; an agent that may
// not use the tool hears the policy's or the grant's refusal, never the
// server's state.
func TestMCPMissingToolSaysWhy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	if res := call(t, w, "default", "mcp_ev_get-sum", `{"a":1,"b":2}`); res.IsError {
		t.Fatalf("get-sum on a running server: %s", res.ForLLM)
	}
	// Agent default may use only get-sum.
	if err := w.SaveMCPGrant(ctx, wmcp.Grant{Server: "ev", Scope: wmcp.ScopeAgent, Subject: "default", Enabled: true,
		ToolAllow: []string{"get-sum"}}); err != nil {
		t.Fatal(err)
	}
	unknown := func(name string) {
		t.Helper()
		res := call(t, w, "default", name, `{}`)
		if res.Code() != tools.CodeNotFound || !strings.Contains(res.ForLLM, "unknown tool") {
			t.Fatalf("%s: %s %s, want unknown tool", name, res.Code(), res.ForLLM)
		}
	}
	says := func(name, want string) {
		t.Helper()
		res := call(t, w, "default", name, `{"a":1,"b":2}`)
		if !res.IsError || res.Code() == tools.CodeNotFound || !strings.Contains(res.ForLLM, want) {
			t.Fatalf("%s: %s %q, want %q", name, res.Code(), res.ForLLM, want)
		}
	}

	if err := w.SetMCPToolEnabled(ctx, "ev", "get-sum", false); err != nil {
		t.Fatal(err)
	}
	says("mcp_ev_get-sum", "tool get-sum of MCP server ev is switched off by the user")
	if err := w.SetMCPToolEnabled(ctx, "ev", "get-sum", true); err != nil {
		t.Fatal(err)
	}

	w.MCP().Hold("ev")
	says("mcp_ev_get-sum", "MCP server ev was stopped by the user")
	// Not granted: the policy's reason, never the server's state.
	if res := call(t, w, "default", "mcp_ev_echo", `{}`); res.Code() != tools.CodePolicyDenied || strings.Contains(res.ForLLM, "stopped") {
		t.Fatalf("mcp_ev_echo: %s %q, want the policy's refusal", res.Code(), res.ForLLM)
	}
	unknown("mcp_nosuch_thing") // no such server

	if err := w.SetMCPServerEnabled(ctx, "ev", false); err != nil {
		t.Fatal(err)
	}
	says("mcp_ev_get-sum", "MCP server ev is switched off by the user")

	// Once the policy no longer offers the server, the answer is a refusal.
	if err := w.SetAlsoAllow(ctx, "group:mcp:ev", false); err != nil {
		t.Fatal(err)
	}
	if res := call(t, w, "default", "mcp_ev_get-sum", `{}`); res.Code() != tools.CodePolicyDenied {
		t.Fatalf("mcp_ev_get-sum without policy: %s %q", res.Code(), res.ForLLM)
	}
}
