package warren_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/authprofiles"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

// url_fetch's auth_profile: the credential reaches only the profile's
// hosts, never through a redirect, never from the model, and never comes
// back in a result.
func TestURLFetchAuthProfile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	seen := map[string]string{} // server → Authorization it received
	handler := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
			mu.Unlock()
			if r.URL.Path == "/hop" {
				http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
				return
			}
			// A careless API echoes the request's headers.
			_, _ = io.WriteString(w, "you sent: "+r.Header.Get("Authorization")+r.Header.Get("X-Api-Key"))
		}
	}
	api := httptest.NewServer(handler("api"))
	defer api.Close()
	other := httptest.NewServer(handler("other"))
	defer other.Close()
	apiHost, otherHost := strings.TrimPrefix(api.URL, "http://"), strings.TrimPrefix(other.URL, "http://")

	dir := t.TempDir()
	w := open(t, dir)
	agent := storeAgent("caller")
	agent.Network = true
	if _, err := w.SaveAgent(ctx, agent); err != nil {
		t.Fatal(err)
	}
	if err := w.SetSetting(ctx, warren.SettingWebAllowedHosts, apiHost+","+otherHost); err != nil {
		t.Fatal(err)
	}
	const token = "tok-9f8e7d6c5b4a"
	if err := w.SaveAuthProfile(ctx, authprofiles.Profile{Name: "api", Kind: authprofiles.KindBearer, Hosts: []string{apiHost}}, token); err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) tools.Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		r, err := w.CallTool(ctx, warren.CallRequest{Name: "url_fetch", Args: raw, Agent: "caller"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	got := func(server string) string {
		mu.Lock()
		defer mu.Unlock()
		v := seen[server]
		delete(seen, server)
		return v
	}

	r := call(map[string]any{"url": api.URL + "/me", "auth_profile": "api"})
	if r.IsError || got("api") != "Bearer "+token {
		t.Fatalf("the profile's host: %s", r.ForLLM)
	}
	if strings.Contains(r.ForLLM, token) || strings.Contains(r.ForUser, token) {
		t.Fatalf("the token came back in the result: %s", r.ForLLM)
	}
	if r := call(map[string]any{"url": other.URL + "/me", "auth_profile": "api"}); r.Code() != tools.CodeSecurity ||
		!strings.Contains(r.ForLLM, "may be sent only to "+apiHost) || got("other") != "" {
		t.Fatalf("another host: %s", r.ForLLM)
	}
	// A redirect is returned, not followed: the token stays with the API.
	r = call(map[string]any{"url": api.URL + "/hop?to=" + other.URL + "/steal", "auth_profile": "api"})
	if r.IsError || !strings.Contains(r.ForLLM, "302") || got("other") != "" || got("api") == "" {
		t.Fatalf("a redirect with a credential: %s (other saw %q)", r.ForLLM, got("other"))
	}
	if r := call(map[string]any{"url": api.URL + "/me", "auth_profile": "api", "headers": map[string]string{"authorization": "Bearer mine"}}); r.Code() != tools.CodeSecurity {
		t.Fatalf("the model's own Authorization: %s", r.ForLLM)
	}
	if r := call(map[string]any{"url": api.URL + "/me", "auth_profile": "nope"}); r.Code() != tools.CodeNotFound || !strings.Contains(r.ForLLM, "profiles: api") {
		t.Fatalf("an unknown profile: %s", r.ForLLM)
	}

	// A header profile; an edit without a secret keeps it.
	p := authprofiles.Profile{Name: "keyed", Kind: authprofiles.KindHeader, Header: "X-API-Key", Hosts: []string{apiHost}}
	if err := w.SaveAuthProfile(ctx, p, ""); err == nil {
		t.Fatal("a new profile without a secret was saved")
	}
	if err := w.SaveAuthProfile(ctx, p, "key-123456"); err != nil {
		t.Fatal(err)
	}
	p.Hosts = append(p.Hosts, otherHost)
	if err := w.SaveAuthProfile(ctx, p, ""); err != nil {
		t.Fatal(err)
	}
	if r := call(map[string]any{"url": other.URL + "/x", "auth_profile": "keyed"}); r.IsError || got("other") != "key-123456" {
		t.Fatalf("the header profile after an edit: %s", r.ForLLM)
	}
	list, err := w.AuthProfiles(ctx)
	if err != nil || len(list) != 2 || !list[1].HasSecret || len(list[1].Hosts) != 2 {
		t.Fatalf("list %+v %v", list, err)
	}
	// Sealed at rest: the database file holds neither secret in clear.
	db, err := sql.Open("sqlite", dir+"/warren.db")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	var stored string
	if err := db.QueryRowContext(ctx, `SELECT group_concat(secret) FROM auth_profiles`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored, token) || strings.Contains(stored, "key-123456") {
		t.Fatal("a secret is stored in clear")
	}
	if err := w.DeleteAuthProfile(ctx, "keyed"); err != nil {
		t.Fatal(err)
	}
}

func TestAuthProfileValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		p    authprofiles.Profile
		want string
	}{
		{"no hosts", authprofiles.Profile{Name: "a", Kind: "bearer"}, "at least one host"},
		{"url as host", authprofiles.Profile{Name: "a", Kind: "bearer", Hosts: []string{"https://api.x/"}}, "not a URL"},
		{"wildcard", authprofiles.Profile{Name: "a", Kind: "bearer", Hosts: []string{"*.github.com"}}, "not a URL or a pattern"},
		{"bad port", authprofiles.Profile{Name: "a", Kind: "bearer", Hosts: []string{"api.x:99999"}}, "port"},
		{"basic without user", authprofiles.Profile{Name: "a", Kind: "basic", Hosts: []string{"api.x"}}, "username"},
		{"cookie header", authprofiles.Profile{Name: "a", Kind: "header", Header: "Cookie", Hosts: []string{"api.x"}}, "not a header name"},
		{"bad name", authprofiles.Profile{Name: "A B", Kind: "bearer", Hosts: []string{"api.x"}}, "lower-case"},
		{"bad kind", authprofiles.Profile{Name: "a", Kind: "oauth", Hosts: []string{"api.x"}}, "bearer, basic or header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
