package memory

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed memory_get.md
var memoryGetDoc string

// maxGetLines bounds one memory_get answer.
const maxGetLines = 2000

// MemoryGetParams are the parameters of memory_get.
type MemoryGetParams struct {
	Path  string `json:"path" description:"The memory document, e.g. MEMORY.md or memory/notes.md"`
	From  int    `json:"from,omitempty" description:"First line to show (1-based, default 1)"`
	Lines int    `json:"lines,omitempty" description:"How many lines to show (default all, at most 2000)"`
}

func newMemoryGet(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "memory_get", Group: "memory", LongDescription: memoryGetDoc, Danger: tools.DangerSafe,
		Description: "Read a memory document (your user's copy first, then yours, then the global one), or a window of its lines.",
	}, func(ctx context.Context, p MemoryGetParams) (tools.Result, error) {
		if p.From < 0 || p.Lines < 0 {
			return tools.Errorf(tools.CodeValidation, "from and lines cannot be negative"), nil
		}
		agent, user := d.identity(ctx)
		doc, ok, err := d.Store.Resolve(ctx, agent, user, p.Path)
		if err != nil {
			return tools.Errorf(tools.CodeValidation, "%v", err), nil
		}
		if !ok {
			return tools.Errorf(tools.CodeNotFound, "no memory document %q: memory_search lists what there is", p.Path), nil
		}
		lines := strings.Split(doc.Content, "\n")
		from := max(p.From, 1)
		if from > len(lines) {
			return tools.Errorf(tools.CodeValidation, "%s has %d lines; from %d is past its end", doc.Path, len(lines), from), nil
		}
		n := p.Lines
		if n == 0 || n > maxGetLines {
			n = maxGetLines
		}
		to := min(from-1+n, len(lines))
		where := "global"
		switch {
		case doc.User != "":
			where = "your user's copy"
		case doc.Agent != "":
			where = "yours"
		}
		head := fmt.Sprintf("%s (%s, version %d): lines %d-%d of %d", doc.Path, where, doc.Version, from, to, len(lines))
		return tools.Text(head + "\n" + strings.Join(lines[from-1:to], "\n")), nil
	})
}
