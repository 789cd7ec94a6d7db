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
