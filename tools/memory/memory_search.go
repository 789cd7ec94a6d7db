package memory

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools"
)

//go:embed memory_search.md
var memorySearchDoc string

// MemorySearchParams are the parameters of memory_search.
type MemorySearchParams struct {
	Query      string  `json:"query" description:"What to look for"`
	MaxResults int     `json:"max_results,omitempty" description:"How many hits to show (default 6, at most 50)"`
	MinScore   float64 `json:"min_score,omitempty" description:"Drop hits scoring below this (0-1); exact matches stay"`
	Scope      string  `json:"scope,omitempty" enum:"user|agent|global" description:"Only the user's copies, the agent's documents or the global ones"`
	PathPrefix string  `json:"path_prefix,omitempty" description:"Only documents whose path starts with this"`
	Since      string  `json:"since,omitempty" description:"Only documents changed at or after this date (RFC 3339)"`
	Until      string  `json:"until,omitempty" description:"Only documents changed before this date (RFC 3339)"`
}

func newMemorySearch(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "memory_search", Group: "memory", LongDescription: memorySearchDoc, Danger: tools.DangerSafe,
		Description: "Search your memory documents (MEMORY.md, memory/**.md and global ones) by keywords and meaning; returns paths, lines, scores and snippets.",
	}, func(ctx context.Context, p MemorySearchParams) (tools.Result, error) {
		if strings.TrimSpace(p.Query) == "" {
			return tools.Errorf(tools.CodeValidation, "memory_search needs a query"), nil
		}
		if p.MaxResults < 0 || p.MaxResults > 50 {
			return tools.Errorf(tools.CodeValidation, "max_results must be between 1 and 50, not %d", p.MaxResults), nil
		}
		since, err := parseDate("since", p.Since)
		if err != nil {
			return tools.Errorf(tools.CodeValidation, "%v", err), nil
		}
		until, err := parseDate("until", p.Until)
		if err != nil {
			return tools.Errorf(tools.CodeValidation, "%v", err), nil
		}
		agent, user := d.identity(ctx)
		res, err := d.Store.Search(ctx, mem.Query{Text: p.Query, Agent: agent, User: user, MaxResults: p.MaxResults,
			MinScore: p.MinScore, Scope: mem.Scope(p.Scope), PathPrefix: p.PathPrefix, Since: since, Until: until,
			Sources: []mem.Source{mem.SourceMemory}})
		if err != nil {
			if errors.Is(err, mem.ErrBadQuery) {
				return tools.Errorf(tools.CodeValidation, "%v", err), nil
			}
			return tools.Result{}, err
		}
		return tools.Text(FormatResult(res)), nil
	})
}

func (d Deps) identity(ctx context.Context) (agent, user string) {
	agent, user = tools.AgentFrom(ctx), tools.UserFrom(ctx)
	if agent == "" {
		agent = d.DefaultAgent
	}
	if user == "" {
		user = d.DefaultUser
	}
	return agent, user
}

func parseDate(name, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s %q is not a date: use 2026-11-01 or 2026-11-01T09:00:00Z", name, s)
}

// FormatResult is the model's view: the mode first, then one block per hit.
func FormatResult(r mem.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mode: %s", r.Mode)
	if r.Note != "" {
		fmt.Fprintf(&b, " (%s)", r.Note)
	}
	b.WriteString("\n")
	for i, h := range r.Hits {
		where := "global"
		switch {
		case h.User != "":
			where = "your user's copy"
		case h.Agent != "":
			where = "yours"
		}
		fmt.Fprintf(&b, "\n%d. %s lines %d-%d (%s) score %.2f [keyword rank %s, vector rank %s]", i+1, h.Path,
			h.StartLine, h.EndLine, where, h.Score, rank(h.KeywordRank), rank(h.VectorRank))
		if h.Exact {
			b.WriteString(" exact match")
		}
		if h.Heading != "" {
			fmt.Fprintf(&b, "\n   section: %s", h.Heading)
		}
		fmt.Fprintf(&b, "\n   %s\n", h.Snippet)
	}
	return strings.TrimRight(b.String(), "\n")
}

func rank(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
