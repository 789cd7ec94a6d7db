package fs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/tools"
)

func containsLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

func TestListFiles(t *testing.T) {
	w := newWorld(t)
	top := wantOK(t, w.call(t, "list_files", args{}))
	for _, want := range []string{"a.txt", "src/", "sub/", "in_link", "bin.dat"} {
		if !containsLine(top, want) {
			t.Errorf("top level lacks %q:\n%s", want, top)
		}
	}
	if strings.Contains(top, ".warren") || containsLine(top, "src/main.go") {
		t.Errorf("top level shows denied or nested entries:\n%s", top)
	}
	deep := wantOK(t, w.call(t, "list_files", args{"path": ".", "recursive": true}))
	for _, want := range []string{"src/util/helper.go", "src/deep/x/", "sub/.warren/ok.txt"} {
		if !containsLine(deep, want) {
			t.Errorf("recursive lacks %q:\n%s", want, deep)
		}
	}
	if strings.Contains(deep, "secret") || containsLine(deep, ".warren/") {
		t.Errorf("recursive shows denied entries:\n%s", deep)
	}
	sub := wantOK(t, w.call(t, "list_files", args{"path": "src/util"}))
	if sub != "src/util/helper.go" {
		t.Errorf("subdir listing %q", sub)
	}
	cache := wantOK(t, w.call(t, "list_files", args{"path": "file_cache_dir"}))
	if cache != "file_cache_dir/c.txt" {
		t.Errorf("alias root listing %q", cache)
	}
	capped := wantOK(t, w.call(t, "list_files", args{"recursive": true, "max_entries": 2}))
	if n := strings.Count(capped, "\n"); n != 2 || !strings.Contains(capped, "[stopped at 2 entries") {
		t.Errorf("cap: %q", capped)
	}
	wantCode(t, w.call(t, "list_files", args{"path": "a.txt"}), tools.CodeValidation, "not a directory")
	wantCode(t, w.call(t, "list_files", args{"path": "nope"}), tools.CodeNotFound)
	wantCode(t, w.call(t, "list_files", args{"path": ".warren"}), tools.CodeSecurity)
	wantCode(t, w.call(t, "list_files", args{"max_entries": -1}), tools.CodeValidation)
	if err := os.MkdirAll(filepath.Join(w.ws, "hollow"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := wantOK(t, w.call(t, "list_files", args{"path": "hollow"})); !strings.Contains(got, "empty") {
		t.Errorf("empty dir: %q", got)
	}
}

// A link to the workspace root must not unhide .warren below it.
func TestListFilesDeniedThroughLink(t *testing.T) {
	w := newWorld(t)
	if err := os.Symlink(".", filepath.Join(w.ws, "root_link")); err != nil {
		t.Fatal(err)
	}
	out := wantOK(t, w.call(t, "list_files", args{"path": "root_link", "recursive": true}))
	if strings.Contains(out, "secret") || strings.Contains(out, "root_link/.warren") {
		t.Fatalf("denied entries visible through link:\n%s", out)
	}
	if !containsLine(out, "root_link/a.txt") {
		t.Fatalf("listing through link:\n%s", out)
	}
}

func TestSearch(t *testing.T) {
	w := newWorld(t)
	out := wantOK(t, w.call(t, "search", args{"pattern": "needle"}))
	for _, want := range []string{
		"src/main.go:3: func main() { needle() }",
		"src/util/helper.go:3: // needle lives here",
		"src/deep/x/y.ts:1: let y = 'needle';",
		"sub/.warren/ok.txt:1: not denied: needle",
	} {
		if !containsLine(out, want) {
			t.Errorf("search lacks %q:\n%s", want, out)
		}
	}
	for _, hidden := range []string{"SECRET", "bin.dat", "outside", "next door", "in_link/"} {
		if strings.Contains(out, hidden) {
			t.Errorf("search shows %q (denied, binary, outside or a link):\n%s", hidden, out)
		}
	}
	goOnly := wantOK(t, w.call(t, "search", args{"pattern": "(?i)needle", "glob": "*.go"}))
	if strings.Contains(goOnly, ".ts") || !containsLine(goOnly, "src/util/helper.go:4: func Needle() {}") {
		t.Errorf("glob *.go:\n%s", goOnly)
	}
	deepTS := wantOK(t, w.call(t, "search", args{"pattern": "needle", "path": "src", "glob": "deep/**/*.ts"}))
	if deepTS != "src/deep/x/y.ts:1: let y = 'needle';" {
		t.Errorf("path glob: %q", deepTS)
	}
	one := wantOK(t, w.call(t, "search", args{"pattern": "^package", "path": "src/main.go"}))
	if one != "src/main.go:1: package main" {
		t.Errorf("single file: %q", one)
	}
	alias := wantOK(t, w.call(t, "search", args{"pattern": "needle", "path": "file_cache_dir"}))
	if alias != "file_cache_dir/c.txt:1: cached needle" {
		t.Errorf("alias search: %q", alias)
	}
	capped := wantOK(t, w.call(t, "search", args{"pattern": "needle", "max_results": 2}))
	if strings.Count(capped, "\n") != 2 || !strings.Contains(capped, "[stopped at 2 matches") {
		t.Errorf("cap: %q", capped)
	}
	none := wantOK(t, w.call(t, "search", args{"pattern": "zebra"}))
	if !strings.HasPrefix(none, "No matches") {
		t.Errorf("no match: %q", none)
	}
	wantCode(t, w.call(t, "search", args{"pattern": "(unclosed"}), tools.CodeValidation, `"(unclosed"`)
	wantCode(t, w.call(t, "search", args{"pattern": "x", "glob": "[z"}), tools.CodeValidation, `"[z"`)
	wantCode(t, w.call(t, "search", args{"pattern": "x", "path": "nope"}), tools.CodeNotFound)
}

func TestGlob(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		pattern string
		want    []string
	}{
		{"src/**/*.ts", []string{"src/app.ts", "src/deep/x/y.ts"}},
		{"**/*.go", []string{"src/main.go", "src/util/helper.go"}},
		{"src/*", []string{"src/app.ts", "src/deep/", "src/main.go", "src/util/"}},
		{"*.txt", []string{"a.txt"}},
		{"**/ok.txt", []string{"sub/.warren/ok.txt"}},
		{`src\util\*.go`, []string{"src/util/helper.go"}},
		{"file_cache_dir/*.txt", []string{"file_cache_dir/c.txt"}},
		{filepath.ToSlash(w.ws) + "/src/*.go", []string{"src/main.go"}},
		{"a.txt", []string{"a.txt"}},
		{"**/secret.txt", nil},
		{"nothing/**/*.x", nil},
	}
	for _, tc := range tests {
		res := w.call(t, "glob", args{"pattern": tc.pattern})
		out := wantOK(t, res)
		want := strings.Join(tc.want, "\n")
		if tc.want == nil {
			want = fmt.Sprintf("No paths match %q", tc.pattern)
		}
		if out != want {
			t.Errorf("glob(%q) =\n%s\nwant\n%s", tc.pattern, out, want)
		}
	}
	capped := wantOK(t, w.call(t, "glob", args{"pattern": "**", "max_results": 3}))
	if strings.Count(capped, "\n") != 3 || !strings.Contains(capped, "[stopped at 3 paths") {
		t.Errorf("cap: %q", capped)
	}
	wantCode(t, w.call(t, "glob", args{"pattern": "src/[x"}), tools.CodeValidation, `"src/[x"`)
	wantCode(t, w.call(t, "glob", args{"pattern": "src/*/../../.."}), tools.CodeValidation)
	wantCode(t, w.call(t, "glob", args{"pattern": "../*"}), tools.CodeSecurity)
	wantCode(t, w.call(t, "glob", args{"pattern": ".warren/*"}), tools.CodeSecurity)
}

func TestMatchComps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pat, name string
		want      bool
	}{
		{"**", "a/b/c", true},
		{"**/*.go", "x.go", true},
		{"**/*.go", "a/b/x.go", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"a/**/**/b", "a/b", true},
		{"*.go", "a/x.go", false},
		{"a/*", "a/b/c", false},
	} {
		if got := matchComps(strings.Split(tc.pat, "/"), strings.Split(tc.name, "/")); got != tc.want {
			t.Errorf("matchComps(%q, %q) = %v", tc.pat, tc.name, got)
		}
	}
}

func TestDeleteFile(t *testing.T) {
	w := newWorld(t)
	if got := wantOK(t, w.call(t, "delete_file", args{"path": "a.txt"})); got != "Deleted a.txt" {
		t.Errorf("result %q", got)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "a.txt")); !os.IsNotExist(err) {
		t.Fatalf("a.txt still there: %v", err)
	}
	// Deleting an inside link removes the link, not its target.
	if err := os.Symlink("src/main.go", filepath.Join(w.ws, "main_link")); err != nil {
		t.Fatal(err)
	}
	wantOK(t, w.call(t, "delete_file", args{"path": "main_link"}))
	if _, err := os.Stat(filepath.Join(w.ws, "src/main.go")); err != nil {
		t.Fatalf("link target removed: %v", err)
	}
	wantOK(t, w.call(t, "delete_file", args{"path": "file_cache_dir/c.txt"}))
	wantCode(t, w.call(t, "delete_file", args{"path": "a.txt"}), tools.CodeNotFound)
	wantCode(t, w.call(t, "delete_file", args{"path": "src"}), tools.CodeValidation, "directory")
	wantCode(t, w.call(t, "delete_file", args{"path": "."}), tools.CodeSecurity, "root")
	wantCode(t, w.call(t, "delete_file", args{"path": w.ws}), tools.CodeSecurity, "root")
	wantCode(t, w.call(t, "delete_file", args{"path": "file_cache_dir"}), tools.CodeValidation)
}

func TestGetFileInfo(t *testing.T) {
	w := newWorld(t)
	mod := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(w.ws, "a.txt"), mod, mod); err != nil {
		t.Fatal(err)
	}
	var info FileInfo
	if err := json.Unmarshal([]byte(wantOK(t, w.call(t, "get_file_info", args{"path": "a.txt"}))), &info); err != nil {
		t.Fatal(err)
	}
	want := FileInfo{Path: "a.txt", Size: 17, Mode: "-rw-r--r--", Modified: "2024-05-06T07:08:09Z"}
	if info != want {
		t.Errorf("info %+v, want %+v", info, want)
	}
	for p, check := range map[string]func(FileInfo) bool{
		"src":            func(i FileInfo) bool { return i.IsDir && !i.IsSymlink },
		"in_link":        func(i FileInfo) bool { return i.IsDir && i.IsSymlink },
		"file_cache_dir": func(i FileInfo) bool { return i.IsDir && i.Path == "file_cache_dir" },
	} {
		var got FileInfo
		if err := json.Unmarshal([]byte(wantOK(t, w.call(t, "get_file_info", args{"path": p}))), &got); err != nil || !check(got) {
			t.Errorf("get_file_info(%s) = %+v, %v", p, got, err)
		}
	}
	wantCode(t, w.call(t, "get_file_info", args{"path": "nope"}), tools.CodeNotFound, "nope does not exist")
}
