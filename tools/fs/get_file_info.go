package fs

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed get_file_info.md
var getFileInfoDoc string

// GetFileInfoParams are the arguments of get_file_info.
type GetFileInfoParams struct {
	Path string `json:"path" description:"File or directory to describe"`
}

// FileInfo is get_file_info's JSON output.
type FileInfo struct {
	Path      string `json:"path"`
	Size      int64  `json:"size"`
	Mode      string `json:"mode"`
	Modified  string `json:"modified"`
	IsDir     bool   `json:"is_dir"`
	IsSymlink bool   `json:"is_symlink"`
}

func newGetFileInfo(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "get_file_info",
		Group:           group,
		Description:     "Show a file's or directory's size, permissions, modification time and type.",
		LongDescription: getFileInfoDoc,
		Danger:          tools.DangerSafe,
	}, e.getFileInfo)
}

func (e *env) getFileInfo(ctx context.Context, p GetFileInfoParams) (tools.Result, error) {
	res, fail, ok := e.resolveDir(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	entry, fail, ok := e.entry(res, "stat")
	if !ok {
		return fail, nil
	}
	defer entry.Close()
	link, err := entry.root.Lstat(entry.name)
	if err != nil {
		return failure(name, "stat", err), nil
	}
	// The target is what the path leads to; a link's own size and mode say little.
	target, fail, ok := e.target(res, "stat", false)
	if !ok {
		return fail, nil
	}
	defer target.Close()
	fi, err := target.root.Stat(target.name)
	if err != nil {
		return failure(name, "stat", err), nil
	}
	info := FileInfo{
		Path:      name,
		Size:      fi.Size(),
		Mode:      fi.Mode().String(),
		Modified:  fi.ModTime().UTC().Format(time.RFC3339),
		IsDir:     fi.IsDir(),
		IsSymlink: link.Mode()&os.ModeSymlink != 0,
	}
	out, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return tools.Result{}, fmt.Errorf("encode file info: %w", err)
	}
	kind := "file"
	if info.IsDir {
		kind = "directory"
	}
	return tools.TextFor(string(out), fmt.Sprintf("%s: %s, %s, modified %s", name, kind, humanBytes(info.Size), info.Modified)), nil
}
