package knowledge

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
	memtools "github.com/warren-dev/warren/tools/memory"
)

//go:embed search_documents.md
var searchDocumentsDoc string

//go:embed search_history.md
var searchHistoryDoc string

//go:embed search_system_knowledge.md
var searchSystemDoc string

// Top-k defaults and bound (seed 004).
const (
	defaultHistoryTopK   = 3
	defaultDocumentsTopK = 5
	defaultSystemTopK    = 3
	maxTopK              = 10
)

// History finds an agent's past conversations.
type History interface {
	Search(ctx context.Context, agent, query string, limit int) ([]sessions.SearchHit, error)
}

// Deps configures search_documents, search_history and
// search_system_knowledge.
type Deps struct {
	Memory  *mem.Store
	History History
	// System, when set, makes sure Warren's docs are in the store (and
	// embedded) before search_system_knowledge searches them.
	System func(ctx context.Context) error
}

// Tools builds the knowledge searches: documents, history, Warren's docs
// and the knowledge graph.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Memory == nil || d.History == nil {
		return nil, errors.New("knowledge tools: no memory store or session history")
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newSearchDocuments, newSearchHistory, newSearchSystem, newGraphSearch} {
		t, err := b(d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// SearchParams are the parameters of the three searches.
type SearchParams struct {
	Query string `json:"query" description:"What to look for, in your own words"`
	TopK  int    `json:"top_k,omitempty" description:"How many results (at most 10)"`
}

func topK(p SearchParams, def int) (int, *tools.Result) {
	if strings.TrimSpace(p.Query) == "" {
		r := tools.Errorf(tools.CodeValidation, "a search needs a query")
		return 0, &r
	}
	switch {
	case p.TopK == 0:
		return def, nil
	case p.TopK < 0 || p.TopK > maxTopK:
		r := tools.Errorf(tools.CodeValidation, "top_k must be between 1 and %d, not %d", maxTopK, p.TopK)
		return 0, &r
	}
	return p.TopK, nil
}

func identity(ctx context.Context) (agent, user string) {
	agent, user = tools.AgentFrom(ctx), tools.UserFrom(ctx)
	if agent == "" {
		agent = "default"
	}
	if user == "" {
		user = "local"
	}
	return agent, user
}

func newSearchDocuments(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "search_documents", Group: "knowledge", LongDescription: searchDocumentsDoc, Danger: tools.DangerSafe,
		Description: "Search the folders the user imported (notes, docs, code) by keywords and meaning; returns paths, lines and snippets.",
	}, func(ctx context.Context, p SearchParams) (tools.Result, error) {
		k, bad := topK(p, defaultDocumentsTopK)
		if bad != nil {
			return *bad, nil
		}
		agent, user := identity(ctx)
		res, err := d.Memory.Search(ctx, mem.Query{Text: p.Query, Agent: agent, User: user, MaxResults: k,
			Sources: []mem.Source{mem.SourceImport}})
		if err != nil {
			return tools.Result{}, err
		}
		if len(res.Hits) == 0 {
			folders, _ := d.Memory.Folders(ctx)
			if len(folders) == 0 {
				return tools.Text("No folders are imported yet: the user adds them in the Memory tab or with `warren memory import DIR`."), nil
			}
		}
		return tools.Text(memtools.FormatResult(res)), nil
	})
}

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
		res, err := d.Memory.Search(ctx, mem.Query{Text: p.Query, Agent: "", MaxResults: k, Scope: mem.ScopeGlobal,
			Sources: []mem.Source{mem.SourceSystem}})
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(memtools.FormatResult(res)), nil
	})
}

func newSearchHistory(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "search_history", Group: "knowledge", LongDescription: searchHistoryDoc, Danger: tools.DangerSafe,
		Description: "Search your past conversations with the user; returns the conversations with the matching words in context.",
	}, func(ctx context.Context, p SearchParams) (tools.Result, error) {
		k, bad := topK(p, defaultHistoryTopK)
		if bad != nil {
			return *bad, nil
		}
		agent, _ := identity(ctx)
		hits, err := searchHistory(ctx, d.History, agent, p.Query, k)
		if err != nil {
			return tools.Result{}, err
		}
		if len(hits) == 0 {
			return tools.Text(fmt.Sprintf("No earlier conversation of yours mentions %q.", p.Query)), nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d conversation(s), best first:\n", len(hits))
		for i, h := range hits {
			fmt.Fprintf(&b, "\n%d. %q (session %s, %s, matched %d of the query's words)\n   %s\n", i+1, h.hit.Session.Title,
				h.hit.Session.ID, h.hit.Session.Updated, h.words, h.hit.Snippet)
		}
		return tools.Text(strings.TrimRight(b.String(), "\n")), nil
	})
}

type historyHit struct {
	hit   sessions.SearchHit
	words int
	order int
}

// searchHistory finds the conversations holding the whole query, then
// those holding most of its words, newest first among equals.
func searchHistory(ctx context.Context, h History, agent, query string, k int) ([]historyHit, error) {
	byID := map[string]*historyHit{}
	var order []string
	add := func(hits []sessions.SearchHit, weight int) {
		for _, x := range hits {
			if cur := byID[x.Session.ID]; cur != nil {
				cur.words += weight
				continue
			}
			byID[x.Session.ID] = &historyHit{hit: x, words: weight, order: len(order)}
			order = append(order, x.Session.ID)
		}
	}
	whole, err := h.Search(ctx, agent, query, 50)
	if err != nil {
		return nil, err
	}
	words := significantWords(query)
	add(whole, len(words)+1)
	for _, w := range words {
		hits, err := h.Search(ctx, agent, w, 50)
		if err != nil {
			return nil, err
		}
		add(hits, 1)
	}
	out := make([]historyHit, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	// Stable by words matched, then the store's order (newest first).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].words > out[j-1].words; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// significantWords are the query's words worth searching alone: three
// letters or more, not among the commonest, at most eight.
func significantWords(q string) []string {
	common := map[string]bool{"the": true, "and": true, "for": true, "with": true, "that": true, "this": true, "what": true,
		"when": true, "where": true, "which": true, "who": true, "how": true, "did": true, "does": true, "was": true, "were": true,
		"you": true, "your": true, "about": true, "from": true, "have": true, "has": true, "our": true, "are": true}
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r <= 127
	}) {
		if len(w) < 3 || common[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == 8 {
			break
		}
	}
	return out
}
