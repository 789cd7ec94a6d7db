package gateway

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzOriginGuard checks the guard against a second, independent judge
// (net.ParseIP, url.Parse): whatever gets through names a loopback Host with
// the server's port, and has no Origin, the server's own loopback origin or
// the configured extra one. Refusals are 403 without CORS headers. Seeds:
// testdata/fuzz/FuzzOriginGuard.
func FuzzOriginGuard(f *testing.F) {
	const port, extra = "8765", "http://localhost:6274"
	reached := false
	next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true })
	g, err := newOriginGuard(port, []string{extra + "/"}, slog.New(slog.DiscardHandler), next)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, host, origin string, sent bool) {
		reached = false
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Host = host
		if sent {
			r.Header["Origin"] = []string{origin}
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if !reached {
			if w.Code != http.StatusForbidden || w.Header().Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("refusal: %d %v", w.Code, w.Header())
			}
			return
		}
		h, p, err := net.SplitHostPort(host)
		if err != nil {
			h, p = strings.Trim(host, "[]"), "80"
		}
		if p != port || !loopbackName(h) {
			t.Fatalf("Host %q got through", host)
		}
		if !sent || strings.EqualFold(origin, extra) {
			return
		}
		u, err := url.Parse(origin)
		if err != nil || u.Scheme != "http" || u.User != nil || u.Path != "" || u.RawQuery != "" ||
			u.Port() != port || !loopbackName(u.Hostname()) {
			t.Fatalf("Origin %q got through", origin)
		}
	})
}

func loopbackName(h string) bool {
	ip := net.ParseIP(h)
	return strings.EqualFold(h, "localhost") || (ip != nil && ip.IsLoopback())
}
