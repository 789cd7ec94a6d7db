package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// linkOutside hard-links the outside secret into the workspace as name, the
// way a shell command run by the agent could (`ln ../outside/secret.txt x`).
func linkOutside(t *testing.T, w *world, name string) string {
	t.Helper()
	outside := filepath.Join(w.outside, "secret.txt")
	if err := os.Link(outside, filepath.Join(w.ws, name)); err != nil {
		t.Skipf("hard links unsupported here: %v", err)
	}
	return outside
}

// A hard link is not a symlink: no root sees that it reaches the outside
// inode. Every tool that reads or changes content must refuse it, and the
// outside file must come through untouched.
func TestHardLinkToOutsideRefused(t *testing.T) {
	w := newWorld(t)
	outside := linkOutside(t, w, "hl.txt")
	writeFile(t, filepath.Join(w.ws, "deep/inner.txt"), "inside needle\n")
	if err := os.Link(outside, filepath.Join(w.ws, "deep/hl2.txt")); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		tool string
		args any
	}{
		{"read_file", args{"path": "hl.txt"}},
		{"read_file", args{"path": "deep/hl2.txt"}},
		{"edit", args{"path": "hl.txt", "old_text": "needle", "new_text": "pwned"}},
		{"write_file", args{"path": "hl.txt", "content": "pwned", "mode": "append"}},
		{"write_file", args{"path": "hl.txt", "content": "pwned"}},
		{"delete_file", args{"path": "hl.txt"}},
	} {
		res := w.call(t, tc.tool, tc.args)
		wantCode(t, res, tools.CodeSecurity, "hl", "3 hard links", "outside the workspace", "allow hard-linked files in the settings")
		if strings.Contains(res.ForLLM, "needle outside") {
			t.Errorf("%s leaked the outside content: %s", tc.tool, res.ForLLM)
		}
	}

	for _, path := range []string{".", "deep", "hl.txt"} {
		out := wantOK(t, w.call(t, "search", args{"pattern": "needle", "path": path}))
		if strings.Contains(out, "needle outside") {
			t.Fatalf("search %s read the hard link:\n%s", path, out)
		}
		if !strings.Contains(out, "skipped") || !strings.Contains(out, "hard link") {
			t.Errorf("search %s does not report the skipped link:\n%s", path, out)
		}
	}
	out := wantOK(t, w.call(t, "search", args{"pattern": "needle", "path": "deep"}))
	if !strings.Contains(out, "deep/inner.txt:1: inside needle") || !strings.Contains(out, "deep/hl2.txt") {
		t.Errorf("search deep should find inner.txt and name hl2.txt as skipped:\n%s", out)
	}

	if got := readDisk(t, outside); got != "needle outside\n" {
		t.Fatalf("outside file changed: %q", got)
	}
	for _, name := range []string{"hl.txt", "deep/hl2.txt"} {
		if got := readDisk(t, filepath.Join(w.ws, name)); got != "needle outside\n" {
			t.Fatalf("%s changed or was replaced: %q", name, got)
		}
	}
	// Names are not content: listing and metadata still show the file.
	if list := wantOK(t, w.call(t, "list_files", args{})); !containsLine(list, "hl.txt") {
		t.Errorf("list_files hides hl.txt:\n%s", list)
	}
	wantOK(t, w.call(t, "get_file_info", args{"path": "hl.txt"}))
}

// A file whose other link is also inside the workspace is refused the same
// way: the tools cannot tell where the other names are.
func TestHardLinkInsideAlsoRefused(t *testing.T) {
	w := newWorld(t)
	if err := os.Link(filepath.Join(w.ws, "a.txt"), filepath.Join(w.ws, "a2.txt")); err != nil {
		t.Skipf("hard links unsupported here: %v", err)
	}
	wantCode(t, w.call(t, "read_file", args{"path": "a.txt"}), tools.CodeSecurity, "a.txt has 2 hard links")
	// Removing one name leaves a single link: the other is usable again.
	if err := os.Remove(filepath.Join(w.ws, "a2.txt")); err != nil {
		t.Fatal(err)
	}
	wantOK(t, w.call(t, "read_file", args{"path": "a.txt"}))
}

func TestHardLinksAllowedBySetting(t *testing.T) {
	w := newWorld(t, func(d *Deps) { d.AllowHardLinks = func() bool { return true } })
	outside := linkOutside(t, w, "hl.txt")
	if got := wantOK(t, w.call(t, "read_file", args{"path": "hl.txt"})); got != "needle outside\n" {
		t.Fatalf("read %q", got)
	}
	if out := wantOK(t, w.call(t, "search", args{"pattern": "needle outside"})); !strings.Contains(out, "hl.txt:1:") || strings.Contains(out, "skipped") {
		t.Fatalf("search with links allowed:\n%s", out)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "hl.txt", "content": "more\n", "mode": "append"}))
	if got := readDisk(t, outside); got != "needle outside\nmore\n" {
		t.Fatalf("append through an allowed link: %q", got)
	}
	wantOK(t, w.call(t, "delete_file", args{"path": "hl.txt"}))
	if _, err := os.Stat(outside); err != nil {
		t.Fatalf("deleting the link removed the other name: %v", err)
	}
}

// TestRootEscapeIsSecurityError pins the text of os.Root's unexported
// escape error, which failure recognises: a Go release that changes it
// fails here instead of turning refusals into IOErrors.
func TestRootEscapeIsSecurityError(t *testing.T) {
	w := newWorld(t)
	root, err := os.OpenRoot(w.ws)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = root.Close() }()
	for _, name := range []string{"out_link/secret.txt", "out_file", "../outside/secret.txt", "dangling"} {
		_, err := root.Open(name)
		if err == nil {
			t.Fatalf("os.Root opened %s", name)
		}
		res := failure(name, "read", err)
		if res.Code() != tools.CodeSecurity || strings.Contains(res.ForLLM, w.base) {
			t.Errorf("Root escape %s (%v) maps to %s %q", name, err, res.Code(), res.ForLLM)
		}
	}
}

// Paths that pass through the outside and come back, or through .warren,
// are refused; so are `..` and absolute paths, by every tool.
func TestEscapesThroughOutsideAndBack(t *testing.T) {
	w := newWorld(t)
	if err := os.Symlink("../ws/a.txt", filepath.Join(w.outside, "back_in")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	if err := os.Symlink("../a.txt", filepath.Join(w.ws, ".warren", "to_a")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"out_link/back_in",
		"warren_link/to_a",
		"..",
		"../outside",
		"src/../../outside/secret.txt",
		filepath.Join(w.outside, "secret.txt"),
		filepath.Join(w.ws, "..", "outside", "secret.txt"),
	} {
		wantCode(t, w.call(t, "delete_file", args{"path": p}), tools.CodeSecurity)
		wantCode(t, w.call(t, "read_file", args{"path": p}), tools.CodeSecurity)
		wantCode(t, w.call(t, "get_file_info", args{"path": p}), tools.CodeSecurity)
		wantCode(t, w.call(t, "write_file", args{"path": p, "content": "pwned"}), tools.CodeSecurity)
	}
	for _, link := range []string{filepath.Join(w.outside, "back_in"), filepath.Join(w.ws, ".warren", "to_a")} {
		if _, err := os.Lstat(link); err != nil {
			t.Errorf("%s was deleted: %v", link, err)
		}
	}
	if got := readDisk(t, filepath.Join(w.ws, "a.txt")); got != "alpha\nbeta\ngamma\n" {
		t.Fatalf("a.txt changed: %q", got)
	}
}

// An overwrite goes through a temp file beside the target, inside the root:
// nothing is left behind, and the file keeps its mode.
func TestWriteAtomicLeavesNoTemp(t *testing.T) {
	w := newWorld(t)
	if err := os.Chmod(filepath.Join(w.ws, "src/main.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "in_link/main.go", "content": "package main\n"}))
	wantOK(t, w.call(t, "edit", args{"path": "src/main.go", "old_text": "main", "new_text": "app"}))
	if got := readDisk(t, filepath.Join(w.ws, "src/main.go")); got != "package app\n" {
		t.Fatalf("content %q", got)
	}
	fi, err := os.Lstat(filepath.Join(w.ws, "src/main.go"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("main.go: %v %v", fi, err)
	}
	if fi.Mode().Perm() != 0o600 && os.PathSeparator == '/' {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if link, err := os.Lstat(filepath.Join(w.ws, "in_link")); err != nil || link.Mode()&os.ModeSymlink == 0 {
		t.Errorf("writing through in_link replaced the link: %v %v", link, err)
	}
	for _, dir := range []string{w.ws, filepath.Join(w.ws, "src"), w.outside} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".warren-write-") {
				t.Errorf("temp file left in %s: %s", dir, e.Name())
			}
		}
	}
}
