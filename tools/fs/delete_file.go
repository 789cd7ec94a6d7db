package fs

import (
	"context"
	_ "embed"
	"fmt"
	"os"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

//go:embed delete_file.md
var deleteFileDoc string

// DeleteFileParams are the arguments of delete_file.
type DeleteFileParams struct {
	Path string `json:"path" description:"File to delete permanently (directories are refused)"`
}

func newDeleteFile(e *env) (tools.Tool, error) {
	// The checks also run before the approval prompt, so nobody is asked
	// to approve deleting a path that would be refused.
	check := func(ctx context.Context, p DeleteFileParams) (tools.Result, bool) {
		_, fail, ok := e.deletable(ctx, p.Path)
		return fail, ok
	}
	return tools.NewWithPrecheck(tools.Spec{
		Name:            "delete_file",
		Group:           group,
		Description:     "Permanently delete one file (not a directory).",
		LongDescription: deleteFileDoc,
		Danger:          tools.DangerDangerous,
	}, check, e.deleteFile)
}

// deletable resolves a path and checks it names an existing file.
func (e *env) deletable(ctx context.Context, path string) (paths.Resolved, tools.Result, bool) {
	res, fail, ok := e.resolve(ctx, path)
	if !ok {
		return res, fail, false
	}
	name := res.Display()
	if res.Rel == "." {
		return res, tools.Errorf(tools.CodeSecurity, "refusing to delete the root of %s", rootName(res.Alias)), false
	}
	// Lstat, and remove Abs rather than Real: deleting a symlink removes the
	// link, as rm does, never the file it points to.
	fi, err := os.Lstat(res.Abs)
	if err != nil {
		return res, failure(name, "delete", err), false
	}
	if fi.IsDir() {
		return res, tools.Errorf(tools.CodeValidation, "%s is a directory; delete_file only deletes files", name), false
	}
	return res, tools.Result{}, true
}

func (e *env) deleteFile(ctx context.Context, p DeleteFileParams) (tools.Result, error) {
	res, fail, ok := e.deletable(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	if err := os.Remove(res.Abs); err != nil {
		return failure(name, "delete", err), nil
	}
	return tools.Text(fmt.Sprintf("Deleted %s", name)), nil
}

func rootName(alias string) string {
	if alias == "" {
		return "the workspace"
	}
	return alias
}
