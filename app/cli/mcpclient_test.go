package cli_test

import (
	"testing"
)

// Resources, prompts, progress and a server's question without a terminal,
// through the CLI against server-everything.
func TestMCPClientFeaturesCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want(t, warren(t, dir, "mcp", "add", "ev", "--offer=false", "--", everything(t), "stdio"), 0, "added MCP server ev")
	// Not yet allowed for the default agent: the catalog says why.
	want(t, warren(t, dir, "mcp", "resources", "ev"), 1, "group:mcp:ev")
	want(t, warren(t, dir, "policy", "also-allow", "group:mcp:ev"), 0, "group:mcp:ev")

	want(t, warren(t, dir, "mcp", "resources", "ev"), 0, "demo://resource/static/document/features.md", "template")
	want(t, warren(t, dir, "mcp", "read", "ev", "demo://resource/static/document/features.md"), 0, "#")
	want(t, warren(t, dir, "mcp", "prompts", "ev"), 0, "args-prompt", "city state?")
	want(t, warren(t, dir, "mcp", "prompt", "ev", "args-prompt", "city=Paris", "state=Texas"), 0, "[user]", "What's weather in Paris, Texas?")
	want(t, warren(t, dir, "mcp", "prompt", "ev", "args-prompt", "Paris"), 2, "want K=V")
	want(t, warren(t, dir, "mcp", "read", "ev"), 2, "want NAME URI")

	// Progress: plain lines when stderr is not a terminal.
	r := warren(t, dir, "tool", "call", "mcp_ev_trigger-long-running-operation", `{"duration":0.4,"steps":2}`)
	want(t, r, 0, "progress: 50%", "progress: 100%", "Long running operation completed")

	// The sampling, elicitation and roots tools are offered; a question
	// with nobody at a terminal is declined.
	want(t, warren(t, dir, "mcp", "tools", "ev"), 0, "trigger-sampling-request", "trigger-elicitation-request", "get-roots-list")
	want(t, warren(t, dir, "tool", "call", "mcp_ev_trigger-elicitation-request", `{}`), 0, "decline")
	want(t, warren(t, dir, "tool", "call", "mcp_ev_get-roots-list", `{}`), 0, "file://")
}
