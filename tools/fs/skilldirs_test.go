package fs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// skillWorld is newWorld plus two skill folders outside the workspace:
// "granted" (in the agent's list) and "other" (not), and links inside the
// granted one that point out of it.
func skillWorld(t *testing.T) (*world, string, string) {
	w, granted, other, _ := skillWorldExtra(t)
	return w, granted, other
}

// skillWorldExtra is skillWorld with more skill folders set through the
// returned slice (before the calls, never during them).
func skillWorldExtra(t testing.TB) (*world, string, string, *[]string) {
	t.Helper()
	var granted, other string
	var extra []string
	w := newWorld(t, func(d *Deps) {
		d.SkillDirs = func(context.Context) []string { return append([]string{granted}, extra...) }
	})
	granted = filepath.Join(w.base, "skills", "release-notes")
	other = filepath.Join(w.base, "skills", "not-granted")
	writeFile(t, filepath.Join(granted, "SKILL.md"), "---\nname: release-notes\ndescription: d\n---\nSee templates/notes.md\n")
	writeFile(t, filepath.Join(granted, "templates", "notes.md"), "## Added\n## Fixed needle\n")
	writeFile(t, filepath.Join(granted, "MEMORY.md"), "the skill's own MEMORY.md\n")
	writeFile(t, filepath.Join(other, "SKILL.md"), "---\nname: not-granted\ndescription: d\n---\nsecret needle\n")
	for link, target := range map[string]string{
		filepath.Join(granted, "passwd"):   filepath.Join(w.outside, "secret.txt"),
		filepath.Join(granted, "out"):      w.outside,
		filepath.Join(granted, "sideways"): other,
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return w, granted, other, &extra
}

// TestSkillFoldersReadOnly: the read-only tools read a granted skill's
// files by absolute path; writes, other skills, links and .. escapes out
// of the folder are refused.
func TestSkillFoldersReadOnly(t *testing.T) {
	t.Parallel()
	w, granted, other := skillWorld(t)
	notes := filepath.Join(granted, "templates", "notes.md")

	if out := wantOK(t, w.call(t, "read_file", args{"path": notes})); !strings.Contains(out, "## Fixed") {
		t.Fatalf("read: %q", out)
	}
	// Its own MEMORY.md is a file of the skill, not the agent's memory.
	if out := wantOK(t, w.call(t, "read_file", args{"path": filepath.Join(granted, "MEMORY.md")})); !strings.Contains(out, "skill's own") {
		t.Fatalf("MEMORY.md in a skill: %q", out)
	}
	list := wantOK(t, w.call(t, "list_files", args{"path": granted, "recursive": true}))
	if !strings.Contains(list, notes) || strings.Contains(list, "secret") {
		t.Fatalf("list: %q", list)
	}
	if out := wantOK(t, w.call(t, "glob", args{"pattern": granted + "/**/*.md"})); !strings.Contains(out, notes) {
		t.Fatalf("glob: %q", out)
	}
	out := wantOK(t, w.call(t, "search", args{"pattern": "needle", "path": granted}))
	if !strings.Contains(out, "notes.md") || strings.Contains(out, "outside") || strings.Contains(out, "secret needle") {
		t.Fatalf("search followed a link out of the skill: %q", out)
	}

	for _, c := range []struct {
		name string
		tool string
		args args
		code tools.ErrorCode
	}{
		{"write", "write_file", args{"path": notes, "content": "x"}, tools.CodeSecurity},
		{"new file", "write_file", args{"path": filepath.Join(granted, "new.md"), "content": "x"}, tools.CodeSecurity},
		{"edit", "edit", args{"path": notes, "old_text": "Added", "new_text": "Removed"}, tools.CodeSecurity},
		{"delete", "delete_file", args{"path": notes}, tools.CodeSecurity},
		{"info is not a reading tool here", "get_file_info", args{"path": notes}, tools.CodeSecurity},
		{"link to a file outside", "read_file", args{"path": filepath.Join(granted, "passwd")}, tools.CodeSecurity},
		{"link to a dir outside", "read_file", args{"path": filepath.Join(granted, "out", "secret.txt")}, tools.CodeSecurity},
		{"list through a link", "list_files", args{"path": filepath.Join(granted, "out")}, tools.CodeSecurity},
		{"link to an ungranted skill", "read_file", args{"path": filepath.Join(granted, "sideways", "SKILL.md")}, tools.CodeSecurity},
		{".. out of the skill", "read_file", args{"path": granted + "/../not-granted/SKILL.md"}, tools.CodeSecurity},
		{".. to the outside", "read_file", args{"path": granted + "/templates/../../../outside/secret.txt"}, tools.CodeSecurity},
		{"relative .. from the workspace", "read_file", args{"path": "../skills/release-notes/SKILL.md"}, tools.CodeSecurity},
		{"ungranted skill", "read_file", args{"path": filepath.Join(other, "SKILL.md")}, tools.CodeSecurity},
		{"ungranted skill listed", "list_files", args{"path": other}, tools.CodeSecurity},
		{"ungranted skill searched", "search", args{"pattern": "needle", "path": other}, tools.CodeSecurity},
		{"ungranted skill globbed", "glob", args{"pattern": other + "/*"}, tools.CodeSecurity},
		{"the skills folder above", "list_files", args{"path": filepath.Dir(granted)}, tools.CodeSecurity},
	} {
		res := w.call(t, c.tool, c.args)
		if !res.IsError || res.Code() != c.code {
			t.Errorf("%s: %s(%v) = %+v, want %s", c.name, c.tool, c.args, res, c.code)
		}
	}
	if got := readDisk(t, notes); got != "## Added\n## Fixed needle\n" {
		t.Fatalf("the skill changed: %q", got)
	}
}

// TestSkillFoldersNeverWiden: a skill folder that is the filesystem root
// or holds the workspace opens nothing beyond what the workspace does.
func TestSkillFoldersNeverWiden(t *testing.T) {
	t.Parallel()
	w, _, _, extra := skillWorldExtra(t)
	*extra = []string{"/", w.base, w.ws, "relative/skill", filepath.Join(w.base, "missing")}
	for _, p := range []string{"/etc/hostname", filepath.Join(w.outside, "secret.txt"), filepath.Join(w.base, "ws-evil", "x.txt")} {
		if res := w.call(t, "read_file", args{"path": p}); !res.IsError || res.Code() != tools.CodeSecurity {
			t.Errorf("read %s through a too-wide skill folder: %+v", p, res)
		}
	}
}

// FuzzSkillRead: whatever path an agent writes, a read the skill folders
// let through lands inside the granted skill's real folder, never in the
// other skill or outside, and never opens a writing tool's way in.
func FuzzSkillRead(f *testing.F) {
	w, granted, other, _ := skillWorldExtra(f)
	e, err := newEnv(Deps{Workspace: w.ws, SkillDirs: func(context.Context) []string { return []string{granted} }})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		granted + "/SKILL.md", granted + "/templates/../SKILL.md", granted + "/../not-granted/SKILL.md",
		granted + "/passwd", granted + "/out/secret.txt", granted + "/sideways/SKILL.md", granted + `\..\..\outside\secret.txt`,
		other + "/SKILL.md", "../skills/release-notes/SKILL.md", granted + "//templates///notes.md", granted + "/./.warren/x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, dir := range []bool{false, true} {
			res, _, ok := e.resolveRead(context.Background(), p, dir)
			if !ok || res.Alias == "" {
				continue // refused, or a workspace path (the workspace's own tests cover those)
			}
			if res.Alias != granted || res.Target.Dir != granted || !paths.Within(granted, res.Real) {
				t.Fatalf("%q resolved to %+v outside the granted skill %s", p, res, granted)
			}
			if strings.Contains("/"+res.Target.Name+"/", "/../") {
				t.Fatalf("%q kept .. in %q", p, res.Target.Name)
			}
		}
	})
}
