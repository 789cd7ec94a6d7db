package cli_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrowserToolCall: `warren tool call browser … --json` reaches the
// browser tool and answers in JSON. The network guard refuses a loopback
// test page until its host is trusted (web.allowed_hosts), and no Chromium
// outlives the command.
func TestBrowserToolCall(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>CLI</title><h1>From the CLI</h1>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	if r := warren(t, dir, "agents", "add", "surfer", "--type", "predefined", "--network", "on", "--profile", "full"); r.code != 0 {
		t.Fatalf("agents add: %d %s", r.code, r.stderr)
	}
	r := warren(t, dir, "tool", "call", "browser", `{"action":"open","url":"`+site.URL+`"}`, "--agent", "surfer", "--json")
	var out struct {
		Status string `json:"status"`
		Error  *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	if r.code != 1 || out.Status != "error" || out.Error == nil || out.Error.Code != "SecurityError" || !strings.Contains(r.stdout, "loopback") {
		t.Fatalf("browser open of a loopback page: %d %s", r.code, r.stdout)
	}
	if r := warren(t, dir, "settings", "set", "web.allowed_hosts", strings.TrimPrefix(site.URL, "http://")); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	if r := warren(t, dir, "tool", "call", "browser", `{"action":"open","url":"`+site.URL+`"}`, "--agent", "surfer", "--json"); r.code != 0 || !strings.Contains(r.stdout, "From the CLI") {
		t.Fatalf("browser open of a trusted page: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := warren(t, dir, "tool", "call", "browser", `{"action":"open","url":"file:///etc/passwd"}`, "--agent", "surfer", "--json"); r.code != 1 || !strings.Contains(r.stdout, "SecurityError") {
		t.Fatalf("file: URL: %d %s", r.code, r.stdout)
	}
	if r := warren(t, dir, "tool", "call", "browser", `{"action":"close"}`, "--agent", "surfer", "--json"); r.code != 0 || !strings.Contains(r.stdout, "No browser was open") {
		t.Fatalf("close: %d %s", r.code, r.stdout)
	}
	profile := filepath.Join(dir, "cache", "browser", "surfer")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && strings.Contains(string(b), "--user-data-dir="+profile) {
			t.Fatalf("Chromium (pid %s) outlived the command", e.Name())
		}
	}
}
