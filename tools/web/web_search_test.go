package web

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// providerSite serves each provider's recorded result page at the path
// web_search will ask for, checking the request the way the real service
// would.
func providerSite(t *testing.T, seen *atomic.Value) http.Handler {
	ddg, brave, searx := readTestdata(t, "ddg.html"), readTestdata(t, "brave.json"), readTestdata(t, "searxng.json")
	mux := http.NewServeMux()
	mux.HandleFunc("POST /ddg/html/", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.PostForm.Get("q") == "" {
			http.Error(w, "no query", http.StatusBadRequest)
			return
		}
		seen.Store("ddg:" + r.PostForm.Get("q"))
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write(ddg)
	})
	mux.HandleFunc("GET /brave/res/v1/web/search", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != "brave-key" {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		seen.Store("brave:" + r.URL.Query().Get("q") + ":" + r.URL.Query().Get("count"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(brave)
	})
	mux.HandleFunc("GET /searx/search", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "", http.StatusForbidden)
			return
		}
		seen.Store("searxng:" + r.URL.Query().Get("q"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(searx)
	})
	mux.HandleFunc("GET /searx-noformat/search", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Forbidden", http.StatusForbidden)
	})
	mux.HandleFunc("/down/", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "oops", http.StatusBadGateway)
	})
	return mux
}

func searchEnv(t *testing.T, cfg SearchConfig, seen *atomic.Value) *testEnv {
	t.Helper()
	var e *testEnv
	e = newTestEnv(t, providerSite(t, seen), func(d *Deps) {
		d.Search = func(context.Context) (SearchConfig, error) {
			c := cfg
			c.SearXNGURL = strings.ReplaceAll(c.SearXNGURL, "SERVER", e.srv.URL)
			return c, nil
		}
	})
	// The endpoints are only known once the server runs; rebuild the tools.
	e.deps.Endpoints = Endpoints{DuckDuckGo: e.srv.URL + "/ddg/html/", Brave: e.srv.URL + "/brave/res/v1/web/search"}
	e.build(t)
	return e
}

func TestWebSearchProviders(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  SearchConfig
		seen string
		want []string
		not  []string
	}{
		{"duckduckgo", SearchConfig{Providers: []string{"duckduckgo"}}, "ddg:warren rabbits",
			[]string{"2 result(s)", "from duckduckgo", "1. Warren (burrow) - Wikipedia", "https://en.wikipedia.org/wiki/Warren_(burrow)",
				"A warren is a network of wild rabbit homes.", "https://example.org/rabbits?a=1&b=2", "Rabbits live in warrens underground.", untrustedStart},
			[]string{"Buy rabbit food", "y.js"}},
		{"brave", SearchConfig{Providers: []string{"brave"}, BraveKey: "brave-key"}, "brave:warren rabbits:10",
			[]string{"3 result(s)", "from brave", "Rabbits live in warrens.", "https://example.net/3"}, []string{"<strong>"}},
		{"searxng", SearchConfig{Providers: []string{"searxng"}, SearXNGURL: "SERVER/searx"}, "searxng:warren rabbits",
			[]string{"2 result(s)", "from searxng", "Warren (burrow) - Wikipedia"}, nil},
		{"fallback", SearchConfig{Providers: []string{"brave", "searxng", "duckduckgo"}, SearXNGURL: "SERVER/down"}, "ddg:warren rabbits",
			[]string{"from duckduckgo", "Skipped", "brave: no API key: set web.brave_api_key", "searxng: the server answered 502"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var seen atomic.Value
			e := searchEnv(t, c.cfg, &seen)
			r := e.call(t, "web_search", map[string]any{"query": "warren rabbits"}, true)
			if r.IsError {
				t.Fatalf("search failed: %s", r.ForLLM)
			}
			if got, _ := seen.Load().(string); got != c.seen {
				t.Errorf("the provider saw %q, want %q", got, c.seen)
			}
			mustContain(t, r.ForLLM, c.want...)
			mustNotContain(t, r.ForLLM, c.not...)
		})
	}
}

func TestWebSearchCountAndErrors(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	e := searchEnv(t, SearchConfig{Providers: []string{"brave"}, BraveKey: "brave-key"}, &seen)
	r := e.call(t, "web_search", map[string]any{"query": "warren", "count": 1}, true)
	mustContain(t, r.ForLLM, "1 result(s)")
	mustNotContain(t, r.ForLLM, "Rabbit facts")
	if got, _ := seen.Load().(string); got != "brave:warren:1" {
		t.Errorf("count not passed on: %q", got)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"query": "  "}, "say what to search for"},
		{map[string]any{"query": "x", "count": 21}, "between 1 and 20"},
	} {
		if r := e.call(t, "web_search", c.args, true); r.Code() != tools.CodeValidation || !strings.Contains(r.ForLLM, c.want) {
			t.Errorf("%v: %s", c.args, r.ForLLM)
		}
	}

	none := searchEnv(t, SearchConfig{}, &seen)
	r = none.call(t, "web_search", map[string]any{"query": "x"}, true)
	mustContain(t, r.ForLLM, "no search provider is configured", "web.search_providers")

	bad := searchEnv(t, SearchConfig{Providers: []string{"brave", "searxng"}, BraveKey: "wrong"}, &seen)
	r = bad.call(t, "web_search", map[string]any{"query": "x"}, true)
	if r.Code() != tools.CodeNetwork {
		t.Fatalf("code %s: %s", r.Code(), r.ForLLM)
	}
	mustContain(t, r.ForLLM, "no search provider answered", "brave: the server answered 401", "searxng: no instance: set web.searxng_url")

	noFormat := searchEnv(t, SearchConfig{Providers: []string{"searxng"}, SearXNGURL: "SERVER/searx-noformat"}, &seen)
	r = noFormat.call(t, "web_search", map[string]any{"query": "x"}, true)
	mustContain(t, r.ForLLM, "enable the json format")
}

// A SearXNG on the LAN that is not on the allow list is refused, and the
// error says to add it.
func TestWebSearchSearXNGNeedsAllowList(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	e := searchEnv(t, SearchConfig{Providers: []string{"searxng"}, SearXNGURL: "http://127.0.0.1:1/"}, &seen)
	r := e.call(t, "web_search", map[string]any{"query": "x"}, true)
	if r.Code() != tools.CodeSecurity {
		t.Fatalf("code %s: %s", r.Code(), r.ForLLM)
	}
	mustContain(t, r.ForLLM, "rule loopback", "warren settings set web.allowed_hosts 127.0.0.1:1)")
}
