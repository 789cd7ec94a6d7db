package gateway

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// corsAllowHeaders are the request headers a page on an allowed foreign
// origin may send; Mcp-* headers it asks for are allowed too, since new
// protocol versions add some.
const corsAllowHeaders = "Authorization, Content-Type, Accept, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version"

// originGuard keeps web pages away from the loopback HTTP server. Any site
// can make a browser send requests to 127.0.0.1, so before the bearer check
// or any MCP work it refuses, with 403:
//   - a Host that is not this server's (a loopback IP or localhost, with the
//     listener's port). A DNS-rebinding page, whose own domain now resolves
//     to 127.0.0.1, sends "Host: its.domain:PORT", and its same-origin GETs
//     carry no Origin at all;
//   - an Origin that is neither this server's own (http://LOOPBACK:PORT)
//     nor one of Options.AllowedOrigins. "Origin: null" (sandboxed frames,
//     file: pages, some redirects) could be any page, so it is refused.
//
// Requests without Origin pass: MCP clients that are not browsers (Claude
// Desktop, IDEs, curl) send none, and browsers always send one on the
// cross-origin and POST requests an attack needs.
type originGuard struct {
	port    string          // the listener's port: Host and same-origin Origins must use it
	extra   map[string]bool // Options.AllowedOrigins, as origin.String
	accepts string          // the allowed origins, for refusal messages
	log     *slog.Logger
	next    http.Handler
}

// newOriginGuard guards next for a server listening on port of a loopback
// address. An entry of allowed that is not an origin (scheme://HOST[:PORT])
// is an error.
func newOriginGuard(port string, allowed []string, log *slog.Logger, next http.Handler) (*originGuard, error) {
	g := &originGuard{port: port, extra: map[string]bool{}, log: log, next: next}
	list := []string{"http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port}
	for _, a := range allowed {
		o, err := parseOrigin(strings.TrimSuffix(strings.TrimSpace(a), "/"))
		if err != nil {
			return nil, fmt.Errorf("mcp gateway: allowed origin %q: %w", a, err)
		}
		if s := o.String(); !g.extra[s] {
			g.extra[s] = true
			list = append(list, s)
		}
	}
	g.accepts = strings.Join(list, ", ")
	return g, nil
}

func (g *originGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r.Host) {
		g.refuse(w, r, fmt.Sprintf("request refused: Host %s is not this server's address (DNS rebinding protection); "+
			"warren mcp serve accepts Host 127.0.0.1:%s, localhost:%[2]s or [::1]:%[2]s", shown(r.Host), g.port))
		return
	}
	origins, sent := r.Header["Origin"]
	if !sent {
		g.next.ServeHTTP(w, r)
		return
	}
	allowed, foreign := false, false
	if len(origins) == 1 {
		allowed, foreign = g.originAllowed(origins[0])
	}
	if !allowed {
		g.refuse(w, r, fmt.Sprintf("cross-origin request refused: Origin %s is not allowed; "+
			"warren mcp serve accepts requests without Origin or from %s", shown(strings.Join(origins, ", ")), g.accepts))
		return
	}
	if foreign {
		// A page on another allowed origin reads answers only with CORS
		// headers, and its preflight comes without credentials, so it is
		// answered here, before the bearer check.
		h := w.Header()
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Origin", origins[0])
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			h.Set("Access-Control-Allow-Headers", allowHeaders(r.Header.Get("Access-Control-Request-Headers")))
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// hostAllowed reports whether the Host header names this server: a
// loopback IP or localhost, with the listener's port (none means 80).
func (g *originGuard) hostAllowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), "80"
	}
	return port == g.port && isLoopbackHost(host)
}

// originAllowed reports whether a page of origin s may call the server, and
// whether it is a foreign origin (one of Options.AllowedOrigins) that needs
// CORS headers.
func (g *originGuard) originAllowed(s string) (allowed, foreign bool) {
	// Browsers send origins in one form only (lower case, no default port,
	// no trailing slash); any other spelling is no browser's.
	o, err := parseOrigin(s)
	if err != nil || !strings.EqualFold(s, o.String()) {
		return false, false
	}
	if o.scheme == "http" && o.port == g.port && isLoopbackHost(o.host) {
		return true, false
	}
	return g.extra[o.String()], true
}

func (g *originGuard) refuse(w http.ResponseWriter, r *http.Request, msg string) {
	g.log.Warn("mcp gateway: refused a request that may come from a web page (403)",
		"host", r.Host, "origin", strings.Join(r.Header.Values("Origin"), ", "), "remote", r.RemoteAddr)
	http.Error(w, msg, http.StatusForbidden)
}

// origin is a parsed serialized origin, host in lower case, port explicit.
type origin struct{ scheme, host, port string }

func (o origin) String() string {
	if (o.scheme == "http" && o.port == "80") || (o.scheme == "https" && o.port == "443") {
		return o.scheme + "://" + hostForURL(o.host)
	}
	return o.scheme + "://" + net.JoinHostPort(o.host, o.port)
}

// hostForURL brackets an IPv6 address.
func hostForURL(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// parseOrigin accepts what browsers send in Origin: http(s)://host[:port]
// and nothing else (no path, user, query or fragment; not "null").
func parseOrigin(s string) (origin, error) {
	u, err := url.Parse(s)
	if err != nil {
		return origin{}, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return origin{}, errors.New("want http://HOST[:PORT] or https://HOST[:PORT]")
	}
	if u.Host == "" || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return origin{}, errors.New("want scheme://HOST[:PORT] with no path, user, query or fragment")
	}
	o := origin{scheme: u.Scheme, host: strings.ToLower(u.Hostname()), port: u.Port()}
	switch {
	case o.port != "":
	case o.scheme == "http":
		o.port = "80"
	default:
		o.port = "443"
	}
	return o, nil
}

// isLoopbackHost reports whether host (no port, no brackets) is localhost
// or a loopback IP. Names other than localhost are refused whatever they
// resolve to: that is the point of DNS rebinding.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// allowHeaders is the Access-Control-Allow-Headers answer to a preflight
// that asked for requested.
func allowHeaders(requested string) string {
	out := corsAllowHeaders
	seen := map[string]bool{}
	for _, h := range strings.Split(corsAllowHeaders, ", ") {
		seen[http.CanonicalHeaderKey(h)] = true
	}
	for h := range strings.SplitSeq(requested, ",") {
		h = http.CanonicalHeaderKey(strings.TrimSpace(h))
		if strings.HasPrefix(h, "Mcp-") && len(h) > len("Mcp-") && !seen[h] {
			seen[h] = true
			out += ", " + h
		}
	}
	return out
}

// shown quotes a header value for a message: empty ones visibly, long ones
// cut short.
func shown(v string) string {
	switch {
	case v == "":
		return `""`
	case len(v) > 200:
		return v[:200] + "…"
	}
	return v
}
