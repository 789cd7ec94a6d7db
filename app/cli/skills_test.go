package cli_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSkillsCLI: a workspace skill is listed, shown, searched, used and
// published by an agent's tools; the user adds and removes published
// skills; bad skills and bad input get clear errors.
func TestSkillsCLI(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	sk := filepath.Join(ws, "skills", "release-notes")
	if err := os.MkdirAll(filepath.Join(sk, "templates"), 0o700); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: release-notes\ndescription: Write release notes from merged changes.\n---\n\nUse {baseDir}/templates/notes.md.\n"
	for name, text := range map[string]string{"SKILL.md": skill, "templates/notes.md": "## Added\n## Fixed\n"} {
		if err := os.WriteFile(filepath.Join(sk, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if r := mustRun(t, dir, "skills", "list", "--workspace", ws); !strings.Contains(r.stdout, "release-notes") || !strings.Contains(r.stdout, "workspace") {
		t.Fatalf("list: %+v", r)
	}
	if r := mustRun(t, dir, "skills", "show", "release-notes", "--workspace", ws); !strings.Contains(r.stdout, sk+"/templates/notes.md") {
		t.Fatalf("show: %+v", r)
	}
	if r := mustRun(t, dir, "skills", "search", "changelog", "for", "a", "release", "--workspace", ws); !strings.Contains(r.stdout, "1. release-notes") {
		t.Fatalf("search: %+v", r)
	}
	if r := mustRun(t, dir, "tool", "call", "use_skill", `{"name":"release-notes","file":"templates/notes.md"}`, "--workspace", ws); !strings.Contains(r.stdout, "## Fixed") {
		t.Fatalf("use_skill file: %+v", r)
	}
	if r := warren(t, dir, "tool", "call", "use_skill", `{"name":"release-notes","file":"../../../etc/passwd"}`, "--workspace", ws); r.code == 0 {
		t.Fatalf("use_skill escaped its folder: %+v", r)
	}
	r := mustRun(t, dir, "tool", "call", "publish_skill", `{"path":"skills/release-notes"}`, "--workspace", ws, "--approve", "yes")
	if !strings.Contains(r.stdout, "published skill release-notes version 1") {
		t.Fatalf("publish_skill: %+v", r)
	}
	// Published for agent default: it has it in any workspace now.
	if r := mustRun(t, dir, "skills", "list", "--workspace", t.TempDir()); !strings.Contains(r.stdout, "managed v1") {
		t.Fatalf("published skill elsewhere: %+v", r)
	}
	mustRun(t, dir, "skills", "remove", "release-notes")
	for _, bad := range [][]string{{"skills", "remove", "release-notes"}, {"skills", "add", t.TempDir()}, {"skills", "show", "nope"}, {"skills", "frob"}} {
		if r := warren(t, dir, bad...); r.code == 0 || r.stderr == "" {
			t.Fatalf("%v: %+v", bad, r)
		}
	}
}

// TestSkillsGrantCLI: a skill published for one agent is granted to
// another after the fact, shown with its grants, and revoked; bad grants
// get clear errors.
func TestSkillsGrantCLI(t *testing.T) {
	t.Parallel()
	dir, src := t.TempDir(), filepath.Join(t.TempDir(), "budget-check")
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: budget-check\ndescription: Check a budget.\n---\nSum it.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "agents", "add", "helper", "--type", "predefined")
	mustRun(t, dir, "skills", "add", src, "--agent", "default")
	if r := mustRun(t, dir, "skills", "list", "--agent", "helper"); strings.Contains(r.stdout, "budget-check") {
		t.Fatalf("helper has it before the grant: %+v", r)
	}
	// The file tools read a published skill's files only for agents granted it.
	managed := filepath.Join(dir, "skills", "budget-check", "v1", "SKILL.md")
	readArgs := `{"path":` + strconv.Quote(managed) + `}`
	if r := mustRun(t, dir, "tool", "call", "read_file", readArgs, "--agent", "default"); !strings.Contains(r.stdout, "Sum it.") {
		t.Fatalf("default reads its published skill: %+v", r)
	}
	if r := warren(t, dir, "tool", "call", "read_file", readArgs, "--agent", "helper"); r.code == 0 || strings.Contains(r.stdout, "Sum it.") {
		t.Fatalf("helper read a skill it was not granted: %+v", r)
	}
	if r := warren(t, dir, "tool", "call", "write_file", `{"path":`+strconv.Quote(managed)+`,"content":"x"}`, "--agent", "default", "--approve", "yes"); r.code == 0 {
		t.Fatalf("a published skill was written: %+v", r)
	}
	if r := mustRun(t, dir, "skills", "grant", "budget-check", "--agent", "helper"); !strings.Contains(r.stdout, "granted to: default, helper") {
		t.Fatalf("grant: %+v", r)
	}
	if r := mustRun(t, dir, "skills", "list", "--agent", "helper"); !strings.Contains(r.stdout, "GRANTED TO") || !strings.Contains(r.stdout, "default, helper") {
		t.Fatalf("list after grant: %+v", r)
	}
	if r := mustRun(t, dir, "tool", "call", "read_file", readArgs, "--agent", "helper"); !strings.Contains(r.stdout, "Sum it.") {
		t.Fatalf("helper reads the skill once granted: %+v", r)
	}
	mustRun(t, dir, "skills", "revoke", "budget-check", "--agent", "default")
	if r := warren(t, dir, "tool", "call", "read_file", readArgs, "--agent", "default"); r.code == 0 {
		t.Fatalf("default reads the skill after the revoke: %+v", r)
	}
	if r := mustRun(t, dir, "skills", "list"); strings.Contains(r.stdout, "budget-check") {
		t.Fatalf("default keeps it after revoke: %+v", r)
	}
	// show finds a published skill the agent was not granted, with grants.
	if r := mustRun(t, dir, "skills", "show", "budget-check"); !strings.Contains(r.stdout, "granted to:  helper") {
		t.Fatalf("show: %+v", r)
	}
	mustRun(t, dir, "skills", "grant", "budget-check", "--agent", "*")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"skills", "revoke", "budget-check", "--agent", "helper"}, "every agent"},
		{[]string{"skills", "grant", "budget-check", "--agent", "mallory"}, "no such agent"},
		{[]string{"skills", "grant", "nope", "--agent", "helper"}, "no published skill"},
		{[]string{"skills", "grant", "budget-check"}, "--agent"},
	} {
		if r := warren(t, dir, c.args...); r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: %+v, want %q", c.args, r, c.want)
		}
	}
}
