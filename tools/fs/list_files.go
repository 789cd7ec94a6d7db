package fs

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed list_files.md
var listFilesDoc string

// List caps: enough for a project's top levels, small enough for a context window.
const (
	defaultListEntries = 500
	maxListEntries     = 5000
)

// ListFilesParams are the arguments of list_files.
type ListFilesParams struct {
	Path       string `json:"path,omitempty" description:"Directory to list (default \".\", the workspace root)"`
	Recursive  bool   `json:"recursive,omitempty" description:"Also list everything below subdirectories"`
	MaxEntries int    `json:"max_entries,omitempty" description:"Stop after this many entries (default 500, at most 5000)"`
}

func newListFiles(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "list_files",
		Group:           group,
		Description:     "List a directory's files and subdirectories (subdirectories end with /).",
		LongDescription: listFilesDoc,
		Danger:          tools.DangerSafe,
	}, e.listFiles)
}

// errStop ends a walk early once a cap is reached.
var errStop = errors.New("stop walking")

func (e *env) listFiles(ctx context.Context, p ListFilesParams) (tools.Result, error) {
	limit, fail, ok := capArg("max_entries", p.MaxEntries, defaultListEntries, maxListEntries)
	if !ok {
		return fail, nil
	}
	if p.Path == "" {
		p.Path = "."
	}
	res, fail, ok := e.resolveRead(ctx, p.Path, true)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	r, fail, ok := e.target(res, "list", false)
	if !ok {
		return fail, nil
	}
	defer r.Close()
	if fi, err := r.root.Stat(r.name); err != nil {
		return failure(name, "list", err), nil
	} else if !fi.IsDir() {
		return tools.Errorf(tools.CodeValidation, "%s is not a directory; use get_file_info or read_file", name), nil
	}

	var entries []string
	truncated := false
	err := walkRooted(r, func(sub string, d iofs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if sub == "" {
			return err // an unreadable listed directory is the call's error
		}
		if err != nil {
			// A subdirectory that cannot be read: it was listed on the
			// first visit; its contents are passed over.
			return skip(d)
		}
		if e.paths.DeniedBelow(res, sub) {
			return skip(d) // hidden entirely: not listed, not entered
		}
		if len(entries) == limit {
			truncated = true
			return errStop
		}
		entry := entryName(res, sub)
		if d.IsDir() {
			entry += "/"
		}
		entries = append(entries, entry)
		if d.IsDir() && !p.Recursive {
			return iofs.SkipDir
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return failure(name, "list", err), nil
	}
	if len(entries) == 0 {
		return tools.TextFor(fmt.Sprintf("[%s is empty]", name), fmt.Sprintf("Listed %s: empty", name)), nil
	}
	out := strings.Join(entries, "\n")
	if truncated {
		out += fmt.Sprintf("\n[stopped at %d entries; list a subdirectory or raise max_entries]", limit)
	}
	return tools.TextFor(out, fmt.Sprintf("Listed %d entries in %s", len(entries), name)), nil
}

// skip leaves a denied entry: a directory is not entered, a file is passed over.
func skip(d iofs.DirEntry) error {
	if d != nil && d.IsDir() {
		return iofs.SkipDir
	}
	return nil
}

// capArg applies a default and an upper bound to a count argument.
func capArg(field string, v, def, hi int) (int, tools.Result, bool) {
	switch {
	case v < 0:
		return 0, tools.Errorf(tools.CodeValidation, "%s must be positive, got %d", field, v), false
	case v == 0:
		return def, tools.Result{}, true
	case v > hi:
		return hi, tools.Result{}, true
	}
	return v, tools.Result{}, true
}
