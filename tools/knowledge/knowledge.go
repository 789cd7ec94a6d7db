package knowledge

import (
	"context"
	"errors"
	"strings"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
	memtools "github.com/warren-dev/warren/tools/memory"
)

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

// searchMemory runs q and formats its hits for the model.
func searchMemory(ctx context.Context, m *mem.Store, q mem.Query) (mem.Result, string, error) {
	res, err := m.Search(ctx, q)
	if err != nil {
		return mem.Result{}, "", err
	}
	return res, memtools.FormatResult(res), nil
}
