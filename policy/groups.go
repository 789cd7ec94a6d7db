package policy

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// Dynamic group names. They are derived from a tool's declared group rather
// than listed in the static table, because MCP and custom tools appear at run time.
const (
	// GroupMCP holds every tool bridged from any MCP server.
	GroupMCP = "mcp"
	// GroupCustom holds user-defined custom tools.
	GroupCustom = "custom"
	// GroupWarren is the composite group of all native tools (neither MCP nor custom).
	GroupWarren = "warren"
)

// groupPrefix marks a group reference inside an allow/deny list ("group:fs").
const groupPrefix = "group:"

// mcpGroupPrefix starts the per-server MCP group ("mcp:github").
const mcpGroupPrefix = GroupMCP + ":"

// staticGroupTable is the single place that says which built-in tool belongs
// to which group (seed §5 plus Warren's own tools). Extend it here when a
// built-in tool is added; a tool may also declare its group in its ToolRef.
// It returns a fresh map so no caller can mutate shared state.
func staticGroupTable() map[string][]string {
	return map[string][]string{
		"fs":         {"read_file", "write_file", "list_files", "edit", "search", "glob", "delete_file", "get_file_info"},
		"runtime":    {"exec", "credentialed_exec", "process"},
		"web":        {"web_search", "web_fetch", "url_fetch"},
		"ui":         {"browser"},
		"memory":     {"memory_search", "memory_get"},
		"sessions":   {"sessions_list", "sessions_history", "sessions_send", "spawn", "session_status"},
		"knowledge":  {"knowledge_graph_search", "skill_search", "tool_search", "search_documents", "search_history", "search_system_knowledge"},
		"automation": {"cron", "datetime", "current_time", "plan_create", "todo_update"},
		"messaging":  {"message", "create_forum_topic"},
		"teams":      {"team_tasks", "team_message"},
		"media_gen":  {"create_image", "create_audio", "create_video", "tts", "openai_compat_call"},
		"media_read": {"read_image", "read_audio", "read_document", "read_video"},
		"skills":     {"use_skill", "publish_skill"},
		"system":     {"get_env", "workspace_dir"},
	}
}

// staticIndex maps a tool name to its static groups; computed once and never
// mutated, so sharing it across goroutines is safe.
var staticIndex = sync.OnceValue(func() map[string][]string {
	idx := make(map[string][]string)
	for group, tools := range staticGroupTable() {
		for _, tool := range tools {
			idx[tool] = append(idx[tool], group)
		}
	}
	for _, groups := range idx {
		slices.Sort(groups) // deterministic order for traces
	}
	return idx
})

// StaticGroups returns a copy of the built-in group table (group name → tool names).
func StaticGroups() map[string][]string {
	return maps.Clone(staticGroupTable())
}

// MCPGroup returns the group name of the tools bridged from one MCP server.
func MCPGroup(server string) string {
	return mcpGroupPrefix + server
}

// ToolRef identifies a registered tool and the group it declares.
type ToolRef struct {
	// Name is the unique tool name the LLM sees.
	Name string `json:"name"`
	// Group is the declared group, e.g. "fs", "mcp:github" or "custom"; may be empty.
	Group string `json:"group,omitempty"`
}

// GroupsOf returns every group the tool belongs to, sorted.
func GroupsOf(tool ToolRef) []string {
	groups := appendGroups(nil, tool, staticIndex())
	slices.Sort(groups)
	return groups
}

// isNative reports whether a declared group denotes a built-in tool: the
// composite "warren" group must never grant MCP or custom tools.
func isNative(declared string) bool {
	return declared != GroupMCP && declared != GroupCustom && !strings.HasPrefix(declared, mcpGroupPrefix)
}

// appendGroups appends the tool's groups (static ∪ declared ∪ derived) to dst
// without duplicates. It appends instead of returning a new slice so Filter can
// pack all tools' groups into one allocation.
func appendGroups(dst []string, tool ToolRef, static map[string][]string) []string {
	start := len(dst)
	add := func(g string) {
		if g != "" && !slices.Contains(dst[start:], g) {
			dst = append(dst, g)
		}
	}
	for _, g := range static[tool.Name] {
		add(g)
	}
	add(tool.Group)
	switch {
	case strings.HasPrefix(tool.Group, mcpGroupPrefix):
		add(GroupMCP)
	case isNative(tool.Group):
		add(GroupWarren)
	}
	return dst
}
