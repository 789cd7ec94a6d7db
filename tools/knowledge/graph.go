package knowledge

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools"
)

//go:embed knowledge_graph_search.md
var graphDoc string

// GraphParams are knowledge_graph_search's parameters.
type GraphParams struct {
	Query      string `json:"query,omitempty" description:"Words of the entity's name or description"`
	EntityType string `json:"entity_type,omitempty" description:"Only start from entities of this type"`
	EntityID   int64  `json:"entity_id,omitempty" description:"Start from this entity"`
	MaxDepth   int    `json:"max_depth,omitempty" description:"Hops to walk, 1-5 (default 2)"`
	AsOf       string `json:"as_of,omitempty" description:"Only facts valid on this date (2026-11-01)"`
}

func newGraphSearch(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "knowledge_graph_search", Group: "knowledge", LongDescription: graphDoc, Danger: tools.DangerSafe,
		Description: "Search the knowledge graph (people, projects, organizations, places and their relations) and walk it.",
	}, func(ctx context.Context, p GraphParams) (tools.Result, error) {
		agent, _ := identity(ctx)
		g, err := d.Memory.SearchGraph(ctx, mem.GraphQuery{Text: p.Query, Agent: agent, EntityType: p.EntityType,
			EntityID: p.EntityID, MaxDepth: p.MaxDepth, AsOf: p.AsOf})
		if errors.Is(err, mem.ErrBadGraph) {
			return tools.Errorf(tools.CodeValidation, "%v", err), nil
		}
		if errors.Is(err, mem.ErrNotFound) {
			return tools.Errorf(tools.CodeNotFound, "%v", err), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(FormatGraph(g)), nil
	})
}

// FormatGraph is the model's (and the CLI's) view of a graph search.
func FormatGraph(g mem.Graph) string {
	if len(g.Seeds) == 0 {
		return "No entity in the knowledge graph matches."
	}
	var b strings.Builder
	b.WriteString("Entities found:\n")
	for _, e := range append(append([]mem.Entity{}, g.Seeds...), g.Entities...) {
		fmt.Fprintf(&b, "- [%d] %s (%s)%s%s\n", e.ID, e.Name, e.Type, prefixed(": ", e.Description), interval(e.ValidFrom, e.ValidTo))
	}
	if len(g.Relations) == 0 {
		b.WriteString("No relations.")
		return b.String()
	}
	b.WriteString("Relations:\n")
	for _, r := range g.Relations {
		fmt.Fprintf(&b, "- %s —%s→ %s%s (hop %d)\n", r.SrcName, r.Type, r.DstName, interval(r.ValidFrom, r.ValidTo), r.Depth)
	}
	if g.Truncated {
		b.WriteString("(more relations exist: narrow the search or lower max_depth)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func interval(from, to string) string {
	if from == "" && to == "" {
		return ""
	}
	day := func(s string) string {
		if s == "" {
			return "…"
		}
		return strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "T00:00:00")
	}
	return fmt.Sprintf(" [%s – %s]", day(from), day(to))
}
