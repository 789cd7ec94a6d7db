// Package netguard is the one network guard for every outgoing request
// Warren makes on an agent's behalf (web_fetch, web_search, url_fetch, the
// browser). It judges every address at connect time, in the dialer, so
// every redirect hop and every DNS answer is checked (a rebinding resolver
// cannot slip a private address in after a check), and refuses everything
// but the public internet unless the user put the host on the allow list.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxRedirects is how many redirects a guarded client follows.
const MaxRedirects = 5

// Refusal is the error of a request the guard will not make.
type Refusal struct {
	Rule   Rule
	Target string
	Detail string
}

func (r *Refusal) Error() string {
	msg := fmt.Sprintf("network guard refused %s (rule %s)", r.Target, r.Rule)
	if r.Detail != "" {
		msg += ": " + r.Detail
	}
	return msg
}

func refusal(rule Rule, target, detail string) *Refusal {
	return &Refusal{Rule: rule, Target: target, Detail: detail}
}

// AsRefusal returns the guard's refusal inside err, if any.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// Resolver looks names up; *net.Resolver is one. Tests inject their own
// (a rebinding resolver that changes its answer).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configures a Guard.
type Options struct {
	// AllowedHosts are hosts the user trusts although they are local
	// ("wiki.lan", "127.0.0.1:8080"): `host` allows every port,
	// `host:port` one.
	AllowedHosts []string
	// Resolver defaults to net.DefaultResolver.
	Resolver Resolver
	// NetworkAllowed says whether the agent a request is made for may use
	// the network at all (the per-agent network switch); nil allows.
	NetworkAllowed func(ctx context.Context) bool
	// DialTimeout bounds one connection attempt (default 15 s).
	DialTimeout time.Duration
}

// Guard checks URLs and makes guarded HTTP clients.
type Guard struct {
	resolver    Resolver
	network     func(ctx context.Context) bool
	dialTimeout time.Duration

	mu      sync.RWMutex
	allowed []allowEntry
	// transport is the shared connection pool (client.go).
	transport atomic.Pointer[http.Transport]
}

type allowEntry struct {
	host string // lower-case name or canonical address
	port string // "" = any port
}

// New makes a guard; a malformed allow list entry is an error.
func New(opts Options) (*Guard, error) {
	g := &Guard{resolver: opts.Resolver, network: opts.NetworkAllowed, dialTimeout: opts.DialTimeout}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	if g.dialTimeout <= 0 {
		g.dialTimeout = 15 * time.Second
	}
	if err := g.SetAllowedHosts(opts.AllowedHosts); err != nil {
		return nil, err
	}
	return g, nil
}

// SetAllowedHosts replaces the allow list (the setting changed).
func (g *Guard) SetAllowedHosts(entries []string) error {
	parsed := make([]allowEntry, 0, len(entries))
	for _, e := range entries {
		a, err := parseAllowEntry(e)
		if err != nil {
			return err
		}
		parsed = append(parsed, a)
	}
	g.mu.Lock()
	g.allowed = parsed
	g.mu.Unlock()
	if old := g.transport.Swap(g.newTransport()); old != nil {
		old.CloseIdleConnections()
	}
	return nil
}

// ParseAllowList checks and normalises a comma-separated allow list (the
// web.allowed_hosts setting).
func ParseAllowList(s string) ([]string, error) {
	var out []string
	for e := range strings.SplitSeq(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		a, err := parseAllowEntry(e)
		if err != nil {
			return nil, err
		}
		out = append(out, a.String())
	}
	return out, nil
}

func (a allowEntry) String() string {
	h := a.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if a.port == "" {
		return h
	}
	return h + ":" + a.port
}

func parseAllowEntry(e string) (allowEntry, error) {
	e = strings.ToLower(strings.TrimSpace(e))
	bad := func(why string) (allowEntry, error) {
		return allowEntry{}, fmt.Errorf("allowed host %q: %s (use host or host:port, e.g. wiki.lan or 127.0.0.1:8080)", e, why)
	}
	if e == "" || strings.ContainsAny(e, "/@?#* \t") {
		return bad("not a host name")
	}
	host, port := e, ""
	if h, p, err := net.SplitHostPort(e); err == nil {
		host, port = h, p
		n, perr := strconv.Atoi(p)
		if perr != nil || n < 1 || n > 65535 {
			return bad("port must be 1-65535")
		}
	} else if strings.HasPrefix(e, "[") && strings.HasSuffix(e, "]") {
		host = e[1 : len(e)-1]
	} else if strings.Count(e, ":") == 1 {
		return bad("port must be 1-65535")
	}
	addr, isAddr, err := ParseHost(host)
	if err != nil {
		return bad(err.Error())
	}
	if isAddr {
		return allowEntry{host: addr.String(), port: port}, nil
	}
	if !validHostName(host) {
		return bad("not a host name")
	}
	return allowEntry{host: strings.TrimSuffix(host, "."), port: port}, nil
}

func validHostName(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for l := range strings.SplitSeq(h, ".") {
		if l == "" || len(l) > 63 {
			return false
		}
		for _, c := range l {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// hostKey is the URL host as the allow list compares it: a lower-case
// name, or the canonical form of an address literal in whatever form it
// was written.
func hostKey(host string) (key string, addr netip.Addr, isAddr bool, err error) {
	host = strings.ToLower(host)
	addr, isAddr, err = ParseHost(host)
	if err != nil {
		return "", addr, false, err
	}
	if isAddr {
		return addr.String(), addr, true, nil
	}
	return strings.TrimSuffix(host, "."), addr, false, nil
}

// allowedHost reports whether the user's allow list holds key:port.
func (g *Guard) allowedHost(key, port string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return slices.ContainsFunc(g.allowed, func(a allowEntry) bool {
		return a.host == key && (a.port == "" || a.port == port)
	})
}

// Allowed lists the allow list as it is now.
func (g *Guard) Allowed() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]string, len(g.allowed))
	for i, a := range g.allowed {
		out[i] = a.String()
	}
	return out
}

func (g *Guard) networkOff(ctx context.Context) error {
	if g.network != nil && !g.network(ctx) {
		return refusal(RuleNetworkOff, "the request", "this agent's network switch is off (turn it on: warren agents edit AGENT --network on)")
	}
	return nil
}

// checkStatic checks what can be checked without the network: the agent's
// switch, the scheme, the host's form. It returns the host key and port.
func (g *Guard) checkStatic(ctx context.Context, u *url.URL) (key, port string, err error) {
	if u == nil {
		return "", "", refusal(RuleBadURL, "an empty URL", "")
	}
	if err := g.networkOff(ctx); err != nil {
		return "", "", err
	}
	target := redact(u)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", "", refusal(RuleScheme, target, "only http and https URLs may be fetched")
	}
	host := u.Hostname()
	if host == "" {
		return "", "", refusal(RuleBadURL, target, "no host")
	}
	port = portOf(u.Scheme, u.Port())
	key, _, _, err = hostKey(host)
	if err != nil {
		return "", "", withTarget(err, target)
	}
	return key, port, nil
}

// CheckURL checks u before a request: the agent's network switch, the
// scheme, the allow list, and every address the host resolves to now.
// The dialer checks again at connect time; this early check gives a clear
// error before anything is sent.
func (g *Guard) CheckURL(ctx context.Context, u *url.URL) error {
	key, port, err := g.checkStatic(ctx, u)
	if err != nil {
		return err
	}
	_, err = g.resolve(ctx, key, port)
	return withTarget(err, redact(u))
}

// resolve returns the addresses to dial for key:port, refusing when the
// host is not allow-listed and any of its addresses is not public.
func (g *Guard) resolve(ctx context.Context, key, port string) ([]netip.Addr, error) {
	allowed := g.allowedHost(key, port)
	if addr, isAddr, _ := ParseHost(key); isAddr {
		if !allowed {
			if r := CheckAddr(addr); r != "" {
				return nil, refusal(r, key, "")
			}
		}
		return []netip.Addr{addr}, nil
	}
	if !allowed && (key == "localhost" || strings.HasSuffix(key, ".localhost")) {
		return nil, refusal(RuleLocalhostName, key, "localhost names are this machine")
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", key)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", key, err)
	}
	if len(addrs) == 0 {
		return nil, refusal(RuleUnresolvedHost, key, "no addresses")
	}
	for i, a := range addrs {
		a = a.WithZone("")
		if a.Is4In6() {
			// Resolvers hand out IPv4 answers in this form; the address
			// dialed is the IPv4 one.
			a = a.Unmap()
		}
		addrs[i] = a
		if allowed {
			continue
		}
		if r := CheckAddr(a); r != "" {
			return nil, refusal(r, key, fmt.Sprintf("it resolves to %s", a))
		}
	}
	return addrs, nil
}

// redact is the URL without its credentials or query, for messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.Fragment = "", ""
	return c.String()
}

func withTarget(err error, target string) error {
	if r, ok := AsRefusal(err); ok && target != "" && r.Target != target {
		detail := r.Detail
		if !strings.Contains(target, r.Target) {
			detail = strings.TrimSuffix("host "+r.Target+": "+detail, ": ")
		}
		return &Refusal{Rule: r.Rule, Target: target, Detail: detail}
	}
	return err
}
