package warren_test

import (
	"context"
	"strings"
	"testing"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/tools"
)

// A tool whose server is stopped or switched off (or that is switched off
// itself) tells the model why, instead of "unknown tool" — but only an
// agent that may use the tool learns more than "unknown tool".
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
	unknown("mcp_ev_echo")      // not granted: nothing more than before
	unknown("mcp_nosuch_thing") // no such server

	if err := w.SetMCPServerEnabled(ctx, "ev", false); err != nil {
		t.Fatal(err)
	}
	says("mcp_ev_get-sum", "MCP server ev is switched off by the user")

	// Once the policy no longer offers the server, the reason is hidden too.
	if err := w.SetAlsoAllow(ctx, "group:mcp:ev", false); err != nil {
		t.Fatal(err)
	}
	unknown("mcp_ev_get-sum")
}
