package skills

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed publish_skill.md
var publishSkillDoc string

// PublishSkillParams are the parameters of publish_skill.
type PublishSkillParams struct {
	Path string `json:"path" description:"The skill's folder, relative to your workspace, e.g. skills/release-notes"`
}

func newPublishSkill(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "publish_skill", Group: "skills", LongDescription: publishSkillDoc, Danger: tools.DangerWarning,
		Description: "Publish a skill folder from your workspace into Warren (validated, versioned) so you have it everywhere.",
	}, func(ctx context.Context, p PublishSkillParams) (tools.Result, error) {
		ws := d.workspace(ctx)
		rel := filepath.Clean(strings.TrimSpace(p.Path))
		if ws == "" || rel == "." || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return tools.Errorf(tools.CodeValidation, "path %q must be a folder inside your workspace, like skills/release-notes", p.Path), nil
		}
		dir := filepath.Join(ws, rel)
		// The folder itself must be inside the workspace for real, not by a link.
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return tools.Errorf(tools.CodeNotFound, "no folder %s in your workspace", rel), nil
		}
		wsReal, err := filepath.EvalSymlinks(ws)
		if err != nil {
			return tools.Result{}, err
		}
		if r, err := filepath.Rel(wsReal, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return tools.Errorf(tools.CodeSecurity, "%s leads outside your workspace", rel), nil
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return tools.Errorf(tools.CodeValidation, "%s is not a folder", rel), nil
		}
		s, err := d.Store.Publish(ctx, real, agent(ctx), "agent "+agent(ctx))
		if err != nil {
			return tools.Errorf(tools.CodeValidation, "%v", err), nil
		}
		return tools.Text(fmt.Sprintf("published skill %s version %d for agent %s (%s)", s.Name, s.Version, agent(ctx), s.Dir)), nil
	})
}
