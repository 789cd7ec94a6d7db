package fs

import (
	"context"
	_ "embed"
	"fmt"
	iofs "io/fs"

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
		r, fail, ok := e.deletable(ctx, p.Path)
		if ok {
			r.Close()
		}
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

// deletable resolves a path, checks it names an existing file that may be
// deleted, and returns the open root of the entry itself; the caller closes it.
func (e *env) deletable(ctx context.Context, path string) (*rooted, tools.Result, bool) {
	res, fail, ok := e.resolve(ctx, path)
	if !ok {
		return nil, fail, false
	}
	if res.Rel == "." || res.Entry.Name == "." {
		return nil, tools.Errorf(tools.CodeSecurity, "refusing to delete the root of %s", rootName(res.Alias)), false
	}
	// The entry, not the target: deleting a symlink removes the link, as
	// rm does, never the file it points to.
	r, fail, ok := e.entry(res, "delete")
	if !ok {
		return nil, fail, false
	}
	fi, err := r.root.Lstat(r.name)
	switch {
	case err != nil:
		fail, ok = failure(r.display, "delete", err), false
	case fi.IsDir():
		fail, ok = tools.Errorf(tools.CodeValidation, "%s is a directory; delete_file only deletes files", r.display), false
	case fi.Mode().IsRegular() && !e.allowHardLinks():
		fail, ok = e.checkEntryLinks(r, fi)
	}
	if !ok {
		r.Close()
		return nil, fail, false
	}
	return r, tools.Result{}, true
}

// checkEntryLinks refuses a regular file with several hard links, counted
// on the entry itself (Lstat through the root).
func (e *env) checkEntryLinks(r *rooted, fi iofs.FileInfo) (tools.Result, bool) {
	n, err := entryLinkCount(r.root, r.name, fi)
	if err != nil {
		return failure(r.display, "count the hard links of", err), false
	}
	if n > 1 {
		return hardLinked(r.display, n), false
	}
	return tools.Result{}, true
}

func (e *env) deleteFile(ctx context.Context, p DeleteFileParams) (tools.Result, error) {
	// Checked again, on the root the removal goes through: the precheck
	// ran before the approval prompt, maybe long ago. An entry swapped
	// after this check is still removed inside the root only, and
	// unlinking one name never changes the file another name points to.
	r, fail, ok := e.deletable(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	defer r.Close()
	if err := r.root.Remove(r.name); err != nil {
		return failure(r.display, "delete", err), nil
	}
	return tools.Text(fmt.Sprintf("Deleted %s", r.display)), nil
}

func rootName(alias string) string {
	if alias == "" {
		return "the workspace"
	}
	return alias
}
