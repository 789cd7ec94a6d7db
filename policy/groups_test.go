package policy

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestGroupsOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool ToolRef
		want []string
	}{
		{ToolRef{Name: "read_file", Group: "fs"}, []string{"fs", "warren"}},
		{ToolRef{Name: "read_file"}, []string{"fs", "warren"}},                          // static table alone
		{ToolRef{Name: "exec", Group: "shell"}, []string{"runtime", "shell", "warren"}}, // union
		{ToolRef{Name: "gateway"}, []string{"warren"}},
		{ToolRef{Name: "create_issue", Group: "mcp:github"}, []string{"mcp", "mcp:github"}},
		{ToolRef{Name: "x", Group: "mcp"}, []string{"mcp"}},
		{ToolRef{Name: "my_tool", Group: "custom"}, []string{"custom"}},
		{ToolRef{Name: "current_time", Group: "automation"}, []string{"automation", "warren"}},
	}
	for _, tc := range tests {
		t.Run(tc.tool.Name+"/"+tc.tool.Group, func(t *testing.T) {
			t.Parallel()
			if got := GroupsOf(tc.tool); !slices.Equal(got, tc.want) {
				t.Fatalf("GroupsOf(%+v) = %v, want %v", tc.tool, got, tc.want)
			}
		})
	}
}

func TestStaticGroupsCoverSeed(t *testing.T) {
	t.Parallel()
	table := StaticGroups()
	want := map[string][]string{
		"fs":         {"read_file", "write_file", "list_files", "edit", "search", "glob", "delete_file", "get_file_info"},
		"runtime":    {"exec", "credentialed_exec", "process"},
		"sessions":   {"sessions_list", "sessions_history", "sessions_send", "spawn", "session_status"},
		"automation": {"cron", "datetime", "current_time"},
		"system":     {"get_env", "workspace_dir"},
		"teams":      {"team_tasks", "team_message"},
	}
	for group, tools := range want {
		for _, tool := range tools {
			if !slices.Contains(table[group], tool) {
				t.Errorf("group %s lacks %s", group, tool)
			}
		}
	}
	for _, g := range []string{"web", "memory", "knowledge", "messaging", "media_gen", "media_read", "skills"} {
		if len(table[g]) == 0 {
			t.Errorf("group %s missing", g)
		}
	}
	table["fs"] = nil
	if len(StaticGroups()["fs"]) == 0 {
		t.Fatal("StaticGroups returned shared state")
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	tools := testTools()
	got, err := Expand([]string{"group:mcp:github", "exec", "not_registered"}, tools)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"github_create_issue": true, "github_list_prs": true, "exec": true}
	if len(got) != len(want) {
		t.Fatalf("Expand = %v, want %v", got, want)
	}
	for n := range want {
		if !got[n] {
			t.Fatalf("Expand = %v, want %v", got, want)
		}
	}
	if all, _ := Expand([]string{"*"}, tools); len(all) != len(tools) {
		t.Fatalf("Expand(*) = %d tools, want %d", len(all), len(tools))
	}
	if none, err := Expand(nil, tools); err != nil || len(none) != 0 {
		t.Fatalf("Expand(nil) = %v, %v", none, err)
	}
	if _, err := Expand([]string{"group:"}, tools); err == nil {
		t.Fatal("Expand accepted a malformed entry")
	}
}

func TestProfiles(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles() {
		back, err := ParseProfile(p.String())
		if err != nil || back != p {
			t.Fatalf("ParseProfile(%q) = %v, %v", p, back, err)
		}
		// Profile tables are code, so a bad entry there must fail tests, not users.
		if _, err := compileEntries("profile", "profile", p.Entries()); err != nil {
			t.Fatalf("profile %s has a bad entry: %v", p, err)
		}
	}
	if ProfileFull.Entries() != nil {
		t.Fatal("full must not restrict")
	}
	if s := Profile(0).String(); s != "Profile(0)" {
		t.Fatalf("zero profile = %q", s)
	}
	if _, err := ParseProfile(""); err == nil {
		t.Fatal("ParseProfile(\"\") succeeded")
	}
	var p struct{ P Profile }
	if err := json.Unmarshal([]byte(`{"P":"messaging"}`), &p); err != nil || p.P != ProfileMessaging {
		t.Fatalf("unmarshal = %v, %v", p.P, err)
	}
	if err := json.Unmarshal([]byte(`{"P":"max"}`), &p); err == nil {
		t.Fatal("unmarshal accepted an unknown profile")
	}
	if _, err := json.Marshal(struct{ P Profile }{}); err == nil {
		t.Fatal("marshal accepted the zero profile")
	}
}
