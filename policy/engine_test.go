package policy

import (
	"slices"
	"testing"
)

type filterCase struct {
	name    string
	cfg     Config
	req     Request
	want    []string // exact allowed set, when set
	wantIn  []string // must be allowed
	wantOut []string // must not be allowed
}

func filterCases() []filterCase {
	all := toolNames(testTools())
	openai := Request{Provider: "openai"}
	return []filterCase{
		{name: "empty config allows everything", want: all},
		{name: "minimal profile", cfg: Config{Profile: "minimal"}, want: []string{"session_status"}},
		{name: "coding profile", cfg: Config{Profile: "coding"},
			wantIn:  []string{"read_file", "delete_file", "exec", "process", "get_env", "datetime", "current_time", "web_fetch", "spawn", "use_skill", "tts", "read_image", "skill_search", "message"},
			wantOut: []string{"cron", "create_forum_topic", "team_tasks", "gateway", "github_create_issue", "my_tool"}},
		{name: "messaging profile", cfg: Config{Profile: "messaging"},
			wantIn:  []string{"message", "create_forum_topic", "web_search", "sessions_list", "read_image", "skill_search"},
			wantOut: []string{"exec", "knowledge_graph_search", "read_file", "create_image"}},
		{name: "request profile overrides global", cfg: Config{Profile: "coding"}, req: Request{Profile: "minimal"},
			want: []string{"session_status"}},
		{name: "provider profile replaces global profile", cfg: Config{Profile: "minimal",
			ByProvider: map[string]ProviderPolicy{"openai": {Profile: "coding"}}}, req: openai,
			wantIn: []string{"exec", "session_status"}, wantOut: []string{"cron"}},
		{name: "provider profile full lifts coding", cfg: Config{Profile: "coding",
			ByProvider: map[string]ProviderPolicy{"openai": {Profile: "full"}}}, req: openai, want: all},
		{name: "provider profile ignored for other provider", cfg: Config{Profile: "minimal",
			ByProvider: map[string]ProviderPolicy{"openai": {Profile: "coding"}}}, req: Request{Provider: "anthropic"},
			want: []string{"session_status"}},
		{name: "global allow intersects", cfg: Config{Allow: []string{"group:fs", "exec"}},
			want: []string{"delete_file", "edit", "exec", "get_file_info", "glob", "list_files", "read_file", "search", "write_file"}},
		{name: "global allow cannot widen profile", cfg: Config{Profile: "minimal", Allow: []string{"exec"}}, want: []string{}},
		{name: "provider allow", cfg: Config{ByProvider: map[string]ProviderPolicy{"openai": {Allow: []string{"read_file"}}}},
			req: openai, want: []string{"read_file"}},
		{name: "agent allow", cfg: Config{Agents: map[string]AgentPolicy{"coder": {Allow: []string{"group:web"}}}},
			req: Request{Agent: "coder"}, want: []string{"url_fetch", "web_fetch", "web_search"}},
		{name: "agent allow ignored for other agent", cfg: Config{Agents: map[string]AgentPolicy{"coder": {Allow: []string{"group:web"}}}},
			req: Request{Agent: "writer"}, want: all},
		{name: "agent provider allow", cfg: Config{Agents: map[string]AgentPolicy{"coder": {
			Allow: []string{"group:web"}, ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"web_fetch", "exec"}}}}}},
			req: Request{Agent: "coder", Provider: "openai"}, want: []string{"web_fetch"}},
		{name: "chat group allow", cfg: Config{ChatGroups: map[string]GroupPolicy{"topic-1": {Allow: []string{"message", "web_search"}}}},
			req: Request{ChatGroup: "topic-1"}, want: []string{"message", "web_search"}},
		{name: "global deny group", cfg: Config{Deny: []string{"group:runtime"}},
			want: without(all, "exec", "credentialed_exec", "process")},
		{name: "agent deny", cfg: Config{Agents: map[string]AgentPolicy{"coder": {Deny: []string{"write_file"}}}},
			req: Request{Agent: "coder"}, want: without(all, "write_file")},
		{name: "deny beats allow", cfg: Config{Allow: []string{"exec", "read_file"}, Deny: []string{"exec"}},
			want: []string{"read_file"}},
		{name: "deny star", cfg: Config{Deny: []string{"*"}}, want: []string{}},
		{name: "alsoAllow re-adds after profile", cfg: Config{Profile: "minimal", AlsoAllow: []string{"cron"}},
			want: []string{"cron", "session_status"}},
		{name: "alsoAllow re-adds after allow lists", cfg: Config{Allow: []string{"read_file"},
			ChatGroups: map[string]GroupPolicy{"g": {Allow: []string{"message"}}}, AlsoAllow: []string{"group:web"}},
			req: Request{ChatGroup: "g"}, want: []string{"url_fetch", "web_fetch", "web_search"}},
		{name: "alsoAllow star re-adds everything", cfg: Config{Profile: "minimal", AlsoAllow: []string{"*"}}, want: all},
		{name: "alsoAllow cannot override group deny", cfg: Config{Profile: "minimal",
			Deny: []string{"group:automation"}, AlsoAllow: []string{"cron"}}, want: []string{"session_status"}},
		{name: "alsoAllow cannot override name deny", cfg: Config{Deny: []string{"exec"}, AlsoAllow: []string{"group:runtime"}},
			want: without(all, "exec")},
		{name: "agent alsoAllow cannot override global deny", cfg: Config{Profile: "minimal", Deny: []string{"cron"},
			Agents: map[string]AgentPolicy{"a": {AlsoAllow: []string{"cron", "datetime"}}}},
			req: Request{Agent: "a"}, want: []string{"datetime", "session_status"}},
		{name: "global alsoAllow cannot override agent deny", cfg: Config{Profile: "minimal", AlsoAllow: []string{"cron"},
			Agents: map[string]AgentPolicy{"a": {Deny: []string{"cron"}}}},
			req: Request{Agent: "a"}, want: []string{"session_status"}},
		{name: "alsoAllow adds only registered tools", cfg: Config{Profile: "minimal", AlsoAllow: []string{"not_registered"}},
			want: []string{"session_status"}},
		{name: "group mcp", cfg: Config{Allow: []string{"group:mcp"}},
			want: []string{"files_read", "github_create_issue", "github_list_prs"}},
		{name: "group mcp server", cfg: Config{Allow: []string{"group:mcp:github"}},
			want: []string{"github_create_issue", "github_list_prs"}},
		{name: "deny mcp server", cfg: Config{Deny: []string{"group:mcp:github"}},
			want: without(all, "github_create_issue", "github_list_prs")},
		{name: "group custom", cfg: Config{Allow: []string{"group:custom"}}, want: []string{"my_tool"}},
		{name: "deny warren leaves mcp and custom", cfg: Config{Deny: []string{"group:warren"}},
			want: []string{"files_read", "github_create_issue", "github_list_prs", "my_tool"}},
		{name: "undeclared native tool is in warren", cfg: Config{Allow: []string{"group:warren"}},
			wantIn: []string{"gateway", "exec"}, wantOut: []string{"my_tool", "files_read"}},
		{name: "subagent deny below max depth", req: Request{SubagentDepth: 1, MaxSpawnDepth: 2},
			wantIn:  []string{"spawn", "sessions_list", "exec"},
			wantOut: []string{"gateway", "session_status", "cron", "memory_search", "memory_get", "sessions_send"}},
		{name: "leaf deny at max depth", req: Request{SubagentDepth: 2, MaxSpawnDepth: 2},
			wantIn:  []string{"exec"},
			wantOut: []string{"cron", "spawn", "sessions_list", "sessions_history", "subagent"}},
		{name: "max spawn depth zero means default 1", req: Request{SubagentDepth: 1},
			wantOut: []string{"cron", "spawn"}},
		{name: "top level agent keeps subagent-denied tools", req: Request{MaxSpawnDepth: 1},
			wantIn: []string{"cron", "spawn", "session_status"}},
		{name: "custom subagent lists replace defaults", cfg: Config{Subagents: SubagentPolicy{Deny: []string{"exec"}, LeafDeny: []string{"group:web"}}},
			req: Request{SubagentDepth: 1, MaxSpawnDepth: 1}, wantIn: []string{"cron", "spawn"}, wantOut: []string{"exec", "web_fetch"}},
		{name: "subagent deny beats alsoAllow", cfg: Config{Profile: "minimal", AlsoAllow: []string{"cron"}},
			req: Request{SubagentDepth: 1, MaxSpawnDepth: 3}, want: []string{}},
		{name: "request allow intersects last", cfg: Config{Deny: []string{"exec"}},
			req: Request{RequestAllow: []string{"read_file", "exec", "group:mcp:files"}}, want: []string{"files_read", "read_file"}},
		{name: "request allow cannot widen profile", cfg: Config{Profile: "minimal"},
			req: Request{RequestAllow: []string{"exec"}}, want: []string{}},
		{name: "empty non-nil request allow allows nothing", req: Request{RequestAllow: []string{}}, want: []string{}},
		{name: "every step together", cfg: Config{
			Profile:    "coding",
			ByProvider: map[string]ProviderPolicy{"openai": {Allow: []string{"group:fs", "group:runtime", "group:web", "spawn"}}},
			Allow:      []string{"group:warren"},
			Deny:       []string{"credentialed_exec"},
			AlsoAllow:  []string{"cron", "credentialed_exec"},
			Agents: map[string]AgentPolicy{"coder": {
				Allow: []string{"group:fs", "group:runtime", "spawn", "web_fetch"}, Deny: []string{"delete_file"},
				AlsoAllow:  []string{"github_list_prs"},
				ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"read_file", "edit", "exec", "credentialed_exec", "spawn", "web_fetch", "delete_file"}}}}},
			ChatGroups: map[string]GroupPolicy{"dev": {Allow: []string{"read_file", "exec", "spawn", "web_fetch", "delete_file"}}},
		}, req: Request{Provider: "openai", Agent: "coder", ChatGroup: "dev", SubagentDepth: 1, MaxSpawnDepth: 1,
			RequestAllow: []string{"read_file", "web_fetch", "github_list_prs", "cron", "spawn"}},
			want: []string{"github_list_prs", "read_file", "web_fetch"}},
	}
}

func TestFilter(t *testing.T) {
	t.Parallel()
	tools := testTools()
	for _, tc := range filterCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := mustEngine(t, tc.cfg).Filter(tools, tc.req)
			if err != nil {
				t.Fatalf("Filter: %v", err)
			}
			got := d.Names()
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Fatalf("allowed = %v, want %v", got, tc.want)
			}
			if d.Len() != len(got) {
				t.Fatalf("Len = %d, Names has %d", d.Len(), len(got))
			}
			for _, n := range tc.wantIn {
				if !d.Allowed(n) {
					t.Errorf("%s not allowed; allowed = %v", n, got)
				}
			}
			for _, n := range tc.wantOut {
				if d.Allowed(n) {
					t.Errorf("%s allowed, want removed", n)
				}
			}
		})
	}
}

// TestExplainAgreesWithFilter checks that both entry points share one
// pipeline: every tool's explanation must reach Filter's verdict.
func TestExplainAgreesWithFilter(t *testing.T) {
	t.Parallel()
	tools := testTools()
	for _, tc := range filterCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := mustEngine(t, tc.cfg)
			d, err := e.Filter(tools, tc.req)
			if err != nil {
				t.Fatalf("Filter: %v", err)
			}
			for _, tool := range tools {
				x, err := e.Explain(tool.Name, tools, tc.req)
				if err != nil {
					t.Fatalf("Explain(%s): %v", tool.Name, err)
				}
				if x.Allowed != d.Allowed(tool.Name) {
					t.Fatalf("Explain(%s).Allowed = %v, Filter says %v\n%s", tool.Name, x.Allowed, d.Allowed(tool.Name), x)
				}
				if len(x.Steps) != int(StepRequestAllow) {
					t.Fatalf("Explain(%s) has %d steps, want %d", tool.Name, len(x.Steps), StepRequestAllow)
				}
			}
		})
	}
}

func TestFilterErrors(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, Config{})
	tests := []struct {
		name  string
		tools []ToolRef
		req   Request
		want  error
		quote string // the bad value the message must name
	}{
		{"unknown request profile", testTools(), Request{Profile: "codng"}, ErrUnknownProfile, `"codng"`},
		{"malformed request allow", testTools(), Request{RequestAllow: []string{"exec", "group:"}}, ErrInvalidEntry, `request_allow[1]`},
		{"glob in request allow", testTools(), Request{RequestAllow: []string{"mcp_*"}}, ErrInvalidEntry, `"mcp_*"`},
		{"negative depth", testTools(), Request{SubagentDepth: -1}, ErrInvalidRequest, "-1"},
		{"negative max depth", testTools(), Request{MaxSpawnDepth: -2}, ErrInvalidRequest, "-2"},
		{"duplicate tool", []ToolRef{{Name: "exec"}, {Name: "exec", Group: "runtime"}}, Request{}, ErrInvalidTool, `"exec"`},
		{"empty tool name", []ToolRef{{Name: ""}}, Request{}, ErrInvalidTool, "empty name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.Filter(tc.tools, tc.req)
			checkErr(t, err, tc.want, tc.quote)
			_, err = e.Explain("exec", tc.tools, tc.req)
			checkErr(t, err, tc.want, tc.quote)
		})
	}
}

func TestConcurrentFilter(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, Config{Profile: "coding", Deny: []string{"exec"}})
	tools := testTools()
	done := make(chan error, 8)
	for range 8 {
		go func() {
			for range 50 {
				d, err := e.Filter(tools, Request{SubagentDepth: 1})
				if err == nil && d.Allowed("exec") {
					err = errorf(ErrInvalidTool, "exec allowed")
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
