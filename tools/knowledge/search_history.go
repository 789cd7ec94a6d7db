package knowledge

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

//go:embed search_history.md
var searchHistoryDoc string

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
	// By words matched, then the store's order (newest first).
	slices.SortStableFunc(out, func(a, b historyHit) int { return b.words - a.words })
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
