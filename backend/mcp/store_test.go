package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestStoreServers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	srv := Server{Name: "gh", Transport: TransportHTTP, URL: "https://example.test/mcp",
		Headers: map[string]string{"Authorization": "Bearer tok-123456"}, Enabled: true}
	f.save(t, srv)
	v1, _ := f.store.Version(ctx)

	got, err := f.store.Get(ctx, "gh")
	if err != nil {
		t.Fatal(err)
	}
	if got.Headers != nil || len(got.HeaderKeys) != 1 || got.HeaderKeys[0] != "Authorization" {
		t.Fatalf("read exposes header values or lost keys: %+v", got)
	}
	// Secret values are sealed in the stored column.
	var stored string
	if err := f.db.SQL().QueryRowContext(ctx, "SELECT headers_sealed FROM mcp_servers WHERE name = 'gh'").Scan(&stored); err != nil ||
		!strings.Contains(stored, "Authorization") || strings.Contains(stored, "tok-123456") {
		t.Fatalf("stored headers %q (%v): the value must be sealed", stored, err)
	}
	_, headers, err := f.store.Secrets(ctx, "gh")
	if err != nil || headers["Authorization"] != "Bearer tok-123456" {
		t.Fatalf("Secrets = %v, %v", headers, err)
	}

	// Merge keeps stored values; an empty value deletes.
	srv.Headers = map[string]string{"X-Extra": "1"}
	if err := f.store.Save(ctx, srv, MergeSecrets); err != nil {
		t.Fatal(err)
	}
	if _, h, _ := f.store.Secrets(ctx, "gh"); len(h) != 2 {
		t.Fatalf("merge lost a header: %v", h)
	}
	srv.Headers = map[string]string{"X-Extra": ""}
	_ = f.store.Save(ctx, srv, MergeSecrets)
	if _, h, _ := f.store.Secrets(ctx, "gh"); len(h) != 1 {
		t.Fatalf("empty value did not delete: %v", h)
	}
	if v2, _ := f.store.Version(ctx); v2 == v1 {
		t.Error("version did not change on save")
	}

	if err := f.store.SetToolEnabled(ctx, "gh", "delete_repo", false); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.store.Get(ctx, "gh"); len(got.ToolDeny) != 1 || got.ToolDeny[0] != "delete_repo" {
		t.Fatalf("tool switch not stored: %v", got.ToolDeny)
	}
	_ = f.store.SetToolEnabled(ctx, "gh", "delete_repo", true)
	if got, _ := f.store.Get(ctx, "gh"); len(got.ToolDeny) != 0 {
		t.Fatalf("tool switch not cleared: %v", got.ToolDeny)
	}
	if err := f.store.SetEnabled(ctx, "nope", true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SetEnabled(unknown) = %v", err)
	}
	if err := f.store.Delete(ctx, "gh"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Get(ctx, "gh"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after delete = %v", err)
	}
}

func TestServerValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		srv  Server
		want string
	}{
		{Server{Name: "", Transport: TransportStdio, Command: "x"}, "name is empty"},
		{Server{Name: "a b", Transport: TransportStdio, Command: "x"}, `has ' '`},
		{Server{Name: strings.Repeat("a", 41), Transport: TransportStdio, Command: "x"}, "the limit is 40"},
		{Server{Name: "a", Transport: TransportStdio}, "needs a command"},
		{Server{Name: "a", Transport: TransportHTTP, URL: "ftp://x"}, "must be an http"},
		{Server{Name: "a", Transport: TransportSSE, URL: "http://x", Sandboxed: true}, "only stdio servers"},
		{Server{Name: "a", Transport: "ws", URL: "http://x"}, `unknown transport "ws"`},
		{Server{Name: "a", Transport: TransportStdio, Command: "x", Env: map[string]string{"A=B": "1"}}, "env name"},
		{Server{Name: "a", Transport: TransportStdio, Command: "x", ToolPrefix: "p/q"}, "tool prefix"},
	} {
		err := tc.srv.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.srv, err, tc.want)
		}
	}
	if got := ToolName("srv", "do.thing/now"); got != "mcp_srv_do_thing_now" {
		t.Errorf("ToolName = %q", got)
	}
	if got := ToolName("srv", strings.Repeat("x", 100)); len(got) != 64 {
		t.Errorf("ToolName is %d long", len(got))
	}
}

func TestGrantsAndRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f.save(t, Server{Name: "db", Transport: TransportStdio, Command: "x", Enabled: true, Restricted: true})

	if err := f.store.SaveGrant(ctx, Grant{Server: "missing", Scope: ScopeAgent, Subject: "a", Enabled: true}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("grant on unknown server = %v", err)
	}
	if err := f.store.SaveGrant(ctx, Grant{Server: "db", Scope: "team", Subject: "a"}); err == nil {
		t.Fatal("bad scope accepted")
	}
	id, err := f.store.CreateRequest(ctx, AccessRequest{Server: "db", Scope: ScopeAgent, Subject: "coder", ToolAllow: []string{"query"}, Reason: "reports"})
	if err != nil {
		t.Fatal(err)
	}
	reqs, _ := f.store.Requests(ctx, StatusPending)
	if len(reqs) != 1 || reqs[0].ID != id || reqs[0].Reason != "reports" {
		t.Fatalf("pending = %+v", reqs)
	}
	if err := f.store.Review(ctx, id, true, "me", "ok"); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Review(ctx, id, false, "me", ""); err == nil || !strings.Contains(err.Error(), "already approved") {
		t.Fatalf("second review = %v", err)
	}
	grants, _ := f.store.Grants(ctx, "db")
	if len(grants) != 1 || grants[0].Subject != "coder" || !grants[0].Enabled || grants[0].ToolAllow[0] != "query" {
		t.Fatalf("approval did not create the grant: %+v", grants)
	}
	id2, _ := f.store.CreateRequest(ctx, AccessRequest{Server: "db", Scope: ScopeUser, Subject: "local"})
	_ = f.store.Review(ctx, id2, false, "me", "no")
	if grants, _ := f.store.Grants(ctx, "db"); len(grants) != 1 {
		t.Fatalf("rejection created a grant: %+v", grants)
	}
	if err := f.store.Review(ctx, 999, true, "", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("review unknown = %v", err)
	}
	// Deleting the server removes its grants and requests.
	_ = f.store.Delete(ctx, "db")
	if grants, _ := f.store.Grants(ctx, ""); len(grants) != 0 {
		t.Fatalf("grants survived the server: %+v", grants)
	}
	if reqs, _ := f.store.Requests(ctx, ""); len(reqs) != 0 {
		t.Fatalf("requests survived the server: %+v", reqs)
	}
}

func TestAccessPermits(t *testing.T) {
	t.Parallel()
	open := Server{Name: "s", ToolDeny: []string{"off"}}
	restricted := Server{Name: "s", Restricted: true}
	for _, tc := range []struct {
		name   string
		access Access
		agent  string
		tool   string
		want   bool
		reason string
	}{
		{"open server", Access{server: open}, "a", "read", true, ""},
		{"switched off", Access{server: open}, "a", "off", false, "switched off"},
		{"restricted without grant", Access{server: restricted}, "a", "read", false, "no grant"},
		{"agent grant", Access{server: restricted, grants: []Grant{{Scope: ScopeAgent, Subject: "a", Enabled: true}}}, "a", "read", true, ""},
		{"user grant", Access{server: restricted, grants: []Grant{{Scope: ScopeUser, Subject: "local", Enabled: true}}}, "b", "read", true, ""},
		{"other agent's grant", Access{server: restricted, grants: []Grant{{Scope: ScopeAgent, Subject: "x", Enabled: true}}}, "a", "read", false, "no grant"},
		{"disabled grant", Access{server: open, grants: []Grant{{Scope: ScopeAgent, Subject: "a"}}}, "a", "read", false, "disabled"},
		{"allow list", Access{server: open, grants: []Grant{{Scope: ScopeAgent, Subject: "a", Enabled: true, ToolAllow: []string{"read"}}}}, "a", "write", false, "allows only"},
		{"deny wins", Access{server: open, grants: []Grant{{Scope: ScopeAgent, Subject: "a", Enabled: true, ToolAllow: []string{"read"}, ToolDeny: []string{"read"}}}}, "a", "read", false, "denies read"},
		{"deny in user grant wins over agent allow", Access{server: open, grants: []Grant{
			{Scope: ScopeAgent, Subject: "a", Enabled: true, ToolAllow: []string{"read"}},
			{Scope: ScopeUser, Subject: "local", Enabled: true, ToolDeny: []string{"read"}}}}, "a", "read", false, "denies read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, reason := tc.access.Permits(tc.agent, "local", tc.tool)
			if ok != tc.want || !strings.Contains(reason, tc.reason) {
				t.Fatalf("Permits = %v %q, want %v %q", ok, reason, tc.want, tc.reason)
			}
		})
	}
}

// What Save accepts, export writes: a header name that is no HTTP token
// would make every later export fail, so it is refused at once.
func TestSavedServersExport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	err := f.store.Save(context.Background(), Server{Name: "odd", Transport: TransportHTTP, URL: "http://h/mcp",
		Headers: map[string]string{"X(Y": "1"}}, ReplaceSecrets)
	if err == nil || !strings.Contains(err.Error(), "not a valid HTTP header name") {
		t.Fatalf("save = %v", err)
	}
	// An empty value deletes a stored one and is no part of the check.
	f.save(t, Server{Name: "ok", Transport: TransportHTTP, URL: "http://h/mcp", Env: map[string]string{"OLD": ""}})
}

// Names are unique regardless of case; saving the same name again updates.
func TestStoreNamesIgnoreCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	ok1 := Server{Name: "ok1", Transport: TransportStdio, Command: "true", Enabled: true}
	f.save(t, ok1)
	for _, name := range []string{"OK1", "Ok1", "oK1"} {
		s := ok1
		s.Name = name
		err := f.store.Save(ctx, s, ReplaceSecrets)
		if !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), `by server "ok1"`) || !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Fatalf("save %s: %v", name, err)
		}
	}
	ok1.Args = []string{"again"}
	if err := f.store.Save(ctx, ok1, MergeSecrets); err != nil {
		t.Fatalf("updating ok1: %v", err)
	}
	other := ok1
	other.Name = "ok2"
	f.save(t, other)
	if list, err := f.store.List(ctx); err != nil || len(list) != 2 {
		t.Fatalf("list = %+v, %v", list, err)
	}
}
