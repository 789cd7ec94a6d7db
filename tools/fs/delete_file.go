package fs

import (
	"context"
	_ "embed"
	"fmt"
	"os"

	"github.com/warren-dev/warren/tools"
)

//go:embed delete_file.md
var deleteFileDoc string

// DeleteFileParams are the arguments of delete_file.
type DeleteFileParams struct {
	Path string `json:"path" description:"File to delete permanently (directories are refused)"`
}

func newDeleteFile(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "delete_file",
		Group:           group,
		Description:     "Permanently delete one file (not a directory).",
		LongDescription: deleteFileDoc,
		Danger:          tools.DangerDangerous,
	}, e.deleteFile)
}

func (e *env) deleteFile(ctx context.Context, p DeleteFileParams) (tools.Result, error) {
	res, fail, ok := e.resolve(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	if res.Rel == "." {
		return tools.Errorf(tools.CodeSecurity, "refusing to delete the root of %s", rootName(res.Alias)), nil
	}
	// Lstat, and remove Abs rather than Real: deleting a symlink removes the
	// link, as rm does, never the file it points to.
	fi, err := os.Lstat(res.Abs)
	if err != nil {
		return failure(name, "delete", err), nil
	}
	if fi.IsDir() {
		return tools.Errorf(tools.CodeValidation, "%s is a directory; delete_file only deletes files", name), nil
	}
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
