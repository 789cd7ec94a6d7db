package mcp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// statusServer answers every request with one HTTP status: a server
// rejecting a request is the condition, nothing MCP-specific is faked.
func statusServer(t *testing.T, code int) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", code) }))
	t.Cleanup(s.Close)
	return s.URL + "/mcp"
}

// Transport failures are one plain sentence naming the URL.
func TestHTTPErrorsSayWhatFailed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.manager(t, Options{})
	port, _ := startHTTPServer(t, "streamableHttp")
	tlsServer := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(tlsServer.Close)
	// A listener that accepts and never answers.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = silent.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	refused := fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t))
	cases := []struct {
		name, url string
		transport Transport
		want      []string
	}{
		{"404 both ways", fmt.Sprintf("http://127.0.0.1:%d/nope", port), TransportHTTP,
			[]string{"answered 404 Not Found: no MCP endpoint at this path", "(over streamable HTTP and over the legacy SSE transport)"}},
		{"400", statusServer(t, 400), TransportHTTP, []string{"answered 400 Bad Request"}},
		{"401", statusServer(t, 401), TransportHTTP, []string{"refused the request: 401 Unauthorized (the token is missing or wrong"}},
		{"403", statusServer(t, 403), TransportHTTP, []string{"refused access: 403 Forbidden"}},
		{"500", statusServer(t, 500), TransportHTTP, []string{"answered 500 Internal Server Error"}},
		{"sse 403", statusServer(t, 403), TransportSSE, []string{"refused access: 403 Forbidden"}},
		{"sse 404", statusServer(t, 404), TransportSSE, []string{"answered 404 Not Found"}},
		{"refused", refused, TransportHTTP, []string{"nothing is listening at " + refused + " (connection refused)"}},
		{"sse refused", refused, TransportSSE, []string{"nothing is listening at " + refused}},
		{"dns", "http://no-such-host.invalid/mcp", TransportHTTP, []string{"cannot find host no-such-host.invalid of http://no-such-host.invalid/mcp"}},
		{"untrusted tls", tlsServer.URL + "/mcp", TransportHTTP, []string{"its TLS certificate is not trusted"}},
		{"https to http", fmt.Sprintf("https://127.0.0.1:%d/mcp", port), TransportSSE, []string{"is an https:// address, but the server speaks plain HTTP"}},
		{"silent", "http://" + silent.Addr().String() + "/mcp", TransportHTTP, []string{"no answer from http://" + silent.Addr().String() + "/mcp to initialize within 2s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := m.Test(context.Background(), Server{Name: "x", Transport: c.transport, URL: c.url, ConnectTimeout: 2 * time.Second})
			if err == nil {
				t.Fatal("connected")
			}
			msg := err.Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			for _, bad := range []string{"likely a legacy SSE server", "failed to send request", "unexpected status code", "transport error"} {
				if strings.Contains(msg, bad) {
					t.Errorf("error %q still says %q", msg, bad)
				}
			}
		})
	}
}

// A server configured as streamable HTTP that speaks only the legacy SSE
// transport (server-everything in sse mode) is reached over SSE, and the
// status says so.
func TestStreamableHTTPFallsBackToSSE(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	port, _ := startHTTPServer(t, "sse")
	url := fmt.Sprintf("http://127.0.0.1:%d/sse", port)
	f.save(t, Server{Name: "legacy", Transport: TransportHTTP, URL: url, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	res, err := m.Test(context.Background(), Server{Name: "legacy", Transport: TransportHTTP, URL: url})
	if err != nil || res.Via != TransportSSE || len(res.Tools) == 0 || !strings.Contains(res.Warning, "connected over the legacy SSE transport") {
		t.Fatalf("test = %+v, %v", res, err)
	}
	if err := m.Start(context.Background(), "legacy"); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "legacy", 30*time.Second, StateConnected, StateReconnecting)
	if st.State != StateConnected || st.Via != TransportSSE || !strings.Contains(st.Warning, "refused streamable HTTP (404 Not Found)") {
		t.Fatalf("status = %s via %q: %q %q", st.State, st.Via, st.LastError, st.Warning)
	}
	out, err := m.Call(context.Background(), "legacy", "echo", []byte(`{"message":"over sse"}`))
	if err != nil || !strings.Contains(ResultText(out), "over sse") {
		t.Fatalf("echo = %+v, %v", out, err)
	}
}
