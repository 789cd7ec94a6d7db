package system

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/warren-dev/warren/tools"
)

//go:embed workspace_dir.md
var workspaceDirDoc string

// WorkspaceDirParams are the (empty) parameters of workspace_dir.
type WorkspaceDirParams struct{}

func newWorkspaceDir(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "workspace_dir", Group: "system", LongDescription: workspaceDirDoc,
		Description: "Absolute path of the current workspace directory.",
	}, func(ctx context.Context, _ WorkspaceDirParams) (tools.Result, error) {
		ws := workspace(tools.WorkspaceFrom(ctx), d.Workspace)
		if ws == "" {
			return tools.Errorf(tools.CodeNotFound, "no workspace is configured for this agent"), nil
		}
		abs, err := filepath.Abs(ws)
		if err != nil {
			return tools.Errorf(tools.CodeIO, "resolve workspace %q: %v", ws, err), nil
		}
		st, err := os.Stat(abs)
		switch {
		case err == nil && st.IsDir():
			return tools.Text(abs), nil
		case err == nil:
			return tools.Errorf(tools.CodeIO, "workspace %s is not a directory", abs), nil
		case os.IsNotExist(err):
			return tools.Text(fmt.Sprintf("%s (does not exist yet; writing a file creates it)", abs)), nil
		}
		return tools.Errorf(tools.CodeIO, "stat workspace %s: %v", abs, err), nil
	})
}
