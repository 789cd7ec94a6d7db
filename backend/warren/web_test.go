package warren_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext/doctexttest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

// The web tools are wired with the one network guard: the allow list is a
// setting that takes effect at once, and the agent's network switch decides
// whether its web calls go out at all.
func TestWebToolsHonourAllowListAndNetworkSwitch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pdf := doctexttest.PDF(t, "", "Quarterly figures from the wiki")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/doc.pdf" {
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write(pdf)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "lan wiki page")
	}))
	defer srv.Close()
	hostport := strings.TrimPrefix(srv.URL, "http://")
	w := open(t, t.TempDir())
	surfer := storeAgent("surfer")
	surfer.Network = true
	if _, err := w.SaveAgent(ctx, surfer); err != nil {
		t.Fatal(err)
	}
	call := func(agent string, path ...string) tools.Result {
		args, _ := json.Marshal(map[string]any{"urls": []string{srv.URL + "/" + strings.Join(path, "")}})
		r, err := w.CallTool(ctx, warren.CallRequest{Name: "web_fetch", Args: args, Agent: agent})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := call("surfer"); r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "rule loopback") {
		t.Fatalf("a loopback server without the allow list: %s", r.ForLLM)
	}
	if err := w.SetSetting(ctx, warren.SettingWebAllowedHosts, hostport+", wiki.lan"); err != nil {
		t.Fatal(err)
	}
	if r := call("surfer"); r.IsError || !strings.Contains(r.ForLLM, "lan wiki page") {
		t.Fatalf("allow-listed: %s", r.ForLLM)
	}
	// A PDF comes back as its text (the local extraction read_document uses).
	if r := call("surfer", "doc.pdf"); r.IsError || !strings.Contains(r.ForLLM, "Quarterly figures from the wiki") {
		t.Fatalf("a PDF: %s", r.ForLLM)
	}
	if r := call("default"); r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "network-off") {
		t.Fatalf("the default agent's network is off: %s", r.ForLLM)
	}
	if got := settingValue(w, warren.SettingWebAllowedHosts); got != hostport+",wiki.lan" {
		t.Fatalf("stored allow list %q", got)
	}
	if err := w.SetSetting(ctx, warren.SettingWebAllowedHosts, "http://wiki.lan/"); err == nil || !strings.Contains(err.Error(), "host:port") {
		t.Fatalf("a URL as an entry: %v", err)
	}
	if err := w.SetSetting(ctx, warren.SettingWebAllowedHosts, ""); err != nil {
		t.Fatal(err)
	}
	if r := call("surfer"); r.Code() != tools.CodeSecurity {
		t.Fatalf("the allow list was cleared but the server is still reached: %s", r.ForLLM)
	}
}

func TestWebSearchSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if got := settingValue(w, warren.SettingWebSearchProviders); got != "duckduckgo" {
		t.Fatalf("default providers %q", got)
	}
	if err := w.SetSetting(ctx, warren.SettingWebSearchProviders, " SearXNG, duckduckgo "); err != nil {
		t.Fatal(err)
	}
	if got := settingValue(w, warren.SettingWebSearchProviders); got != "searxng,duckduckgo" {
		t.Fatalf("providers %q", got)
	}
	for key, bad := range map[string]string{
		warren.SettingWebSearchProviders: "google",
		warren.SettingWebSearXNGURL:      "searx.lan",
	} {
		if err := w.SetSetting(ctx, key, bad); err == nil {
			t.Errorf("%s=%s accepted", key, bad)
		}
	}
	if err := w.SetSetting(ctx, warren.SettingWebSearchProviders, "brave,brave"); err == nil {
		t.Error("a provider listed twice was accepted")
	}
	if err := w.SetSetting(ctx, warren.SettingWebBraveKey, "BSA-secret-key"); err != nil {
		t.Fatal(err)
	}
	if got := settingValue(w, warren.SettingWebBraveKey); got != "(set)" {
		t.Fatalf("the key is listed as %q", got)
	}
	_ = w.Close()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, ok, err := db.GetSetting(ctx, warren.SettingWebBraveKey)
	_ = db.Close()
	if err != nil || !ok || raw == "" || strings.Contains(raw, "BSA-secret-key") {
		t.Fatalf("the key is stored as %q (%v %v), want it sealed", raw, ok, err)
	}
	w2, err := warren.Open(ctx, warren.Options{DataDir: dir})
	if err != nil {
		t.Fatalf("reopening with a sealed key: %v", err)
	}
	defer func() { _ = w2.Close() }()
	if got := settingValue(w2, warren.SettingWebBraveKey); got != "(set)" {
		t.Fatalf("after a restart the key is listed as %q", got)
	}
}

func settingValue(w *warren.Warren, key string) string {
	for _, s := range w.Settings() {
		if s.Key == key {
			return s.Value
		}
	}
	return "<missing>"
}

// web_search reads its chain from the settings: a SearXNG on loopback
// answers once its address is the instance and its host is allow-listed.
func TestWebSearchThroughSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"results":[{"title":"Warren","url":"https://example.org/w","content":"A rabbit home."}]}`)
	}))
	defer srv.Close()
	w := open(t, t.TempDir())
	surfer := storeAgent("surfer")
	surfer.Network = true
	if _, err := w.SaveAgent(ctx, surfer); err != nil {
		t.Fatal(err)
	}
	search := func() tools.Result {
		r, err := w.CallTool(ctx, warren.CallRequest{Name: "web_search", Args: []byte(`{"query":"warren"}`), Agent: "surfer"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for key, v := range map[string]string{warren.SettingWebSearchProviders: "searxng", warren.SettingWebSearXNGURL: srv.URL} {
		if err := w.SetSetting(ctx, key, v); err != nil {
			t.Fatal(err)
		}
	}
	if r := search(); r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "web.allowed_hosts "+strings.TrimPrefix(srv.URL, "http://")) {
		t.Fatalf("a loopback SearXNG off the allow list: %s", r.ForLLM)
	}
	if err := w.SetSetting(ctx, warren.SettingWebAllowedHosts, strings.TrimPrefix(srv.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	if r := search(); r.IsError || !strings.Contains(r.ForLLM, "A rabbit home.") || !strings.Contains(r.ForLLM, "from searxng") {
		t.Fatalf("search: %s", r.ForLLM)
	}
}
