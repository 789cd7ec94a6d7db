package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

func TestReadFile(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		name     string
		args     any
		want     string
		wantUser string
	}{
		{"whole file", args{"path": "a.txt"}, "alpha\nbeta\ngamma\n", "Read 3 lines from a.txt"},
		{"absolute", args{"path": filepath.Join(w.ws, "a.txt")}, "alpha\nbeta\ngamma\n", ""},
		{"range", args{"path": "a.txt", "start_line": 2, "end_line": 2}, "beta\n", "Read lines 2-2 of 3 from a.txt"},
		{"from line", args{"path": "a.txt", "start_line": 2}, "beta\ngamma\n", ""},
		{"end past eof", args{"path": "a.txt", "end_line": 99}, "alpha\nbeta\ngamma\n", ""},
		{"symlink inside", args{"path": "in_link/main.go"}, "package main\n\nfunc main() { needle() }\n", ""},
		{"cache alias", args{"path": "file_cache_dir/c.txt"}, "cached needle\n", "from file_cache_dir/c.txt"},
		{"state alias backslash", args{"path": `file_state_dir\s.md`}, "state\n", ""},
		{"rooted deny only", args{"path": "sub/.warren/ok.txt"}, "not denied: needle\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := w.call(t, "read_file", tc.args)
			if got := wantOK(t, res); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !strings.Contains(res.ForUser, tc.wantUser) {
				t.Errorf("ForUser %q lacks %q", res.ForUser, tc.wantUser)
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	w := newWorld(t)
	writeFile(t, filepath.Join(w.ws, "empty.txt"), "")
	tests := []struct {
		name string
		args any
		code tools.ErrorCode
		msg  string
	}{
		{"missing", args{"path": "nope.txt"}, tools.CodeNotFound, "nope.txt does not exist"},
		{"directory", args{"path": "src"}, tools.CodeValidation, "directory"},
		{"binary", args{"path": "bin.dat"}, tools.CodeValidation, "binary"},
		{"denied", args{"path": ".warren/secret.txt"}, tools.CodeSecurity, ".warren/secret.txt"},
		{"denied other case", args{"path": ".Warren/secret.txt"}, tools.CodeSecurity, ".Warren"},
		{"bare alias", args{"path": "file_cache_dir"}, tools.CodeValidation, "file_cache_dir/<file>"},
		{"empty path", args{"path": ""}, tools.CodeValidation, "empty"},
		{"NUL in path", args{"path": "a.txt\x00"}, tools.CodeValidation, "NUL"},
		{"start past end", args{"path": "a.txt", "start_line": 9}, tools.CodeValidation, "past the end of a.txt (3 lines)"},
		{"start after end", args{"path": "a.txt", "start_line": 3, "end_line": 2}, tools.CodeValidation, "after end_line"},
		{"negative line", args{"path": "a.txt", "start_line": -1}, tools.CodeValidation, "1 or more"},
		{"past end of empty", args{"path": "empty.txt", "start_line": 2}, tools.CodeValidation, "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, w.call(t, "read_file", tc.args), tc.code, tc.msg)
		})
	}
	if got := wantOK(t, w.call(t, "read_file", args{"path": "empty.txt"})); !strings.Contains(got, "empty") {
		t.Errorf("empty file: %q", got)
	}
}

func TestReadFileSizeCapAndTruncation(t *testing.T) {
	w := newWorld(t)
	big := filepath.Join(w.ws, "big.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxReadBytes + 1); err != nil { // sparse: cheap to make
		t.Fatal(err)
	}
	f.Close()
	wantCode(t, w.call(t, "read_file", args{"path": "big.log"}), tools.CodeValidation, "10.0 MB read limit")

	line := strings.Repeat("x", 99) + "\n"
	writeFile(t, filepath.Join(w.ws, "long.txt"), strings.Repeat(line, 3000)) // 300 KB
	res := w.call(t, "read_file", args{"path": "long.txt"})
	out := wantOK(t, res)
	if len(out) > maxReadOutput+300 || !strings.Contains(out, "[output truncated: 1000 of 3000") ||
		!strings.Contains(out, "start_line=1001") {
		t.Fatalf("truncation note missing or output too long (%d bytes): %s", len(out), out[len(out)-200:])
	}
	if !strings.Contains(res.ForUser, "truncated") {
		t.Errorf("ForUser %q does not say truncated", res.ForUser)
	}
	writeFile(t, filepath.Join(w.ws, "minified.js"), strings.Repeat("y", maxReadOutput*2))
	out = wantOK(t, w.call(t, "read_file", args{"path": "minified.js"}))
	if !strings.Contains(out, "line 1 alone is over") || len(out) > maxReadOutput+300 {
		t.Fatalf("one huge line not cut: %d bytes", len(out))
	}
}

func TestWriteFile(t *testing.T) {
	w := newWorld(t)
	res := w.call(t, "write_file", args{"path": "new/dir/f.txt", "content": "hello\n"})
	if got := wantOK(t, res); got != "Wrote 6 bytes to new/dir/f.txt" {
		t.Errorf("result %q", got)
	}
	if got := readDisk(t, filepath.Join(w.ws, "new/dir/f.txt")); got != "hello\n" {
		t.Fatalf("disk has %q", got)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "new/dir/f.txt", "content": "more\n", "mode": "append"}))
	wantOK(t, w.call(t, "write_file", args{"path": "fresh.txt", "content": "x", "mode": "append"}))
	if got := readDisk(t, filepath.Join(w.ws, "new/dir/f.txt")); got != "hello\nmore\n" {
		t.Fatalf("after append %q", got)
	}
	if got := readDisk(t, filepath.Join(w.ws, "fresh.txt")); got != "x" {
		t.Fatalf("append creates: %q", got)
	}
	// Overwrite keeps permissions and leaves no temp file behind.
	if err := os.Chmod(filepath.Join(w.ws, "a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "a.txt", "content": "replaced", "mode": "overwrite"}))
	fi, err := os.Stat(filepath.Join(w.ws, "a.txt"))
	if err != nil || fi.Mode().Perm() != 0o600 || readDisk(t, filepath.Join(w.ws, "a.txt")) != "replaced" {
		t.Fatalf("overwrite: %v %v", fi.Mode(), err)
	}
	if m, _ := filepath.Glob(filepath.Join(w.ws, ".warren-write-*")); len(m) != 0 {
		t.Fatalf("temp files left: %v", m)
	}
	// Writing through an inside symlink updates its target, not the link.
	wantOK(t, w.call(t, "write_file", args{"path": "in_link/app.ts", "content": "export {};\n"}))
	if got := readDisk(t, filepath.Join(w.ws, "src/app.ts")); got != "export {};\n" {
		t.Fatalf("through link: %q", got)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "file_state_dir/notes/today.md", "content": "# today\n"}))
	if got := readDisk(t, filepath.Join(w.state, "notes/today.md")); got != "# today\n" {
		t.Fatalf("alias write: %q", got)
	}
}

func TestWriteFileErrors(t *testing.T) {
	w := newWorld(t, func(d *Deps) { d.MaxWriteBytes = 16 })
	wantCode(t, w.call(t, "write_file", args{"path": "x.txt", "content": strings.Repeat("z", 17)}), tools.CodeValidation, "write limit")
	wantOK(t, w.call(t, "write_file", args{"path": "x.txt", "content": strings.Repeat("z", 16)}))
	wantCode(t, w.call(t, "write_file", args{"path": "src", "content": "x"}), tools.CodeValidation, "directory")
	wantCode(t, w.call(t, "write_file", args{"path": "a.txt/child", "content": "x"}), tools.CodeIO)
	wantCode(t, w.call(t, "write_file", args{"path": "file_cache_dir/", "content": "x"}), tools.CodeValidation)
	if err := os.Chmod(filepath.Join(w.ws, "sub"), 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(w.ws, "sub"), 0o755) })
	if os.Geteuid() != 0 { // root ignores permissions
		wantCode(t, w.call(t, "write_file", args{"path": "sub/x.txt", "content": "x"}), tools.CodePermission, "sub/x.txt")
	}
}

func TestEdit(t *testing.T) {
	w := newWorld(t)
	writeFile(t, filepath.Join(w.ws, "e.txt"), "one two two three\n")
	wantCode(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "four", "new_text": "4"}),
		tools.CodeValidation, "old_text not found in e.txt")
	wantCode(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "two", "new_text": "2"}),
		tools.CodeValidation, "old_text occurs 2 times in e.txt; add context or set replace_all")
	wantCode(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "", "new_text": "2"}), tools.CodeValidation)
	wantCode(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "one", "new_text": "one"}), tools.CodeValidation)
	wantCode(t, w.call(t, "edit", args{"path": "missing.txt", "old_text": "a", "new_text": "b"}), tools.CodeNotFound)
	wantCode(t, w.call(t, "edit", args{"path": "bin.dat", "old_text": "needle", "new_text": "b"}), tools.CodeValidation, "binary")

	if got := wantOK(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "one", "new_text": "1"})); got != "Replaced 1 occurrence in e.txt" {
		t.Errorf("result %q", got)
	}
	wantOK(t, w.call(t, "edit", args{"path": "e.txt", "old_text": "two", "new_text": "2", "replace_all": true}))
	if got := readDisk(t, filepath.Join(w.ws, "e.txt")); got != "1 2 2 three\n" {
		t.Fatalf("after edits %q", got)
	}
	wantOK(t, w.call(t, "edit", args{"path": "e.txt", "old_text": " three", "new_text": ""}))
	if got := readDisk(t, filepath.Join(w.ws, "e.txt")); got != "1 2 2\n" {
		t.Fatalf("after delete %q", got)
	}
}
