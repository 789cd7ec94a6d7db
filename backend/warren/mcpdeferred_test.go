package warren_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
)

// An agent offered more MCP tools than mcp.defer_above gets them all
// behind tool_search; an agent with a higher per-agent threshold does not.
func TestMCPAutomaticDeferral(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "tool_search", Arguments: []string{`{"load":["mcp_ev_get-sum"]}`}}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "mcp_ev_get-sum", Arguments: []string{`{"a":40,"b":2}`}}}},
		{Chunks: []string{"It is 42."}},
		{Chunks: []string{"all at once"}},
	}})
	w := open(t, t.TempDir())
	addServer(t, w, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}})
	if err := w.SetSetting(ctx, warren.SettingMCPDeferAbove, " 5, other = 100 "); err != nil {
		t.Fatal(err)
	}
	res, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "add 40 and 2", BaseURL: srv.URL + "/v1", Model: "m1"}, nil)
	if err != nil || res.Text != "It is 42." {
		t.Fatalf("run = %+v, %v", res, err)
	}
	chat := chatRequests(t, srv)
	first := chat[0].toolNames()
	if slices.ContainsFunc(first, func(n string) bool { return strings.HasPrefix(n, "mcp_ev_") }) || !slices.Contains(first, "tool_search") {
		t.Fatalf("above the threshold the first request still offered MCP tools (or no tool_search): %v", first)
	}
	if !slices.Contains(chat[1].toolNames(), "mcp_ev_get-sum") {
		t.Fatal("the loaded tool was not offered after tool_search")
	}

	if _, err := w.SaveAgent(ctx, storeAgent("other")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunAgent(ctx, warren.RunRequest{Agent: "other", Prompt: "hi", BaseURL: srv.URL + "/v1", Model: "m1"}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(chatRequests(t, srv)[3].toolNames(), "mcp_ev_echo") {
		t.Fatal("an agent under its own threshold did not get the MCP tools directly")
	}
}

func TestMCPDeferAboveSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	for _, tc := range []struct{ in, want string }{
		{"0", ""}, {"12,coder=3", ""}, {"-1", "whole number"}, {"coder=3", "start with the number"},
		{"40,10", "AGENT=NUMBER"}, {"40,=3", "names no agent"}, {"40,coder=x", "whole number"}, {"lots", "whole number"},
	} {
		err := w.SetSetting(ctx, warren.SettingMCPDeferAbove, tc.in)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
