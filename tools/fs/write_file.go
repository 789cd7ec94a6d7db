package fs

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

//go:embed write_file.md
var writeFileDoc string

// WriteFileParams are the arguments of write_file.
type WriteFileParams struct {
	Path    string `json:"path" description:"File to write: relative to the workspace, absolute inside it, or file_cache_dir/<path> / file_state_dir/<path>"`
	Content string `json:"content" description:"Text to write"`
	Mode    string `json:"mode,omitempty" description:"overwrite (default) replaces the file; append adds to its end" enum:"overwrite|append"`
}

func newWriteFile(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "write_file",
		Group:           group,
		Description:     "Create or overwrite a text file, or append to it; parent directories are created.",
		LongDescription: writeFileDoc,
		Danger:          tools.DangerWarning,
	}, e.writeFile)
}

func (e *env) writeFile(ctx context.Context, p WriteFileParams) (tools.Result, error) {
	appendMode := false
	switch p.Mode {
	case "", "overwrite":
	case "append":
		appendMode = true
	default:
		return tools.Errorf(tools.CodeValidation, "mode must be overwrite or append, got %q", p.Mode), nil
	}
	if int64(len(p.Content)) > e.maxWrite {
		return tools.Errorf(tools.CodeValidation, "content is %s, over the %s write limit",
			humanBytes(int64(len(p.Content))), humanBytes(e.maxWrite)), nil
	}
	res, fail, ok := e.resolve(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	verb := "Wrote"
	if appendMode {
		verb = "Appended"
	}
	done := tools.Text(fmt.Sprintf("%s %d bytes to %s", verb, len(p.Content), name))

	handled, err := e.interceptWrite(ctx, res, p.Content, appendMode)
	if err != nil {
		return interceptorFailure(name, "write", err)
	}
	if handled {
		return done, nil
	}
	if fail, ok := e.writeDisk(res, []byte(p.Content), appendMode); !ok {
		return fail, nil
	}
	return done, nil
}

// writeDisk writes or appends data to the file res leads to, through its
// root, creating missing parent directories inside the root.
func (e *env) writeDisk(res paths.Resolved, data []byte, appendMode bool) (tools.Result, bool) {
	name := res.Display()
	r, fail, ok := e.target(res, "write", true)
	if !ok {
		return fail, false
	}
	defer r.Close()
	// A friendly refusal first; openRegular checks again on the descriptor.
	if fi, err := r.root.Stat(r.name); err == nil && fi.IsDir() {
		return tools.Errorf(tools.CodeValidation, "%s is a directory; give a file path", name), false
	} else if err == nil && !fi.Mode().IsRegular() {
		return tools.Errorf(tools.CodeValidation, "%s is not a regular file (%s)", name, fi.Mode().Type()), false
	}
	if dir := filepath.Dir(r.name); dir != "." {
		if err := r.root.MkdirAll(dir, 0o755); err != nil {
			return failure(name, "create the parent directory of", err), false
		}
	}
	if appendMode {
		return e.appendFile(r, data)
	}
	return e.writeAtomic(r, data)
}
