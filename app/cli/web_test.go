package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// From the command line: the allow list is a setting, and web_fetch runs
// through `warren tool call` for an agent whose network is on.
func TestWebFetchFromCLI(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><head><title>Wiki</title></head><body><article><h1>Burrows</h1><p>Rabbits dig them.</p></article></body></html>")
	}))
	defer srv.Close()
	dir := t.TempDir()
	args := `{"urls":["` + srv.URL + `/"]}`
	hostport := strings.TrimPrefix(srv.URL, "http://")
	if r := warren(t, dir, "settings", "set", "web.allowed_hosts", hostport+",wiki.lan"); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	if r := warren(t, dir, "settings", "get", "web.allowed_hosts"); strings.TrimSpace(r.stdout) != hostport+",wiki.lan" {
		t.Fatalf("settings get: %+v", r)
	}
	if r := warren(t, dir, "settings", "set", "web.allowed_hosts", "http://wiki.lan/x"); r.code == 0 || !strings.Contains(r.stderr, "host:port") {
		t.Fatalf("a bad entry: %+v", r)
	}
	// The default agent's network switch is off.
	r := warren(t, dir, "tool", "call", "web_fetch", args, "--json")
	if !strings.Contains(r.stdout, "SecurityError") || !strings.Contains(r.stdout, "network-off") {
		t.Fatalf("network off: %+v", r)
	}
	if r := warren(t, dir, "agents", "add", "surfer", "--network", "on"); r.code != 0 {
		t.Fatalf("agents add: %+v", r)
	}
	r = warren(t, dir, "tool", "call", "web_fetch", args, "--agent", "surfer", "--json")
	if r.code != 0 {
		t.Fatalf("tool call: %+v", r)
	}
	var res struct {
		ForLLM  string `json:"for_llm"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("output: %v\n%s", err, r.stdout)
	}
	if res.IsError || !strings.Contains(res.ForLLM, "# Burrows") || !strings.Contains(res.ForLLM, "Rabbits dig them.") {
		t.Fatalf("web_fetch: %+v", res)
	}
}

func TestWebCommand(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><body><main><h2>Dens</h2><p class=a>First.</p><p class=b>Second.</p></main></body></html>")
	}))
	defer srv.Close()
	dir := t.TempDir()
	if r := warren(t, dir, "settings", "set", "web.allowed_hosts", strings.TrimPrefix(srv.URL, "http://")); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	if r := warren(t, dir, "agents", "edit", "default", "--network", "on"); r.code != 0 {
		t.Fatalf("agents edit: %+v", r)
	}
	r := warren(t, dir, "web", "fetch", srv.URL+"/", "--selector", "p.b", "--format", "text")
	if r.code != 0 || !strings.Contains(r.stdout, "Second.") || strings.Contains(r.stdout, "First.") {
		t.Fatalf("web fetch: %+v", r)
	}
	r = warren(t, dir, "web", "fetch", "http://169.254.169.254/", "--json")
	if r.code == 0 || !strings.Contains(r.stdout, "SecurityError") || !strings.Contains(r.stdout, "link-local") {
		t.Fatalf("metadata address: %+v", r)
	}
	for _, bad := range [][]string{{"web"}, {"web", "get"}, {"web", "fetch"}, {"web", "search"}} {
		if r := warren(t, dir, bad...); r.code == 0 {
			t.Errorf("%v accepted: %+v", bad, r)
		}
	}
	if r := warren(t, dir, "settings", "set", "web.search_providers", "searxng"); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	r = warren(t, dir, "web", "search", "rabbit", "warrens")
	if r.code == 0 || !strings.Contains(r.stderr, "web.searxng_url") {
		t.Fatalf("search without an instance: %+v", r)
	}
}

// A web_search error of several lines is printed once, on stderr.
func TestMultiLineErrorPrintedOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := warren(t, dir, "agents", "add", "surfer", "--network", "on"); r.code != 0 {
		t.Fatalf("agents add: %+v", r)
	}
	// A SearXNG that is not trusted: refused for every provider in the chain.
	if r := warren(t, dir, "settings", "set", "web.search_providers", "searxng"); r.code != 0 {
		t.Fatalf("settings: %+v", r)
	}
	r := warren(t, dir, "web", "search", "burrows", "--agent", "surfer")
	if r.code == 0 || !strings.Contains(r.stderr, "error [") || strings.TrimSpace(r.stdout) != "" {
		t.Fatalf("a multi-line error: stdout %q stderr %q", r.stdout, r.stderr)
	}
}
