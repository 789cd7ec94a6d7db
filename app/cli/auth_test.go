package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// `warren auth`: the secret comes from stdin, never from argv; url_fetch
// then sends it to the profile's host and nowhere else.
func TestAuthProfilesCLI(t *testing.T) {
	t.Parallel()
	got := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got <- r.Header.Get("Authorization") }))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	if r := warren(t, dir, "auth", "list"); r.code != 0 || !strings.Contains(r.stdout, "no auth profiles") {
		t.Fatalf("empty list: %+v", r)
	}
	if r := warrenStdin(t, dir, "", "auth", "add", "svc", "--host", host, "--bearer"); r.code == 0 || !strings.Contains(r.stderr, "no secret on stdin") {
		t.Fatalf("no secret: %+v", r)
	}
	if r := warrenStdin(t, dir, "tok-777\n", "auth", "add", "svc", "--host", host, "--bearer"); r.code != 0 {
		t.Fatalf("add: %+v", r)
	}
	r := warren(t, dir, "auth", "list", "--json")
	var ps []struct {
		Name      string   `json:"name"`
		Hosts     []string `json:"hosts"`
		HasSecret bool     `json:"has_secret"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ps); err != nil || len(ps) != 1 || !ps[0].HasSecret || strings.Contains(r.stdout, "tok-777") {
		t.Fatalf("list --json: %+v %v", r, err)
	}
	for _, args := range [][]string{{"settings", "set", "web.allowed_hosts", host}, {"agents", "add", "caller", "--network", "on"}} {
		if r := warren(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	r = warren(t, dir, "tool", "call", "url_fetch", `{"url":"`+srv.URL+`/","auth_profile":"svc"}`, "--agent", "caller", "--json")
	if r.code != 0 || <-got != "Bearer tok-777" {
		t.Fatalf("url_fetch with the profile: %+v", r)
	}
	if r := warren(t, dir, "auth", "edit", "svc", "--host", "api.example.org"); r.code != 0 {
		t.Fatalf("edit: %+v", r)
	}
	r = warren(t, dir, "tool", "call", "url_fetch", `{"url":"`+srv.URL+`/","auth_profile":"svc"}`, "--agent", "caller", "--json")
	if !strings.Contains(r.stdout, "SecurityError") || !strings.Contains(r.stdout, "only to api.example.org") {
		t.Fatalf("after the host changed: %+v", r)
	}
	if r := warren(t, dir, "auth", "remove", "svc"); r.code != 0 {
		t.Fatalf("remove: %+v", r)
	}
}
