package fs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// world is a real workspace on disk with real symlinks, plus the alias roots
// and an outside directory escapes would reach.
type world struct {
	base, ws, outside, cache, state string
	reg                             *tools.Registry
	all                             []tools.Tool
}

// newWorld builds the tree and a registry with all eight tools. configure may
// adjust the deps before the tools are built.
func newWorld(t testing.TB, configure ...func(*Deps)) *world {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{
		base:    base,
		ws:      filepath.Join(base, "ws"),
		outside: filepath.Join(base, "outside"),
		cache:   filepath.Join(base, "cache"),
		state:   filepath.Join(base, "state"),
	}
	files := map[string]string{
		"ws/a.txt":                "alpha\nbeta\ngamma\n",
		"ws/src/main.go":          "package main\n\nfunc main() { needle() }\n",
		"ws/src/util/helper.go":   "package util\n\n// needle lives here\nfunc Needle() {}\n",
		"ws/src/app.ts":           "export const needle = 1;\n",
		"ws/src/deep/x/y.ts":      "let y = 'needle';\n",
		"ws/.warren/secret.txt":   "TOP SECRET needle\n",
		"ws/.warren/sub/deep.txt": "needle\n",
		"ws/sub/.warren/ok.txt":   "not denied: needle\n",
		"ws/bin.dat":              "needle\x00\x01\x02",
		"ws-evil/x.txt":           "needle next door\n",
		"outside/secret.txt":      "needle outside\n",
		"cache/c.txt":             "cached needle\n",
		"state/s.md":              "state\n",
	}
	for rel, content := range files {
		writeFile(t, filepath.Join(base, rel), content)
	}
	for link, target := range map[string]string{
		"ws/in_link":     "src",
		"ws/out_link":    "../outside",
		"ws/out_file":    "../outside/secret.txt",
		"ws/warren_link": ".warren",
		"ws/dangling":    "../outside/created-by-escape.txt",
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	deps := Deps{Workspace: w.ws, CacheDir: w.cache, StateDir: w.state}
	for _, c := range configure {
		c(&deps)
	}
	all, err := Tools(deps)
	if err != nil {
		t.Fatal(err)
	}
	w.all = all
	// delete_file requires confirmation: these tests play the approving human.
	w.reg = tools.NewRegistry(tools.Options{Approver: func(context.Context, tools.Info, json.RawMessage) (bool, string, error) {
		return true, "", nil
	}})
	for _, tl := range all {
		if err := w.reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func writeFile(t testing.TB, file, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readDisk(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// call runs one tool call through the registry pipeline (schema validation
// included) with an empty call context.
func (w *world) call(t *testing.T, name string, args any) tools.Result {
	t.Helper()
	return w.callAs(t, tools.CallContext{}, name, args)
}

func (w *world) callAs(t *testing.T, cc tools.CallContext, name string, args any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.reg.ExecuteWithContext(context.Background(), tools.Call{Name: name, Args: raw, Context: cc})
	if err != nil {
		t.Fatalf("%s(%s): Go error %v", name, raw, err)
	}
	return res
}

func wantOK(t *testing.T, res tools.Result) string {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", res.ForLLM)
	}
	return res.ForLLM
}

func wantCode(t *testing.T, res tools.Result, code tools.ErrorCode, contains ...string) {
	t.Helper()
	if !res.IsError || res.Code() != code {
		t.Fatalf("want %s, got %+v", code, res)
	}
	for _, s := range contains {
		if !strings.Contains(res.Error.Message, s) {
			t.Errorf("message %q does not contain %q", res.Error.Message, s)
		}
	}
}

type args = map[string]any
