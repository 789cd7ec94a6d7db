package fs

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed edit.md
var editDoc string

// EditParams are the arguments of edit.
type EditParams struct {
	Path       string `json:"path" description:"File to change"`
	OldText    string `json:"old_text" description:"Exact text to replace, including whitespace; must occur once unless replace_all is set"`
	NewText    string `json:"new_text" description:"Replacement text (may be empty to delete old_text)"`
	ReplaceAll bool   `json:"replace_all,omitempty" description:"Replace every occurrence instead of requiring exactly one"`
}

func newEdit(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "edit",
		Group:           group,
		Description:     "Replace exact text in a file: one unique occurrence, or all with replace_all.",
		LongDescription: editDoc,
		Danger:          tools.DangerWarning,
	}, e.edit)
}

func (e *env) edit(ctx context.Context, p EditParams) (tools.Result, error) {
	if p.OldText == "" {
		return tools.Errorf(tools.CodeValidation, "old_text must not be empty; use write_file to create or replace a whole file"), nil
	}
	if p.OldText == p.NewText {
		return tools.Errorf(tools.CodeValidation, "old_text and new_text are identical; nothing would change"), nil
	}
	res, fail, ok := e.resolve(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	content, handled, err := e.interceptRead(ctx, res)
	if err != nil {
		return interceptorFailure(name, "read", err)
	}
	if !handled {
		if content, fail, ok = e.readDisk(res); !ok {
			return fail, nil
		}
	}
	n := strings.Count(content, p.OldText)
	switch {
	case n == 0:
		return tools.Errorf(tools.CodeValidation, "old_text not found in %s", name), nil
	case n > 1 && !p.ReplaceAll:
		return tools.Errorf(tools.CodeValidation, "old_text occurs %d times in %s; add context or set replace_all", n, name), nil
	}
	updated := strings.ReplaceAll(content, p.OldText, p.NewText)
	// Only growth past the write limit is refused: shrinking or same-size
	// edits of an already large file stay possible.
	if int64(len(updated)) > e.maxWrite && len(updated) > len(content) {
		return tools.Errorf(tools.CodeValidation, "the edited %s would be %s, over the write limit", name, humanBytes(int64(len(updated)))), nil
	}
	// A file served by an interceptor is written back through the chain,
	// where the same interceptor takes it.
	if handled {
		if _, err := e.interceptWrite(ctx, res, updated, false); err != nil {
			return interceptorFailure(name, "write", err)
		}
	} else if fail, ok := e.writeDisk(res, []byte(updated), false); !ok {
		return fail, nil
	}
	msg := fmt.Sprintf("Replaced %d occurrence(s) in %s", n, name)
	if n == 1 {
		msg = fmt.Sprintf("Replaced 1 occurrence in %s", name)
	}
	return tools.Text(msg), nil
}
