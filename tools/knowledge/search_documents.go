package knowledge

import (
	"context"
	_ "embed"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools"
)

//go:embed search_documents.md
var searchDocumentsDoc string

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
		res, text, err := searchMemory(ctx, d.Memory, mem.Query{Text: p.Query, Agent: agent, User: user, MaxResults: k,
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
		return tools.Text(text), nil
	})
}
