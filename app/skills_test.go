package app_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/skills"
)

// TestSkillGrants: the Skills view grants a published skill to agents and
// revokes it, and still opens it when no agent has it.
func TestSkillGrants(t *testing.T) {
	t.Parallel()
	a := openApp(t, app.Options{})

	src := filepath.Join(t.TempDir(), "budget-check")
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: budget-check\ndescription: Check a budget.\n---\nSum it.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ImportSkill(src, "default"); err != nil {
		t.Fatal(err)
	}
	if err := a.RevokeSkill("budget-check", "default"); err != nil {
		t.Fatal(err)
	}
	d, err := a.Skill("default", "budget-check")
	if err != nil || len(d.Grants) != 0 || d.Skill.Source != skills.SourceManaged {
		t.Fatalf("an ungranted published skill: %+v %v", d, err)
	}
	if err := a.GrantSkill("budget-check", "*"); err != nil {
		t.Fatal(err)
	}
	if d, _ := a.Skill("default", "budget-check"); !slices.Equal(d.Grants, []string{"*"}) {
		t.Fatalf("grants %v", d.Grants)
	}
	if err := a.GrantSkill("budget-check", "mallory"); !errors.Is(err, skills.ErrNoAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
}
