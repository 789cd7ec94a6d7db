package policy

import "testing"

func TestExplainSummary(t *testing.T) {
	t.Parallel()
	tools := []ToolRef{{Name: "exec"}, {Name: "read_file"}, {Name: "cron"}, {Name: "gh_prs", Group: "mcp:github"}, {Name: "count_lines", Group: GroupCustom}, {Name: "session_status"}}
	tests := []struct {
		name, tool string
		cfg        Config
		req        Request
		summary    string
		deniedBy   string
	}{
		{"profile blocks a group", "exec", Config{Profile: "minimal"}, Request{},
			"exec is blocked because the profile “minimal” does not include the runtime group.", ""},
		{"request profile", "exec", Config{Profile: "full"}, Request{Profile: "messaging"},
			"exec is blocked because the profile “messaging” does not include the runtime group.", ""},
		{"profile includes", "read_file", Config{Profile: "coding"}, Request{},
			"read_file is allowed: the profile “coding” includes the fs group.", ""},
		{"full", "exec", Config{}, Request{},
			"exec is allowed: the profile “full” allows every tool.", ""},
		{"MCP tools", "gh_prs", Config{Profile: "coding"}, Request{},
			"gh_prs is blocked because the profile “coding” does not include MCP server “github”'s tools.", ""},
		{"custom tools", "count_lines", Config{Profile: "coding"}, Request{},
			"count_lines is blocked because the profile “coding” does not include custom tools.", ""},
		{"agent allow list", "exec", Config{Agents: map[string]AgentPolicy{"coder": {Allow: []string{"read_file"}}}}, Request{Agent: "coder"},
			"exec is blocked because agent “coder”'s allow list does not include it.", ""},
		{"agent deny", "exec", Config{Agents: map[string]AgentPolicy{"coder": {Deny: []string{"group:runtime"}}}}, Request{Agent: "coder"},
			"exec is blocked because agent “coder”'s deny list denies it (entry “group:runtime”).", ""},
		{"global deny binds every agent", "exec", Config{Deny: []string{"exec"}}, Request{Agent: "coder"},
			"exec is blocked because the global deny list denies it (entry “exec”).", "the global deny list (entry “exec”)"},
		{"global deny behind the profile", "exec", Config{Profile: "minimal", Deny: []string{"group:runtime"}}, Request{},
			"exec is blocked because the profile “minimal” does not include the runtime group.", "the global deny list (entry “group:runtime”)"},
		{"agent also-allow adds back", "cron", Config{Profile: "coding", Agents: map[string]AgentPolicy{"coder": {AlsoAllow: []string{"cron"}}}}, Request{Agent: "coder"},
			"cron is allowed: agent “coder”'s also-allow list adds it back.", ""},
		{"subagent deny", "cron", Config{}, Request{SubagentDepth: 1, MaxSpawnDepth: 3},
			"cron is blocked because the deny list for subagents denies it (entry “cron”).", "the deny list for subagents (entry “cron”)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := NewEngine(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			x, err := e.Explain(tc.tool, tools, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if x.Summary != tc.summary || x.DeniedBy != tc.deniedBy {
				t.Fatalf("summary %q denied_by %q\nwant    %q denied_by %q", x.Summary, x.DeniedBy, tc.summary, tc.deniedBy)
			}
		})
	}
}
