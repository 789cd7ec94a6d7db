package policy

import (
	"maps"
	"slices"
	"testing"
)

// testTools is a realistic registry: every static tool under its own group,
// plus native tools without a group, two MCP servers and a custom tool.
func testTools() []ToolRef {
	var tools []ToolRef
	seen := map[string]bool{}
	table := StaticGroups()
	for _, group := range slices.Sorted(maps.Keys(table)) {
		for _, name := range table[group] {
			if !seen[name] {
				seen[name] = true
				tools = append(tools, ToolRef{Name: name, Group: group})
			}
		}
	}
	return append(tools,
		ToolRef{Name: "gateway"}, // native, no declared group
		ToolRef{Name: "subagent", Group: "sessions"},
		ToolRef{Name: "github_create_issue", Group: "mcp:github"},
		ToolRef{Name: "github_list_prs", Group: "mcp:github"},
		ToolRef{Name: "files_read", Group: "mcp:files"},
		ToolRef{Name: "my_tool", Group: GroupCustom},
	)
}

func toolNames(tools []ToolRef) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	slices.Sort(names)
	return names
}

func mustEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := NewEngine(cfg)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	return e
}

// without returns all names minus the given ones, sorted.
func without(all []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(all), func(n string) bool { return slices.Contains(drop, n) })
}
