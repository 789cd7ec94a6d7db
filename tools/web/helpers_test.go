package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/tools"
)

// testEnv is the web tools over a real SQLite file, behind a real guard
// that allow-lists only the test's own loopback server.
type testEnv struct {
	reg      *tools.Registry
	srv      *httptest.Server
	guard    *netguard.Guard
	deps     Deps
	cacheDir string
}

func newTestEnv(t *testing.T, h http.Handler, tune func(*Deps)) *testEnv {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	g, err := netguard.New(netguard.Options{
		AllowedHosts:   []string{strings.TrimPrefix(srv.URL, "http://")},
		NetworkAllowed: NetworkAllowed,
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{srv: srv, guard: g, cacheDir: t.TempDir()}
	e.deps = Deps{Guard: g, DB: db.SQL(), CacheDir: e.cacheDir}
	if tune != nil {
		tune(&e.deps)
	}
	e.build(t)
	return e
}

// build (re)makes the tools from e.deps into a fresh registry.
func (e *testEnv) build(t *testing.T) {
	t.Helper()
	ts, err := Tools(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	e.reg = tools.NewRegistry(tools.Options{})
	for _, tool := range ts {
		if err := e.reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
}

// call runs a tool as an agent whose network switch is on (or off).
func (e *testEnv) call(t *testing.T, name string, args any, network bool) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.reg.ExecuteWithContext(context.Background(), tools.Call{
		Name: name, Args: raw, Context: tools.CallContext{Agent: "tester", Network: network},
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustContain(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("missing %q in:\n%s", w, s)
		}
	}
}

func mustNotContain(t *testing.T, s string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(s, b) {
			t.Errorf("unexpected %q in:\n%s", b, s)
		}
	}
}
