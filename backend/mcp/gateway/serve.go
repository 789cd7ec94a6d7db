package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// EndpointPath is where the streamable HTTP transport is served.
const EndpointPath = "/mcp"

// ErrNotLoopback marks an HTTP address that is not on the loopback interface.
var ErrNotLoopback = errors.New("not a loopback address")

// ServeStdio serves one client over in (requests) and out (responses and
// notifications only: logs go to the Logger) until in closes or ctx ends.
// mcp-go keeps one stdio session per process, so serve stdio once at a time.
func (g *Gateway) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	release, err := g.leaseServers(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := g.Refresh(ctx); err != nil {
		return err
	}
	stop := g.start(ctx)
	defer stop()
	s := server.NewStdioServer(g.srv)
	s.SetErrorLogger(slog.NewLogLogger(g.log.Handler(), slog.LevelWarn))
	s.SetContextFunc(func(ctx context.Context) context.Context { return withTransport(ctx, "stdio") })
	err = s.Listen(ctx, in, out)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// ServeHTTP listens on addr, which must be on the loopback interface
// (127.0.0.0/8, ::1 or localhost), and serves streamable HTTP at
// EndpointPath to requests bearing "Authorization: Bearer <token>" until ctx
// ends. Requests from web pages are refused first (see originGuard): a Host
// other than a loopback name with the server's port, or an Origin other
// than the server's own or one of Options.AllowedOrigins.
func (g *Gateway) ServeHTTP(ctx context.Context, addr, token string) error {
	ln, err := ListenLoopback(ctx, addr)
	if err != nil {
		return err
	}
	return g.ServeListener(ctx, ln, token)
}

// ServeListener is ServeHTTP on a listener from ListenLoopback (so callers
// can learn the port of "127.0.0.1:0"). It closes ln.
func (g *Gateway) ServeListener(ctx context.Context, ln net.Listener, token string) error {
	defer func() { _ = ln.Close() }()
	if err := checkListener(ln); err != nil {
		return err
	}
	if strings.TrimSpace(token) == "" {
		return errors.New("mcp gateway: HTTP needs a bearer token")
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return fmt.Errorf("mcp gateway: listener address %s: %w", ln.Addr(), err)
	}
	mux := http.NewServeMux()
	// The Host and Origin checks come first: a web page's request is
	// refused before the token is looked at or any MCP work starts.
	guard, err := newOriginGuard(port, g.opts.AllowedOrigins, g.log, RequireBearer(token, mux))
	if err != nil {
		return err
	}
	release, err := g.leaseServers(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := g.Refresh(ctx); err != nil {
		return err
	}
	// A tool must never hand the gateway's own credential to a client.
	g.core.AddScrubValues(token)
	hs := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(g.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	// Handing hs to mcp-go lets its Shutdown end listening streams while
	// hs drains (a client can reconnect in between).
	stream := server.NewStreamableHTTPServer(g.srv,
		server.WithStreamableHTTPServer(hs),
		server.WithHTTPContextFunc(func(ctx context.Context, _ *http.Request) context.Context {
			return withTransport(ctx, "http")
		}),
		server.WithStreamableHTTPLogger(g.log),
	)
	mux.Handle(EndpointPath, stream)
	hs.Handler = guard
	stop := g.start(ctx)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := stream.Shutdown(sctx); err != nil {
		g.log.Warn("mcp gateway: HTTP clients did not disconnect in time; closing their connections", "err", err)
		_ = hs.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// RequireBearer refuses any request without "Authorization: Bearer
// <token>" with a JSON-RPC error that says what to do. Not a 401: with
// WWW-Authenticate it sends spec-following MCP clients into OAuth
// discovery, so the user sees a failed sign-in instead of "wrong token".
// Not a 4xx either for a JSON-RPC request: clients take any 4xx answer to
// initialize as a sign of a legacy SSE server (mcp-go then reports exactly
// that and drops the body). A request with an id therefore gets HTTP 200
// with a JSON-RPC error response for that id, which every client shows as
// the call's error; anything else (GET, DELETE, notifications) gets 403
// with the same body. Both tokens are hashed first so the comparison takes
// the same time whatever the length or content of the guess.
func RequireBearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		ok := strings.EqualFold(scheme, "Bearer")
		if subtle.ConstantTimeCompare(sum[:], want[:]) == 1 && ok {
			next.ServeHTTP(w, r)
			return
		}
		what := "wrong"
		if r.Header.Get("Authorization") == "" {
			what = "missing"
		}
		id, status := json.RawMessage("null"), http.StatusForbidden
		if r.Method == http.MethodPost {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			if json.Unmarshal(body, &req) == nil && len(req.ID) > 0 && string(req.ID) != "null" {
				id, status = req.ID, http.StatusOK
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(tokenError(id, what))
	})
}

// TokenErrorCode is the JSON-RPC error code of a request with a wrong or
// missing bearer token (in the range JSON-RPC leaves to servers).
const TokenErrorCode = -32001

// tokenError is the JSON-RPC error response to a refused request.
func tokenError(id json.RawMessage, what string) any {
	msg := fmt.Sprintf("%s token: Warren's MCP gateway needs the header \"Authorization: Bearer TOKEN\" "+
		"with the token printed by `warren mcp serve --print-token` (or the one given with --token or $%s)", what, EnvToken)
	return map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": TokenErrorCode, "message": msg},
	}
}

// CheckLoopback accepts HOST:PORT where HOST is a loopback IP or localhost.
func CheckLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want HOST:PORT such as 127.0.0.1:8765: %v", addr, err)
	}
	if host == "" {
		return fmt.Errorf("%w: %q listens on every interface; use 127.0.0.1:%s", ErrNotLoopback, addr, port)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%w: %q is not an IP address or localhost; use 127.0.0.1:%s", ErrNotLoopback, host, port)
	}
	if !ip.IsLoopback() {
		return fmt.Errorf("%w: %s is reachable from other machines; Warren serves MCP over HTTP on 127.0.0.1 or ::1 only", ErrNotLoopback, host)
	}
	return nil
}

// ListenLoopback checks addr with CheckLoopback and listens on it.
func ListenLoopback(ctx context.Context, addr string) (net.Listener, error) {
	if err := CheckLoopback(addr); err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	if err := checkListener(ln); err != nil {
		_ = ln.Close()
		return nil, err
	}
	return ln, nil
}

// checkListener verifies where a listener is really bound ("localhost" is
// whatever the resolver says).
func checkListener(ln net.Listener) error {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return fmt.Errorf("%w: listener bound to %s", ErrNotLoopback, ln.Addr())
	}
	return nil
}

// URL returns the endpoint URL of a listener from ListenLoopback.
func URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + EndpointPath
}
