// Package knowledge holds tools that find things for the model: today
// tool_search, the door to deferred MCP tools.
package knowledge

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed tool_search.md
var toolSearchDoc string

// Catalog is the set of deferred tools the calling agent may use.
type Catalog interface {
	// Deferred lists the deferred tools the call's agent is allowed to use.
	Deferred(ctx context.Context) ([]tools.Info, error)
	// Load makes tools callable-and-listed for the call's session.
	Load(ctx context.Context, names []string)
}

// ToolSearchParams are tool_search's parameters.
type ToolSearchParams struct {
	Query string   `json:"query,omitempty" description:"words to find in tool names and descriptions; empty lists every deferred tool"`
	Load  []string `json:"load,omitempty" description:"tool names to load: their schemas are returned and they become callable in this session"`
	Limit int      `json:"limit,omitempty" description:"maximum number of matches (default 20)"`
}

// NewToolSearch builds tool_search over a catalog.
func NewToolSearch(c Catalog) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "tool_search", Group: "knowledge", LongDescription: toolSearchDoc,
		Description: "Search tools that are not loaded yet (large MCP servers) and load the ones you need.",
	}, func(ctx context.Context, p ToolSearchParams) (tools.Result, error) {
		all, err := c.Deferred(ctx)
		if err != nil {
			return tools.Result{}, err
		}
		if len(p.Load) > 0 {
			return load(ctx, c, all, p.Load)
		}
		return search(all, p.Query, p.Limit), nil
	})
}

func search(all []tools.Info, query string, limit int) tools.Result {
	if limit <= 0 {
		limit = 20
	}
	if len(all) == 0 {
		return tools.Text("No deferred tools are available to you.")
	}
	type hit struct {
		info  tools.Info
		score int
	}
	words := strings.Fields(strings.ToLower(query))
	var hits []hit
	for _, t := range all {
		hay := strings.ToLower(t.Name + " " + t.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(hay, w) {
				score++
				if strings.Contains(strings.ToLower(t.Name), w) {
					score++
				}
			}
		}
		if len(words) == 0 || score > 0 {
			hits = append(hits, hit{t, score})
		}
	}
	if len(hits) == 0 {
		return tools.Text(fmt.Sprintf("No deferred tool matches %q (%d deferred tools in total; try other words or an empty query).", query, len(all)))
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(a.info.Name, b.info.Name)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d matching tools", len(hits))
	if len(hits) > limit {
		fmt.Fprintf(&b, " (showing %d)", limit)
		hits = hits[:limit]
	}
	b.WriteString(". Load the ones you need with tool_search {\"load\": [names]}.\n")
	for _, h := range hits {
		fmt.Fprintf(&b, "- %s: %s\n", h.info.Name, tools.FirstLine(h.info.Description, 157))
	}
	return tools.Text(strings.TrimRight(b.String(), "\n"))
}

func load(ctx context.Context, c Catalog, all []tools.Info, names []string) (tools.Result, error) {
	byName := map[string]tools.Info{}
	for _, t := range all {
		byName[t.Name] = t
	}
	type loaded struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	var out []loaded
	var unknown, ok []string
	for _, n := range names {
		t, found := byName[n]
		if !found {
			unknown = append(unknown, n)
			continue
		}
		schema := json.RawMessage(`{"type":"object"}`)
		if t.Schema != nil {
			schema = t.Schema.JSON()
		}
		out = append(out, loaded{Name: t.Name, Description: t.LongDescription, Parameters: schema})
		ok = append(ok, n)
	}
	if len(ok) == 0 {
		return tools.Errorf(tools.CodeNotFound, "no deferred tool named %s; search first with tool_search {\"query\": \"…\"}", strings.Join(unknown, ", ")), nil
	}
	c.Load(ctx, ok)
	body, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return tools.Result{}, fmt.Errorf("tool_search: encode schemas: %w", err)
	}
	msg := fmt.Sprintf("Loaded %s; call them directly from now on.\n%s", strings.Join(ok, ", "), body)
	if len(unknown) > 0 {
		msg += fmt.Sprintf("\nNot found: %s.", strings.Join(unknown, ", "))
	}
	return tools.Text(msg), nil
}
