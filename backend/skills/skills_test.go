package skills

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
)

func writeSkill(t *testing.T, dir, name, desc, body string) string {
	t.Helper()
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body
	if err := os.WriteFile(filepath.Join(d, FileName), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParse(t *testing.T) {
	t.Parallel()
	s, err := Parse("---\nname: pdf-forms\ndescription: >\n  Fill PDF forms\n  from data.\nlicense: MIT\nmetadata:\n  x: y\n---\n# Steps\n\nRun {baseDir}/fill.py")
	if err != nil || s.Name != "pdf-forms" || s.Description != "Fill PDF forms from data." || s.Extra["license"] != "MIT" ||
		!strings.HasPrefix(s.Body, "# Steps") {
		t.Fatalf("%+v %v", s, err)
	}
	s.Dir = "/skills/pdf-forms"
	if !strings.Contains(s.Resolved(), "/skills/pdf-forms/fill.py") {
		t.Fatal(s.Resolved())
	}
	for text, want := range map[string]string{
		"no frontmatter":                                                     "must start with a ---",
		"---\nname: x\n":                                                     "no closing ---",
		"---\ndescription: d\n---\n":                                         "needs a name",
		"---\nname: PDF_Forms\ndescription: d\n---\n":                        "lowercase letters",
		"---\nname: a--b\ndescription: d\n---\n":                             "lowercase letters",
		"---\nname: ok\n---\n":                                               "needs a description",
		"---\nname: ok\nname: ok\ndescription: d\n---":                       "appears twice",
		"---\nname: ok\ndescription: " + strings.Repeat("x", 1025) + "\n---": "at most 1024",
	} {
		if _, err := Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func openStore(t *testing.T) *Store {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return New(db.SQL(), filepath.Join(t.TempDir(), "managed"), t.TempDir())
}

// TestAvailableAndPublish: folders are searched in order (the first skill
// of a name wins), invalid ones are reported, and published skills are
// versioned, granted per agent and removable.
func TestAvailableAndPublish(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	ctx := context.Background()
	ws := t.TempDir()
	writeSkill(t, filepath.Join(ws, "skills"), "release-notes", "Write release notes from merged changes.", "Group by area.")
	writeSkill(t, filepath.Join(ws, ".agents", "skills"), "release-notes", "A shadowed copy.", "x")
	writeSkill(t, filepath.Join(s.home, ".agents", "skills"), "pdf-forms", "Fill PDF forms.", "Use the template.")
	bad := writeSkill(t, filepath.Join(ws, "skills"), "Bad_Name", "d", "b")
	_ = bad
	mismatch := filepath.Join(ws, "skills", "other")
	if err := os.MkdirAll(mismatch, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mismatch, FileName), []byte("---\nname: nope\ndescription: d\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	all, problems, err := s.Available(ctx, "ada", ws)
	if err != nil || len(all) != 2 || all[1].Source != SourceWorkspace || all[1].Description != "Write release notes from merged changes." {
		t.Fatalf("available %+v %v", all, err)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Err+problems[1].Err, "must equal its folder's name") {
		t.Fatalf("problems %+v", problems)
	}
	src := writeSkill(t, t.TempDir(), "budget-check", "Check a budget spreadsheet for errors.", "Sum the columns.")
	if err := os.WriteFile(filepath.Join(src, "rules.md"), []byte("Totals must match."), 0o600); err != nil {
		t.Fatal(err)
	}
	p1, err := s.Publish(ctx, src, "ada", "user")
	if err != nil || p1.Version != 1 {
		t.Fatalf("publish %+v %v", p1, err)
	}
	if again, err := s.Publish(ctx, src, "ada", "user"); err != nil || again.Version != 1 {
		t.Fatalf("same content again: %+v %v", again, err)
	}
	if err := os.WriteFile(filepath.Join(src, "rules.md"), []byte("Totals and dates must match."), 0o600); err != nil {
		t.Fatal(err)
	}
	if p2, err := s.Publish(ctx, src, "ada", "user"); err != nil || p2.Version != 2 {
		t.Fatalf("changed content: %+v %v", p2, err)
	}
	if all, _, _ := s.Available(ctx, "ada", ws); len(all) != 3 {
		t.Fatalf("ada's skills: %+v", all)
	}
	if all, _, _ := s.Available(ctx, "bob", ws); len(all) != 2 {
		t.Fatalf("bob sees ada's published skill: %+v", all)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Publish(ctx, src, "ada", "user"); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Fatalf("a link published: %v", err)
	}
	if err := s.Remove(ctx, "budget-check"); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(ctx, "budget-check"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removing twice: %v", err)
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	all := []Skill{
		{Name: "release-notes", Description: "Write release notes from merged pull requests.", Body: "Group changes by area."},
		{Name: "pdf-forms", Description: "Fill in PDF forms from structured data.", Body: "Use pdftk."},
		{Name: "budget-check", Description: "Check a spreadsheet budget for arithmetic mistakes.", Body: "Sum every column; release nothing."},
	}
	hits := Search(context.Background(), all, "release notes", 5, nil)
	if len(hits) == 0 || hits[0].Skill.Name != "release-notes" || hits[0].KeywordRank != 1 {
		t.Fatalf("%+v", hits)
	}
	// Meaning finds what shares no word.
	hits = Search(context.Background(), all, "paperwork document fields", 1, builtin.New())
	if len(hits) != 1 || hits[0].Skill.Name != "pdf-forms" || hits[0].VectorRank == 0 {
		t.Fatalf("vector: %+v", hits)
	}
	if list := PromptList(all, 2, 4000); !strings.Contains(list, "- pdf-forms: ") || strings.Contains(list, "budget-check") || !strings.Contains(list, "use skill_search") {
		t.Fatalf("prompt list: %s", list)
	}
}
