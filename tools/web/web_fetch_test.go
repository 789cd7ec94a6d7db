package web

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/warren-dev/warren/tools"
)

func siteHandler(t *testing.T, hits *atomic.Int32) http.Handler {
	article := readTestdata(t, "article.html")
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(article)
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"rabbits": 12, "warren": "north"}`)
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, strings.Repeat("abcdefghij", 100))
	})
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = io.WriteString(w, "%PDF-1.4 fake")
	})
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte{0x89, 'P', 'N', 'G'})
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		_, _ = w.Write([]byte("<html><body><p>Caf\xe9 cr\xe8me</p></body></html>"))
	})
	return mux
}

func TestWebFetchReadableMarkdown(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), nil)
	r := e.call(t, "web_fetch", map[string]any{"urls": []string{e.srv.URL + "/article"}}, true)
	if r.IsError {
		t.Fatalf("fetch failed: %s", r.ForLLM)
	}
	mustContain(t, r.ForLLM, "Fetched 1 of 1", "Rabbits and their warrens", "# ", "**Visible bold text.**",
		"[burrow]("+e.srv.URL+"/burrows)", "- Chambers", untrustedStart, untrustedEnd, "Content-Type: text/html")
	mustNotContain(t, r.ForLLM, "SCRIPT-TEXT", "color:red", "DISPLAYNONE", "HIDDEN-VISIBILITY", "HIDDEN-ARIA",
		"HIDDEN-ATTR", "HIDDEN-FONTSIZE", "HIDDEN-ZEROSIZE", "HIDDEN-OFFSCREEN", "HIDDEN-CLASS", "HIDDEN-SRONLY")
	mustContain(t, r.ForLLM, "Printed footnote stays.")
	// The page cannot close the untrusted block early.
	if strings.Count(r.ForLLM, untrustedEnd) != 1 {
		t.Fatalf("the page's own end marker survived:\n%s", r.ForLLM)
	}
}

func TestWebFetchFormatsSelectorAndTypes(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), nil)
	u := e.srv.URL
	cases := []struct {
		name string
		args map[string]any
		want []string
		not  []string
		code tools.ErrorCode
	}{
		{"text", map[string]any{"urls": []string{u + "/article"}, "format": "text"}, []string{"A warren is a network"}, []string{"**", "<p>"}, ""},
		{"html", map[string]any{"urls": []string{u + "/article"}, "format": "html"}, []string{"<p>", "warren"}, []string{"<script", "DISPLAYNONE"}, ""},
		{"selector", map[string]any{"urls": []string{u + "/article"}, "selector": "footer .legal"}, []string{"Copyright footer text"}, []string{"Rabbits are social"}, ""},
		{"selector none", map[string]any{"urls": []string{u + "/article"}, "selector": "#nope"}, []string{"matched nothing"}, nil, tools.CodeValidation},
		{"bad selector", map[string]any{"urls": []string{u + "/article"}, "selector": "p[[["}, []string{"invalid CSS selector"}, nil, tools.CodeValidation},
		{"json", map[string]any{"urls": []string{u + "/data.json"}}, []string{`{"rabbits": 12, "warren": "north"}`, "application/json"}, nil, ""},
		{"max chars", map[string]any{"urls": []string{u + "/notes.txt"}, "max_chars": 25}, []string{"abcdefghijabcdefghijabcde\n", "truncated to 25 of 1000"}, nil, ""},
		{"pdf", map[string]any{"urls": []string{u + "/doc.pdf"}}, []string{"PDF text extraction not available"}, nil, tools.CodeExecution},
		{"binary", map[string]any{"urls": []string{u + "/image.png"}}, []string{"image/png", "download_path"}, nil, tools.CodeValidation},
		{"404", map[string]any{"urls": []string{u + "/missing"}}, []string{"404"}, nil, tools.CodeNetwork},
		{"charset", map[string]any{"urls": []string{u + "/latin1"}}, []string{"Café crème"}, nil, ""},
		{"bad format", map[string]any{"urls": []string{u + "/article"}, "format": "pdf"}, []string{"format"}, nil, tools.CodeValidation},
		{"no urls", map[string]any{"urls": []string{}}, []string{"at least one"}, nil, tools.CodeValidation},
		{"too many", map[string]any{"urls": make([]string, 11)}, []string{"at most 10"}, nil, tools.CodeValidation},
		{"relative", map[string]any{"urls": []string{"/etc/passwd"}}, []string{"not an absolute"}, nil, tools.CodeValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.call(t, "web_fetch", c.args, true)
			if r.Code() != c.code {
				t.Fatalf("code %q, want %q: %s", r.Code(), c.code, r.ForLLM)
			}
			mustContain(t, r.ForLLM, c.want...)
			mustNotContain(t, r.ForLLM, c.not...)
		})
	}
}

func TestWebFetchPartialFailureAndGuard(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), nil)
	other := e.srv.URL[:strings.LastIndex(e.srv.URL, ":")] + ":1" // same address, a port not on the list
	r := e.call(t, "web_fetch", map[string]any{"urls": []string{
		e.srv.URL + "/data.json", "http://169.254.169.254/latest/meta-data/", other + "/", "file:///etc/passwd", e.srv.URL + "/missing",
	}}, true)
	if r.IsError {
		t.Fatalf("one good URL must make the call succeed: %s", r.ForLLM)
	}
	mustContain(t, r.ForLLM, "Fetched 1 of 5", `"rabbits": 12`, "rule link-local", "rule loopback", "rule scheme", "404", "SecurityError")

	// A single refused URL is a SecurityError naming the rule.
	r = e.call(t, "web_fetch", map[string]any{"urls": []string{"http://2130706433/"}}, true)
	if r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "rule loopback") {
		t.Fatalf("decimal loopback: %s", r.ForLLM)
	}
	// Every URL failing fails the call with the first failure's code.
	r = e.call(t, "web_fetch", map[string]any{"urls": []string{"http://10.0.0.1/", "http://[::1]/"}}, true)
	if r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "no URL could be fetched") {
		t.Fatalf("all refused: %s", r.ForLLM)
	}
}

func TestWebFetchNetworkSwitchOff(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), nil)
	// Fill the cache with the switch on, then ask with it off: the cache
	// must not answer for the guard.
	if r := e.call(t, "web_fetch", map[string]any{"urls": []string{e.srv.URL + "/article"}}, true); r.IsError {
		t.Fatal(r.ForLLM)
	}
	for _, name := range []string{"web_fetch", "url_fetch", "web_search"} {
		args := map[string]any{"urls": []string{e.srv.URL + "/article"}, "url": e.srv.URL + "/article", "query": "x"}
		switch name {
		case "web_fetch":
			args = map[string]any{"urls": []string{e.srv.URL + "/article"}}
		case "url_fetch":
			args = map[string]any{"url": e.srv.URL + "/article"}
		case "web_search":
			args = map[string]any{"query": "rabbits"}
		}
		r := e.call(t, name, args, false)
		if r.Code() != tools.CodeSecurity || !strings.Contains(r.ForLLM, "network-off") {
			t.Errorf("%s with the network off: %s", name, r.ForLLM)
		}
	}
}

func TestWebFetchCache(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), nil)
	args := map[string]any{"urls": []string{e.srv.URL + "/article"}}
	first := e.call(t, "web_fetch", args, true)
	second := e.call(t, "web_fetch", map[string]any{"urls": []string{e.srv.URL + "/article"}, "format": "text"}, true)
	if first.IsError || second.IsError {
		t.Fatalf("%s\n%s", first.ForLLM, second.ForLLM)
	}
	if hits.Load() != 1 {
		t.Fatalf("the server was hit %d times, want 1 (cache)", hits.Load())
	}
	mustContain(t, second.ForLLM, "from cache")

	// An expired entry is fetched again.
	var hits2 atomic.Int32
	e2 := newTestEnv(t, siteHandler(t, &hits2), func(d *Deps) { d.CacheTTL = 1 })
	e2.call(t, "web_fetch", map[string]any{"urls": []string{e2.srv.URL + "/article"}}, true)
	e2.call(t, "web_fetch", map[string]any{"urls": []string{e2.srv.URL + "/article"}}, true)
	if hits2.Load() != 2 {
		t.Fatalf("with a 1 ns TTL the server was hit %d times, want 2", hits2.Load())
	}
}

func TestWebFetchPDFHook(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	e := newTestEnv(t, siteHandler(t, &hits), func(d *Deps) {
		d.PDFText = func(_ context.Context, b []byte) (string, error) { return "PDF says " + string(b[:4]), nil }
	})
	r := e.call(t, "web_fetch", map[string]any{"urls": []string{e.srv.URL + "/doc.pdf"}}, true)
	mustContain(t, r.ForLLM, "PDF says %PDF")
}
