package gateway_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
)

const inspectorOrigin = "http://localhost:6274" // an extra allowed origin (MCP Inspector's)

// send makes one real HTTP request to the gateway: an initialize POST, or
// a bodiless request for other methods. set adjusts it before it goes.
func send(t *testing.T, method, endpoint string, set func(*http.Request)) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`)
	}
	// A GET that gets through opens a stream that never ends.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, endpoint, body)
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	set(req)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("read answer: %v", err)
	}
	return resp, string(out)
}

// TestGatewayOriginCheck sends real requests to a served gateway: clients
// without Origin and pages of the server's own loopback origin pass; foreign
// origins, "Origin: null" and DNS-rebinding Hosts get 403 before the token
// check or any MCP work; an extra allowed origin gets CORS answers.
func TestGatewayOriginCheck(t *testing.T) {
	t.Parallel()
	core := openCore(t, warren.Options{})
	endpoint := serveHTTP(t, gateway.New(core, gateway.Options{AllowedOrigins: []string{inspectorOrigin + "/"}}))
	u, err := url.Parse(endpoint)
	must(t, err)
	port := u.Port()
	self := "http://127.0.0.1:" + port
	originRule := "warren mcp serve accepts requests without Origin or from " + self + ", http://localhost:" + port +
		", http://[::1]:" + port + ", " + inspectorOrigin

	for _, tc := range []struct {
		name    string
		method  string
		origin  []string // nil: no Origin header
		host    string   // "": the URL's
		noToken bool
		want    int
		body    string // the refusal names the rule
	}{
		{name: "no Origin", want: http.StatusOK},
		{name: "same origin 127.0.0.1", origin: []string{self}, want: http.StatusOK},
		{name: "same origin localhost", origin: []string{"http://localhost:" + port}, host: "localhost:" + port, want: http.StatusOK},
		{name: "same origin [::1]", origin: []string{"http://[::1]:" + port}, host: "[::1]:" + port, want: http.StatusOK},
		{name: "loopback names are case-insensitive", origin: []string{"http://LocalHost:" + port}, host: "LOCALHOST:" + port, want: http.StatusOK},
		{name: "extra allowed origin", origin: []string{inspectorOrigin}, want: http.StatusOK},

		{name: "foreign origin", origin: []string{"https://evil.example"}, want: http.StatusForbidden,
			body: "cross-origin request refused: Origin https://evil.example is not allowed; " + originRule},
		{name: "foreign origin without a token", origin: []string{"https://evil.example"}, noToken: true, want: http.StatusForbidden,
			body: "Origin https://evil.example is not allowed"},
		{name: "foreign origin GET", method: http.MethodGet, origin: []string{"https://evil.example"}, want: http.StatusForbidden},
		{name: "Origin null", origin: []string{"null"}, want: http.StatusForbidden, body: "Origin null is not allowed; " + originRule},
		{name: "empty Origin", origin: []string{""}, want: http.StatusForbidden, body: `Origin "" is not allowed`},
		{name: "two Origins", origin: []string{self, "https://evil.example"}, want: http.StatusForbidden},
		{name: "another local port", origin: []string{"http://127.0.0.1:1"}, want: http.StatusForbidden},
		{name: "https on the loopback port", origin: []string{"https://127.0.0.1:" + port}, want: http.StatusForbidden},
		{name: "name resolving to loopback", origin: []string{"http://127.0.0.1.nip.io:" + port}, want: http.StatusForbidden},
		{name: "subdomain of localhost", origin: []string{"http://evil.localhost:" + port}, want: http.StatusForbidden},
		{name: "userinfo trick", origin: []string{"http://127.0.0.1:" + port + "@evil.example"}, want: http.StatusForbidden},
		{name: "origin with a path", origin: []string{self + "/mcp"}, want: http.StatusForbidden},
		{name: "extra origin on another port", origin: []string{"http://localhost:6275"}, want: http.StatusForbidden},

		{name: "DNS rebinding Host", host: "attacker.example:" + port, want: http.StatusForbidden,
			body: "request refused: Host attacker.example:" + port + " is not this server's address (DNS rebinding protection)"},
		{name: "DNS rebinding Host with its own Origin", host: "attacker.example:" + port,
			origin: []string{"http://attacker.example:" + port}, want: http.StatusForbidden, body: "DNS rebinding"},
		{name: "DNS rebinding Host without a token", host: "attacker.example:" + port, noToken: true, want: http.StatusForbidden},
		{name: "Host without a port", host: "attacker.example", want: http.StatusForbidden},
		{name: "loopback Host without a port", host: "127.0.0.1", want: http.StatusForbidden},
		{name: "loopback Host on another port", host: "localhost:1", want: http.StatusForbidden},
		{name: "Host resolving to loopback", host: "127.0.0.1.nip.io:" + port, want: http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			resp, body := send(t, method, endpoint, func(r *http.Request) {
				if tc.origin != nil {
					r.Header["Origin"] = tc.origin
				}
				if tc.host != "" {
					r.Host = tc.host
				}
				if tc.noToken {
					r.Header.Del("Authorization")
				}
			})
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if !strings.Contains(body, tc.body) {
				t.Fatalf("body %q lacks %q", body, tc.body)
			}
			if tc.want != http.StatusForbidden {
				return
			}
			// Refused before any work: no session, no CORS permission.
			if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
				t.Fatalf("refused request opened session %s", sid)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
				t.Fatalf("refused request allows origin %q", got)
			}
		})
	}

	t.Run("CORS answers only the extra allowed origin", func(t *testing.T) {
		resp, _ := send(t, http.MethodPost, endpoint, func(r *http.Request) { r.Header.Set("Origin", inspectorOrigin) })
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != inspectorOrigin {
			t.Fatalf("Access-Control-Allow-Origin %q", got)
		}
		if !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
			t.Fatalf("session id not exposed: %v", resp.Header)
		}
		resp, _ = send(t, http.MethodPost, endpoint, func(r *http.Request) { r.Header.Set("Origin", self) })
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("same-origin request got CORS header %q", got)
		}
	})

	preflight := func(origin string) func(*http.Request) {
		return func(r *http.Request) {
			r.Header.Del("Authorization") // browsers send no credentials with a preflight
			r.Header.Set("Origin", origin)
			r.Header.Set("Access-Control-Request-Method", http.MethodPost)
			r.Header.Set("Access-Control-Request-Headers", "authorization, content-type, mcp-protocol-version, mcp-future-header")
		}
	}
	t.Run("preflight from a foreign origin", func(t *testing.T) {
		resp, body := send(t, http.MethodOptions, endpoint, preflight("https://evil.example"))
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Origin https://evil.example is not allowed") {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		for k := range resp.Header {
			if strings.HasPrefix(k, "Access-Control-") {
				t.Fatalf("refused preflight carries %s: %v", k, resp.Header)
			}
		}
	})
	t.Run("preflight from the extra allowed origin", func(t *testing.T) {
		resp, body := send(t, http.MethodOptions, endpoint, preflight(inspectorOrigin))
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		h := resp.Header
		if h.Get("Access-Control-Allow-Origin") != inspectorOrigin || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
			t.Fatalf("preflight answer: %v", h)
		}
		for _, want := range []string{"Authorization", "Content-Type", "Mcp-Protocol-Version", "Mcp-Future-Header"} {
			if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
				t.Fatalf("Access-Control-Allow-Headers lacks %s: %v", want, h)
			}
		}
	})
	t.Run("OPTIONS without Origin still needs the token", func(t *testing.T) {
		resp, body := send(t, http.MethodOptions, endpoint, func(r *http.Request) { r.Header.Del("Authorization") })
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})

	t.Run("a client sending its own loopback Origin works end to end", func(t *testing.T) {
		c, err := client.NewStreamableHttpClient(endpoint, transport.WithHTTPHeaders(map[string]string{
			"Authorization": "Bearer " + testToken, "Origin": self,
		}))
		must(t, err)
		defer c.Close()
		must(t, c.Start(context.Background()))
		initialize(t, c)
		if text, isErr := call(t, c, "read_file", map[string]any{"path": "notes.txt"}); isErr || !strings.Contains(text, "hello from the workspace") {
			t.Fatalf("read_file: %v %q", isErr, text)
		}
	})
}

// TestGatewayAllowedOriginsChecked: an extra origin that is no origin (or a
// wildcard) stops ServeListener instead of widening the check.
func TestGatewayAllowedOriginsChecked(t *testing.T) {
	t.Parallel()
	core := openCore(t, warren.Options{})
	for _, bad := range []string{"*", "null", "localhost:6274", "ftp://localhost", "http://localhost:6274/app", "http://user@localhost:6274", "http://"} {
		t.Run(bad, func(t *testing.T) {
			ln, err := gateway.ListenLoopback(context.Background(), "127.0.0.1:0")
			must(t, err)
			g := gateway.New(core, gateway.Options{AllowedOrigins: []string{bad}})
			err = g.ServeListener(context.Background(), ln, testToken)
			if err == nil || !strings.Contains(err.Error(), "allowed origin") {
				t.Fatalf("ServeListener with allowed origin %q: %v", bad, err)
			}
		})
	}
}
