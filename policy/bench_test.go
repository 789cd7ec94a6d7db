package policy

import (
	"fmt"
	"testing"
)

// benchTools is a 200-tool registry: the native tools plus MCP tools from
// several servers, the size the brief sets the performance target for.
func benchTools() []ToolRef {
	tools := testTools()
	for i := 0; len(tools) < 200; i++ {
		tools = append(tools, ToolRef{Name: fmt.Sprintf("srv%d_tool%d", i%5, i), Group: MCPGroup(fmt.Sprintf("srv%d", i%5))})
	}
	return tools
}

func BenchmarkFilter200(b *testing.B) {
	e, err := NewEngine(Config{
		Profile:    "coding",
		ByProvider: map[string]ProviderPolicy{"openai": {Allow: []string{"group:warren", "group:mcp"}}},
		Deny:       []string{"group:mcp:srv3", "credentialed_exec"},
		AlsoAllow:  []string{"group:mcp:srv1", "cron"},
		Agents: map[string]AgentPolicy{"coder": {
			Allow: []string{"group:fs", "group:runtime", "group:web", "group:mcp"}, Deny: []string{"delete_file"},
		}},
	})
	if err != nil {
		b.Fatal(err)
	}
	tools := benchTools()
	req := Request{Provider: "openai", Agent: "coder", SubagentDepth: 1, MaxSpawnDepth: 2}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Filter(tools, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExplain200(b *testing.B) {
	e, err := NewEngine(Config{Profile: "coding", Deny: []string{"group:mcp:srv3"}})
	if err != nil {
		b.Fatal(err)
	}
	tools := benchTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Explain("exec", tools, Request{}); err != nil {
			b.Fatal(err)
		}
	}
}
