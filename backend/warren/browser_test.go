package warren_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/browser"
)

// hostAllow is a stand-in network guard that admits one host:port.
type hostAllow string

func (h hostAllow) CheckURL(_ context.Context, u *url.URL) error {
	if u.Host != string(h) {
		return fmt.Errorf("host %s is refused", u.Host)
	}
	return nil
}

// TestBrowserToolWiring: the browser tool is registered in group ui, runs
// for an agent whose network switch is on, saves screenshots in the
// agent's workspace, honours the switch, refuses to start without a
// guard, and Warren's Close leaves no Chromium process.
func TestBrowserToolWiring(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("install Debian's chromium package (apt-get install chromium): %v", err)
	}
	if got := policy.GroupsOf(policy.ToolRef{Name: "browser", Group: "ui"}); !strings.Contains(strings.Join(got, ","), "ui") {
		t.Fatalf("browser groups %v", got)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Wired</title><h1>Wired page</h1>`)
	}))
	defer site.Close()
	u, _ := url.Parse(site.URL)
	ctx := context.Background()

	dir := t.TempDir()
	w, err := warren.Open(ctx, warren.Options{DataDir: dir, URLChecker: hostAllow(u.Host)})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	for _, a := range []store.Agent{
		{Key: "surfer", Name: "surfer", Type: store.AgentOpen, Workspace: ws, Network: true, Profile: "full"},
		{Key: "offline", Name: "offline", Type: store.AgentOpen, Workspace: ws, Profile: "full"},
	} {
		if err := w.Store().PutAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	call := func(agent, args string) tools.Result {
		t.Helper()
		res, err := w.CallTool(ctx, warren.CallRequest{Name: "browser", Agent: agent, Args: []byte(args)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call("surfer", `{"action":"open","url":"`+site.URL+`"}`); res.IsError || !strings.Contains(res.ForLLM, `heading "Wired page"`) {
		t.Fatalf("open: %+v", res)
	}
	if res := call("surfer", `{"action":"screenshot"}`); res.IsError {
		t.Fatalf("screenshot: %+v", res)
	}
	if shots, _ := filepath.Glob(filepath.Join(ws, "browser", "*.png")); len(shots) != 1 {
		t.Fatalf("screenshots in the agent's workspace: %v", shots)
	}
	if res := call("offline", `{"action":"open","url":"`+site.URL+`"}`); res.Code() != tools.CodeSecurity {
		t.Fatalf("agent without network: %+v", res)
	}
	profile := filepath.Join(dir, "cache", "browser", "surfer")
	if _, err := os.Stat(profile); err != nil {
		t.Fatalf("the agent's profile: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if left := chromiumUsing(t, profile); left != "" {
		t.Fatalf("Chromium left running after Close: %s", left)
	}

	// With no checker of its own, Warren's network guard judges the
	// browser: a loopback page is refused until its host is trusted.
	w2, err := warren.Open(ctx, warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w2.Close() }()
	if err := w2.Store().PutAgent(ctx, store.Agent{Key: "surfer", Name: "surfer", Type: store.AgentOpen, Network: true, Profile: "full"}); err != nil {
		t.Fatal(err)
	}
	open := func() tools.Result {
		res, err := w2.CallTool(ctx, warren.CallRequest{Name: "browser", Agent: "surfer", Args: []byte(`{"action":"open","url":"` + site.URL + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := open(); res.Code() != tools.CodeSecurity || !strings.Contains(res.ForLLM, "loopback") {
		t.Fatalf("the guard on a loopback page: %+v", res)
	}
	if err := w2.SetSetting(ctx, warren.SettingWebAllowedHosts, u.Host); err != nil {
		t.Fatal(err)
	}
	if res := open(); res.IsError {
		t.Fatalf("a trusted page: %+v", res)
	}
}

// chromiumUsing lists processes whose command line names the profile.
func chromiumUsing(t *testing.T, profile string) string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return ""
	}
	var left []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), "--user-data-dir="+profile) {
			left = append(left, e.Name())
		}
	}
	return strings.Join(left, ",")
}

// TestBrowserInAnAgentRun: a scripted model opens a page, then asks for a
// snapshot in a later call of the same run: the browser (and its page)
// persists between the run's calls.
func TestBrowserInAnAgentRun(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Fatalf("install Debian's chromium package (apt-get install chromium): %v", err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Kept</title><h1>Still here</h1>`)
	}))
	defer site.Close()
	u, _ := url.Parse(site.URL)
	ctx := context.Background()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "look at the page", ToolCalls: []llmtest.ToolCall{{ID: "call_open", Name: "browser", Arguments: []string{`{"action":"open","url":"` + site.URL + `"}`}}}, FinishReason: "tool_calls"},
		{Expect: "Opened " + site.URL, ToolCalls: []llmtest.ToolCall{{ID: "call_snap", Name: "browser", Arguments: []string{`{"action":"snapshot"}`}}}, FinishReason: "tool_calls"},
		{Expect: `heading "Still here"`, Chunks: []string{"The page says Still here."}},
	}})
	w, err := warren.Open(ctx, warren.Options{DataDir: t.TempDir(), URLChecker: hostAllow(u.Host)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	withProvider(t, w, srv)
	def, err := w.Store().GetAgent(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	def.Network, def.Profile = true, "full"
	if err := w.Store().PutAgent(ctx, def); err != nil {
		t.Fatal(err)
	}
	res, err := w.RunAgent(ctx, warren.RunRequest{Agent: "default", Prompt: "look at the page"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "Still here") || srv.Remaining() != 0 {
		t.Fatalf("run: %+v (turns left %d)", res, srv.Remaining())
	}
}
