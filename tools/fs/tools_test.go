package fs

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/warren-dev/warren/tools"
)

func TestToolsInfo(t *testing.T) {
	w := newWorld(t)
	want := map[string]tools.DangerLevel{
		"read_file": tools.DangerSafe, "write_file": tools.DangerWarning, "edit": tools.DangerWarning,
		"list_files": tools.DangerSafe, "search": tools.DangerSafe, "glob": tools.DangerSafe,
		"delete_file": tools.DangerDangerous, "get_file_info": tools.DangerSafe,
	}
	if len(w.all) != len(want) {
		t.Fatalf("Tools returned %d tools, want %d", len(w.all), len(want))
	}
	for _, tl := range w.all {
		info := tl.Info()
		danger, ok := want[info.Name]
		if !ok {
			t.Errorf("unexpected tool %s", info.Name)
			continue
		}
		if info.Group != "fs" || info.Danger != danger || info.LongDescription == "" {
			t.Errorf("%s: group %q danger %v long description %d bytes", info.Name, info.Group, info.Danger, len(info.LongDescription))
		}
		if info.RequiresConfirmation != (info.Name == "delete_file") {
			t.Errorf("%s: RequiresConfirmation = %v", info.Name, info.RequiresConfirmation)
		}
		if _, ok := tl.(PathDenyable); !ok {
			t.Errorf("%s does not implement PathDenyable", info.Name)
		}
	}
}

func TestSchemaValidationThroughRegistry(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		tool string
		args any
		want string
	}{
		{"read_file", args{}, `"path"`},
		{"write_file", args{"path": "x.txt"}, `"content"`},
		{"write_file", args{"path": "x.txt", "content": "x", "mode": "truncate"}, "overwrite, append"},
		{"edit", args{"path": "a.txt", "old_text": "a"}, `"new_text"`},
		{"search", args{"path": "."}, `"pattern"`},
		{"glob", args{}, `"pattern"`},
		{"delete_file", args{}, `"path"`},
		{"get_file_info", args{"path": 3}, `"path"`},
		{"list_files", args{"recursive": "yes"}, `"recursive"`},
		{"read_file", args{"path": "a.txt", "bogus": 1}, `"bogus"`},
	}
	for _, tc := range tests {
		wantCode(t, w.call(t, tc.tool, tc.args), tools.CodeValidation, tc.want)
	}
}

func TestToolsRejectsBadDeps(t *testing.T) {
	for name, deps := range map[string]Deps{
		"relative workspace": {Workspace: "ws"},
		"relative cache dir": {Workspace: "/ws", CacheDir: "cache"},
		"negative write cap": {Workspace: "/ws", MaxWriteBytes: -1},
		"nil interceptor":    {Workspace: "/ws", Interceptors: []Interceptor{nil}},
	} {
		if _, err := Tools(deps); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// TestWorkspaceFromContext checks the per-call workspace wins over Deps.
func TestWorkspaceFromContext(t *testing.T) {
	w := newWorld(t)
	other := filepath.Join(w.base, "ws-evil")
	got := wantOK(t, w.callAs(t, tools.CallContext{Workspace: other}, "read_file", args{"path": "x.txt"}))
	if got != "needle next door\n" {
		t.Fatalf("read from the context workspace: %q", got)
	}
	wantCode(t, w.callAs(t, tools.CallContext{Workspace: other}, "read_file", args{"path": filepath.Join(w.ws, "a.txt")}),
		tools.CodeSecurity)
}

// TestEscapesRefusedByEveryTool sends each path-taking tool the same set of
// escapes; all must come back as SecurityError and touch nothing outside.
func TestEscapesRefusedByEveryTool(t *testing.T) {
	w := newWorld(t)
	escapes := []string{
		"../outside/secret.txt",
		"a/../../outside/secret.txt",
		`..\outside\secret.txt`,
		filepath.Join(w.outside, "secret.txt"),
		filepath.Join(w.base, "ws-evil", "x.txt"),
		"out_link/secret.txt",
		"out_file",
		"dangling",
		".warren/secret.txt",
		"warren_link/secret.txt",
		"file_cache_dir/../outside/secret.txt",
	}
	calls := map[string]func(p string) any{
		"read_file":     func(p string) any { return args{"path": p} },
		"write_file":    func(p string) any { return args{"path": p, "content": "pwned"} },
		"edit":          func(p string) any { return args{"path": p, "old_text": "needle", "new_text": "pwned"} },
		"list_files":    func(p string) any { return args{"path": p} },
		"search":        func(p string) any { return args{"pattern": "needle", "path": p} },
		"glob":          func(p string) any { return args{"pattern": p} },
		"delete_file":   func(p string) any { return args{"path": p} },
		"get_file_info": func(p string) any { return args{"path": p} },
	}
	for tool, mk := range calls {
		for _, p := range escapes {
			res := w.call(t, tool, mk(p))
			if res.Code() != tools.CodeSecurity {
				t.Errorf("%s(%q) = %s %q; want SecurityError", tool, p, res.Code(), res.ForLLM)
			}
		}
	}
	if got := readDisk(t, filepath.Join(w.outside, "secret.txt")); got != "needle outside\n" {
		t.Fatalf("outside file changed: %q", got)
	}
	if got := readDisk(t, filepath.Join(w.ws, ".warren/secret.txt")); got != "TOP SECRET needle\n" {
		t.Fatalf("denied file changed: %q", got)
	}
	wantCode(t, w.call(t, "read_file", args{"path": "dangling"}), tools.CodeSecurity)
	if _, err := filepath.EvalSymlinks(filepath.Join(w.ws, "dangling")); err == nil {
		t.Fatal("a write through the dangling link created its target outside")
	}
}

func TestDenyPathsAtRunTime(t *testing.T) {
	w := newWorld(t)
	wantOK(t, w.call(t, "read_file", args{"path": "src/main.go"}))
	w.all[3].(PathDenyable).DenyPaths("src") // any tool denies for all eight
	wantCode(t, w.call(t, "read_file", args{"path": "src/main.go"}), tools.CodeSecurity, "src/main.go")
	wantCode(t, w.call(t, "read_file", args{"path": "in_link/main.go"}), tools.CodeSecurity)
	list := wantOK(t, w.call(t, "list_files", args{}))
	if containsLine(list, "src/") {
		t.Fatalf("denied src still listed:\n%s", list)
	}
}

func TestNoDenyWhenEmpty(t *testing.T) {
	w := newWorld(t, func(d *Deps) { d.Deny = []string{} })
	if got := wantOK(t, w.call(t, "read_file", args{"path": ".warren/secret.txt"})); got != "TOP SECRET needle\n" {
		t.Fatalf("got %q", got)
	}
}

func TestCancelledContext(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tl, _ := w.reg.Get("search")
	raw, _ := json.Marshal(args{"pattern": "needle"})
	res, err := tl.Execute(ctx, raw)
	if err != nil || res.Code() != tools.CodeTimeout {
		t.Fatalf("cancelled search: %+v, %v", res, err)
	}
}
