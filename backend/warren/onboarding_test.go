package warren_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// modelServer is a real local HTTP server answering /v1/models like an
// OpenAI-compatible server; wantKey, when set, is the bearer token it needs.
func modelServer(t *testing.T, wantKey string, models ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		if wantKey != "" && r.Header.Get("Authorization") != "Bearer "+wantKey {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"invalid api key"}}`))
			return
		}
		var b strings.Builder
		b.WriteString(`{"object":"list","data":[`)
		for i, m := range models {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"id":"` + m + `","object":"model"}`)
		}
		b.WriteString("]}")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// refusedURL is a loopback address nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/v1"
}

func TestDetectModelServers(t *testing.T) {
	t.Parallel()
	ok := modelServer(t, "", "llama3.1:8b", "qwen2.5:7b")
	locked := modelServer(t, "sk-secret")
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<html>a web app, not a model server</html>"))
	}))
	t.Cleanup(web.Close)
	// Accepts the connection, never answers: the timeout must end the probe.
	hang := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)

	cands := []warren.ServerCandidate{
		{Kind: "ollama", Label: "Ollama", BaseURL: ok.URL + "/v1"},
		{Kind: "vllm", Label: "vLLM", BaseURL: locked.URL + "/v1"},
		{Kind: "llamacpp", Label: "llama.cpp", BaseURL: web.URL + "/v1"},
		{Kind: "lmstudio", Label: "LM Studio", BaseURL: refusedURL(t)},
		{Kind: "custom", Label: "Hanging", BaseURL: hang.URL + "/v1"},
		{Kind: "ollama", Label: "Ollama again", BaseURL: ok.URL + "/v1"},
	}
	got := warren.DetectModelServers(context.Background(), cands, 500*time.Millisecond)
	if len(got) != 2 {
		t.Fatalf("found %+v, want Ollama and vLLM", got)
	}
	if got[0].Label != "Ollama" || got[0].BaseURL != ok.URL+"/v1" || got[0].NeedsKey ||
		!slices.Equal(got[0].Models, []llm.Model{{ID: "llama3.1:8b"}, {ID: "qwen2.5:7b"}}) {
		t.Fatalf("Ollama: %+v", got[0])
	}
	if got[1].Label != "vLLM" || !got[1].NeedsKey || got[1].Models == nil || len(got[1].Models) != 0 {
		t.Fatalf("a server that wants a key: %+v", got[1])
	}
}

func TestModelServerCandidates(t *testing.T) {
	t.Parallel()
	env := map[string]string{warren.EnvModelServerURLs: " http://127.0.0.1:9999 , ftp://x/v1, not a url,https://gpu.lan:8443/v1/ "}
	got := warren.ModelServerCandidates(func(k string) string { return env[k] })
	n := len(warren.DefaultModelServers)
	for _, c := range got[:n] {
		if !strings.HasPrefix(c.BaseURL, "http://127.0.0.1:") {
			t.Fatalf("default candidate off loopback: %+v", c)
		}
	}
	extra := got[n:]
	if len(extra) != 2 || extra[0].BaseURL != "http://127.0.0.1:9999/v1" || extra[1].BaseURL != "https://gpu.lan:8443/v1" ||
		extra[0].Kind != "custom" || extra[0].Label != "Server at 127.0.0.1:9999" {
		t.Fatalf("extra candidates: %+v", extra)
	}
}

// Testing a draft lists its models, uses the key given (or the stored one
// when none is typed), and stores nothing.
func TestTestProviderDraftStoresNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	srv := modelServer(t, "sk-draft", "m1", "m2")
	draft := store.Provider{Name: "cloud", Kind: store.ProviderOpenAI, BaseURL: srv.URL + "/v1", APIKey: "sk-draft"}

	models, err := w.TestProviderDraft(ctx, draft)
	if err != nil || !slices.Equal(models, []llm.Model{{ID: "m1"}, {ID: "m2"}}) {
		t.Fatalf("draft test: %v %v", models, err)
	}
	if list, err := w.Providers().List(ctx); err != nil || len(list) != 0 {
		t.Fatalf("a test stored a provider: %+v %v", list, err)
	}

	noKey := draft
	noKey.APIKey = ""
	if _, err := w.TestProviderDraft(ctx, noKey); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("without a key: %v", err)
	}
	// Once saved, a draft of the same provider with no key typed uses the stored key…
	if err := w.Providers().Save(ctx, draft); err != nil {
		t.Fatal(err)
	}
	if _, err := w.TestProviderDraft(ctx, noKey); err != nil {
		t.Fatalf("stored key not used: %v", err)
	}
	// …and "-" (remove the key) tests without one.
	removed := draft
	removed.APIKey = "-"
	if _, err := w.TestProviderDraft(ctx, removed); err == nil {
		t.Fatal(`"-" still sent the stored key`)
	}

	bad := []store.Provider{
		{Kind: "gemini", BaseURL: srv.URL},
		{Kind: store.ProviderOpenAI, BaseURL: "localhost:11434"},
	}
	for _, p := range bad {
		if _, err := w.TestProviderDraft(ctx, p); err == nil {
			t.Fatalf("%+v: no error", p)
		}
	}
	if _, err := w.TestProviderDraft(ctx, store.Provider{Kind: store.ProviderOpenAI, BaseURL: refusedURL(t)}); err == nil {
		t.Fatal("a refused connection passed the test")
	}
}

// CompleteFirstRun makes the chosen provider and model the default agent's
// in one step, with the key sealed like any saved provider's.
func TestCompleteFirstRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if pending, err := w.FirstRunPending(ctx); err != nil || !pending {
		t.Fatalf("fresh data dir: pending %v, %v", pending, err)
	}
	p := store.Provider{Name: "lm-studio", Kind: store.ProviderOpenAI, BaseURL: "http://127.0.0.1:1234/v1", APIKey: "sk-local"}
	if err := w.CompleteFirstRun(ctx, p, "  "); err == nil {
		t.Fatal("no model accepted")
	}
	if list, _ := w.Providers().List(ctx); len(list) != 0 {
		t.Fatalf("a refused first run stored %+v", list)
	}
	if err := w.CompleteFirstRun(ctx, p, "qwen2.5-7b"); err != nil {
		t.Fatal(err)
	}
	def, err := w.Store().GetAgent(ctx, "default")
	if err != nil || def.Provider != "lm-studio" || def.Model != "qwen2.5-7b" || !def.Sandbox {
		t.Fatalf("default agent: %+v %v", def, err)
	}
	got, err := w.Providers().Get(ctx, "lm-studio")
	if err != nil || got.APIKey != "sk-local" || got.DefaultModel != "qwen2.5-7b" {
		t.Fatalf("provider: %+v %v", got, err)
	}
	list, _ := w.Providers().List(ctx)
	if len(list) != 1 || !list[0].HasKey || list[0].APIKey != "" {
		t.Fatalf("listed: %+v", list)
	}
	// Running it again keeps the stored key and tool mode, and switches the model.
	got.ToolMode, got.APIKey = "emulated", ""
	if err := w.Providers().Save(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := w.CompleteFirstRun(ctx, store.Provider{Name: "lm-studio", Kind: store.ProviderOpenAI, BaseURL: p.BaseURL}, "llama-3.2-3b"); err != nil {
		t.Fatal(err)
	}
	if again, _ := w.Providers().Get(ctx, "lm-studio"); again.APIKey != "sk-local" || again.ToolMode != "emulated" || again.DefaultModel != "llama-3.2-3b" {
		t.Fatalf("after running it again: %+v", again)
	}
	// Set up now: no wizard on the next start, even before it was finished.
	if pending, _ := w.FirstRunPending(ctx); pending {
		t.Fatal("pending after the default agent got a provider")
	}
}

// The first-run setting is a known setting: `warren settings set
// ui.first_run_done true` works, and survives a restart.
func TestFirstRunSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if err := w.SetSetting(ctx, warren.SettingFirstRunDone, "maybe"); err == nil {
		t.Fatal("a non-boolean was accepted")
	}
	if err := w.SetSetting(ctx, warren.SettingFirstRunDone, "true"); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	w = open(t, dir)
	if pending, err := w.FirstRunPending(ctx); err != nil || pending {
		t.Fatalf("after finishing: pending %v, %v", pending, err)
	}
}

// New agents start sandboxed, like the default agent; the default
// agent's own setting is what they copy.
func TestNewAgentDefaultsSandboxOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	a, err := w.NewAgentDefaults(ctx)
	if err != nil || !a.Sandbox || a.Network || a.Type != store.AgentOpen {
		t.Fatalf("new agent defaults: %+v %v", a, err)
	}
	def, _ := w.Store().GetAgent(ctx, "default")
	if !def.Sandbox {
		t.Fatal("the default agent is not sandboxed")
	}
	def.Sandbox = false
	if _, err := w.SaveAgent(ctx, def); err != nil {
		t.Fatal(err)
	}
	if a, _ := w.NewAgentDefaults(ctx); a.Sandbox {
		t.Fatal("did not follow the default agent's sandbox setting")
	}
}
