package media_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/fs"
	"github.com/warren-dev/warren/tools/media"
)

// testKey is the API key of the scripted providers; no result may show it.
const testKey = "sk-test-0123456789abcdef"

// world is a real workspace, a scripted provider server and the tools.
type world struct {
	ws      string
	srv     *llmtest.Server
	chains  map[media.Kind][]string
	tools   map[string]tools.Tool
	secrets []string
}

// newWorld starts a provider server replaying turns. Its providers:
// "local" (OpenAI-compatible), "claude" (Anthropic) and "dead" (nothing
// listens there), all with testKey.
func newWorld(t *testing.T, turns ...llmtest.Turn) *world {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{ws: ws, srv: llmtest.NewServer(t, llmtest.Cassette{Name: "media", Models: []string{"vision-1"}, Turns: turns}), chains: map[media.Kind][]string{}}
	providers := map[string]media.Provider{
		"local":  {Name: "local", Kind: media.ProviderOpenAI, BaseURL: w.srv.URL + "/v1", APIKey: testKey, DefaultModel: "vision-1"},
		"claude": {Name: "claude", Kind: media.ProviderAnthropic, BaseURL: w.srv.URL, APIKey: testKey, DefaultModel: "claude-x"},
		"dead":   {Name: "dead", Kind: media.ProviderOpenAI, BaseURL: "http://127.0.0.1:1/v1", APIKey: testKey},
	}
	files, err := fs.NewFiles(fs.Deps{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := media.Tools(media.Deps{
		Files: files,
		Provider: func(_ context.Context, name string) (media.Provider, error) {
			p, ok := providers[name]
			if !ok {
				return media.Provider{}, fmt.Errorf("%w %q", media.ErrNoProvider, name)
			}
			return p, nil
		},
		Chain:  func(k media.Kind) []string { return w.chains[k] },
		Secret: func(v ...string) { w.secrets = append(w.secrets, v...) },
	})
	if err != nil {
		t.Fatal(err)
	}
	w.tools = map[string]tools.Tool{}
	for _, tl := range ts {
		w.tools[tl.Info().Name] = tl
	}
	return w
}

// call runs a tool with args and checks no result ever shows the key.
func (w *world) call(t *testing.T, name string, args any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.tools[name].Execute(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s: Go error %v", name, err)
	}
	if strings.Contains(res.ForLLM+res.ForUser, testKey) {
		t.Fatalf("%s: result shows the API key: %s", name, res.ForLLM)
	}
	return res
}

func (w *world) write(t *testing.T, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(w.ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// savedRE finds the saved file and its type in a result.
var savedRE = regexp.MustCompile(`to (media/\S+) \(([a-z]+/[a-z0-9.+-]+), (\d+) bytes\)`)

// savedFile returns the bytes and MIME type of the file a result names.
func (w *world) savedFile(t *testing.T, res tools.Result) ([]byte, string) {
	t.Helper()
	if res.IsError {
		t.Fatalf("error result: %s", res.ForLLM)
	}
	m := savedRE.FindStringSubmatch(res.ForLLM)
	if m == nil {
		t.Fatalf("result names no saved file: %s", res.ForLLM)
	}
	data, err := os.ReadFile(filepath.Join(w.ws, m[1]))
	if err != nil {
		t.Fatal(err)
	}
	return data, m[2]
}

// needTool fails (not skips) when a system tool is missing: CI installs it.
func needTool(t *testing.T, bin, aptPkg string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("%s is not installed: install the apt package %s (scripts/bootstrap.sh does)", bin, aptPkg)
	}
}

func wantError(t *testing.T, res tools.Result, code tools.ErrorCode, parts ...string) {
	t.Helper()
	if !res.IsError || res.Code() != code {
		t.Fatalf("want %s, got %+v", code, res)
	}
	for _, p := range parts {
		if !strings.Contains(res.ForLLM, p) {
			t.Errorf("error %q lacks %q", res.ForLLM, p)
		}
	}
}
