package knowledge

import (
	"context"
	_ "embed"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools"
)

//go:embed search_system_knowledge.md
var searchSystemDoc string

func newSearchSystem(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "search_system_knowledge", Group: "knowledge", LongDescription: searchSystemDoc, Danger: tools.DangerSafe,
		Description: "Search Warren's own documentation (how Warren, its tools, sandbox, MCP manager, teams and memory work).",
	}, func(ctx context.Context, p SearchParams) (tools.Result, error) {
		k, bad := topK(p, defaultSystemTopK)
		if bad != nil {
			return *bad, nil
		}
		if d.System != nil {
			if err := d.System(ctx); err != nil {
				return tools.Errorf(tools.CodeExecution, "Warren's documentation could not be indexed: %v", err), nil
			}
		}
		_, text, err := searchMemory(ctx, d.Memory, mem.Query{Text: p.Query, Agent: "", MaxResults: k, Scope: mem.ScopeGlobal,
			Sources: []mem.Source{mem.SourceSystem}})
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(text), nil
	})
}
