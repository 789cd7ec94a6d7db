package skills

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	sk "github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/tools"
)

//go:embed use_skill.md
var useSkillDoc string

// maxResourceFile bounds one resource file use_skill returns.
const maxResourceFile = 256 << 10

// UseSkillParams are the parameters of use_skill.
type UseSkillParams struct {
	Name string `json:"name" description:"The skill's name"`
	File string `json:"file,omitempty" description:"A file inside the skill's folder to read instead of its instructions"`
}

func newUseSkill(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "use_skill", Group: "skills", LongDescription: useSkillDoc, Danger: tools.DangerSafe,
		Description: "Load a skill's instructions (or one of its resource files) by name.",
	}, func(ctx context.Context, p UseSkillParams) (tools.Result, error) {
		all, _, err := d.available(ctx)
		if err != nil {
			return tools.Result{}, err
		}
		var s *sk.Skill
		for i := range all {
			if all[i].Name == strings.TrimSpace(p.Name) {
				s = &all[i]
			}
		}
		if s == nil {
			names := make([]string, len(all))
			for i, x := range all {
				names[i] = x.Name
			}
			return tools.Errorf(tools.CodeNotFound, "no skill %q among yours (%s); skill_search finds skills", p.Name,
				strings.Join(names, ", ")), nil
		}
		if d.OnUse != nil {
			d.OnUse(ctx, *s)
		}
		if p.File == "" {
			return tools.Text(fmt.Sprintf("# Skill %s (%s)\nFolder: %s\n\n%s", s.Name, s.Source, s.Dir, s.Resolved())), nil
		}
		return readResource(*s, p.File)
	})
}

// readResource reads a file inside the skill's folder, through a root so
// neither ".." nor a link leads outside it.
func readResource(s sk.Skill, file string) (tools.Result, error) {
	rel := path.Clean(strings.ReplaceAll(strings.TrimSpace(file), "\\", "/"))
	if rel == "." || strings.HasPrefix(rel, "/") || rel == ".." || strings.HasPrefix(rel, "../") {
		return tools.Errorf(tools.CodeValidation, "file %q must be a path inside the skill's folder, like templates/report.md", file), nil
	}
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return tools.Result{}, err
	}
	defer func() { _ = root.Close() }()
	fi, err := root.Stat(rel)
	if err != nil {
		return tools.Errorf(tools.CodeNotFound, "skill %s has no file %s", s.Name, rel), nil
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxResourceFile {
		return tools.Errorf(tools.CodeValidation, "%s in skill %s is not a regular file of at most %d KiB", rel, s.Name, maxResourceFile>>10), nil
	}
	b, err := root.ReadFile(rel)
	if err != nil {
		return tools.Errorf(tools.CodeIO, "read %s of skill %s: %v", rel, s.Name, err), nil
	}
	if !utf8.Valid(b) {
		return tools.Errorf(tools.CodeValidation, "%s in skill %s is not text; use it from %s", rel, s.Name, s.Dir), nil
	}
	return tools.Text(string(b)), nil
}
