package netguard

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// rebinder answers the first lookups of a name with a public address and
// every later one with what it is set to: a DNS-rebinding attacker.
type rebinder struct {
	mu      sync.Mutex
	first   int
	public  []netip.Addr
	private []netip.Addr
	calls   int
}

func (r *rebinder) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.calls <= r.first {
		return append([]netip.Addr(nil), r.public...), nil
	}
	return append([]netip.Addr(nil), r.private...), nil
}

// staticResolver maps names to fixed answers.
type staticResolver map[string][]netip.Addr

func (s staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := s[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func addrs(ss ...string) []netip.Addr {
	out := make([]netip.Addr, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParseAddr(s)
	}
	return out
}

func mustGuard(t *testing.T, opts Options) *Guard {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func wantRule(t *testing.T, err error, rule Rule) {
	t.Helper()
	r, ok := AsRefusal(err)
	if !ok {
		t.Fatalf("want refusal %s, got %v", rule, err)
	}
	if r.Rule != rule {
		t.Fatalf("want rule %s, got %s (%v)", rule, r.Rule, err)
	}
}

func okServer(t *testing.T, body string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, body) }))
	t.Cleanup(s.Close)
	return s
}

func get(ctx context.Context, c *http.Client, u string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestCheckURLRefusesLocalTargets(t *testing.T) {
	t.Parallel()
	g := mustGuard(t, Options{Resolver: staticResolver{
		"evil.example":   addrs("127.0.0.1"),
		"mixed.example":  addrs("8.8.8.8", "10.0.0.5"),
		"meta.example":   addrs("169.254.169.254"),
		"v6.example":     addrs("::1"),
		"mapped.example": addrs("::ffff:192.168.0.1"),
		"good.example":   addrs("93.184.216.34"),
	}})
	cases := map[string]Rule{
		"http://127.0.0.1/":                   RuleLoopback,
		"http://2130706433/":                  RuleLoopback,
		"http://0x7f.1/":                      RuleLoopback,
		"http://017700000001/":                RuleLoopback,
		"http://127.1/":                       RuleLoopback,
		"http://127.0.0.1.:8080/":             RuleLoopback,
		"http://[::1]/":                       RuleLoopback,
		"http://[::ffff:127.0.0.1]/":          RuleMapped,
		"http://[::ffff:7f00:1]/":             RuleMapped,
		"http://[::127.0.0.1]/":               RuleCompatible,
		"http://[64:ff9b::a9fe:a9fe]/":        RuleNAT64,
		"http://[fe80::1%25eth0]/":            RuleZone,
		"http://169.254.169.254/latest/":      RuleLinkLocal,
		"http://0xa9fea9fe/":                  RuleLinkLocal,
		"http://100.64.1.1/":                  RuleCGNAT,
		"http://[fd00::1]/":                   RuleUniqueLocal,
		"http://224.0.0.251/":                 RuleMulticast,
		"http://0.0.0.0/":                     RuleUnspecified,
		"http://0/":                           RuleUnspecified,
		"http://255.255.255.255/":             RuleBroadcast,
		"http://0.1.2.3/":                     RuleThisNetwork,
		"http://192.168.1.1/":                 RulePrivate,
		"http://localhost/":                   RuleLocalhostName,
		"http://LocalHost./":                  RuleLocalhostName,
		"http://app.localhost/":               RuleLocalhostName,
		"http://evil.example/":                RuleLoopback,
		"http://mixed.example/":               RulePrivate,
		"http://meta.example/":                RuleLinkLocal,
		"http://v6.example/":                  RuleLoopback,
		"http://mapped.example/":              RulePrivate,
		"file:///etc/passwd":                  RuleScheme,
		"gopher://good.example/":              RuleScheme,
		"ftp://good.example/":                 RuleScheme,
		"http:///nohost":                      RuleBadURL,
		"http://256.0.0.1/":                   RuleNumericHost,
		"http://user:pw@127.0.0.1/?token=abc": RuleLoopback,
		"http://127.0.0.1#@good.example/":     RuleLoopback,
		"http://good.example@127.0.0.1/":      RuleLoopback,
		"http://[::]:80/":                     RuleUnspecified,
		"HTTP://LOCALHOST/":                   RuleLocalhostName,
		"http://0x7f.0x0.0x0.0x1/":            RuleLoopback,
		"http://127.000.000.001/":             RuleLoopback,
		"https://[0:0:0:0:0:ffff:a9fe:a9fe]/": RuleMapped,
		"http://[2002:c0a8:101::1]/":          RuleTunnel,
	}
	for raw, rule := range cases {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		err = g.CheckURL(context.Background(), u)
		r, ok := AsRefusal(err)
		if !ok || r.Rule != rule {
			t.Errorf("%s: want rule %s, got %v", raw, rule, err)
			continue
		}
		if strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "token") {
			t.Errorf("%s: the refusal leaks credentials: %v", raw, err)
		}
	}
	u, _ := url.Parse("https://good.example/page")
	if err := g.CheckURL(context.Background(), u); err != nil {
		t.Fatalf("a public host was refused: %v", err)
	}
	u, _ = url.Parse("https://nxdomain.example/")
	if err := g.CheckURL(context.Background(), u); err == nil {
		t.Fatal("an unresolvable host passed")
	}
}

func TestClientRefusesLoopbackServer(t *testing.T) {
	t.Parallel()
	s := okServer(t, "secret")
	g := mustGuard(t, Options{})
	_, err := get(context.Background(), g.HTTPClient(), s.URL)
	wantRule(t, err, RuleLoopback)
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	for _, form := range []string{"2130706433", "0x7f.1", "017700000001", "127.1", "[::ffff:127.0.0.1]"} {
		_, err := get(context.Background(), g.HTTPClient(), "http://"+form+":"+port+"/")
		if _, ok := AsRefusal(err); !ok {
			t.Errorf("%s: reached the server: %v", form, err)
		}
	}
}

func TestAllowListLetsTrustedHostThrough(t *testing.T) {
	t.Parallel()
	s := okServer(t, "wiki page")
	hostport := strings.TrimPrefix(s.URL, "http://")
	g := mustGuard(t, Options{AllowedHosts: []string{hostport}})
	body, err := get(context.Background(), g.HTTPClient(), s.URL)
	if err != nil || body != "wiki page" {
		t.Fatalf("allow-listed host: %q %v", body, err)
	}
	// The same address written another way is the same host.
	port := hostport[strings.LastIndex(hostport, ":")+1:]
	if body, err := get(context.Background(), g.HTTPClient(), "http://2130706433:"+port+"/"); err != nil || body != "wiki page" {
		t.Fatalf("decimal form of an allow-listed address: %q %v", body, err)
	}
	// Another port of the same address is not on the list.
	other := okServer(t, "other")
	_, err = get(context.Background(), g.HTTPClient(), other.URL)
	wantRule(t, err, RuleLoopback)

	// A name on the list reaches the local address it resolves to.
	gn := mustGuard(t, Options{AllowedHosts: []string{"wiki.lan"}, Resolver: staticResolver{"wiki.lan": addrs("127.0.0.1")}})
	if body, err := get(context.Background(), gn.HTTPClient(), "http://wiki.lan:"+port+"/"); err != nil || body != "wiki page" {
		t.Fatalf("allow-listed name: %q %v", body, err)
	}
}

func TestRedirectsAreCheckedAgain(t *testing.T) {
	t.Parallel()
	inner := okServer(t, "internal")
	var outer *httptest.Server
	outer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-inner":
			http.Redirect(w, r, inner.URL, http.StatusFound)
		case "/to-decimal":
			port := inner.URL[strings.LastIndex(inner.URL, ":")+1:]
			http.Redirect(w, r, "http://2130706433:"+port+"/", http.StatusFound)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, outer.URL+"/loop", http.StatusFound)
		case "/chain5":
			http.Redirect(w, r, outer.URL+"/c4", http.StatusFound)
		case "/c4", "/c3", "/c2", "/c1":
			n := r.URL.Path[2] - '1'
			if n == 0 {
				http.Redirect(w, r, outer.URL+"/done", http.StatusFound)
				return
			}
			http.Redirect(w, r, outer.URL+"/c"+string(rune('0'+n)), http.StatusFound)
		default:
			_, _ = io.WriteString(w, "done")
		}
	}))
	t.Cleanup(outer.Close)
	g := mustGuard(t, Options{AllowedHosts: []string{strings.TrimPrefix(outer.URL, "http://")}})
	c := g.HTTPClient()
	ctx := context.Background()
	_, err := get(ctx, c, outer.URL+"/to-inner")
	wantRule(t, err, RuleLoopback)
	_, err = get(ctx, c, outer.URL+"/to-decimal")
	wantRule(t, err, RuleLoopback)
	_, err = get(ctx, c, outer.URL+"/to-file")
	wantRule(t, err, RuleScheme)
	_, err = get(ctx, c, outer.URL+"/loop")
	wantRule(t, err, RuleRedirects)
	if body, err := get(ctx, c, outer.URL+"/chain5"); err != nil || body != "done" {
		t.Fatalf("five redirects must be followed: %q %v", body, err)
	}
	_, err = get(ctx, g.HTTPClient(WithMaxRedirects(2)), outer.URL+"/chain5")
	wantRule(t, err, RuleRedirects)
}

func TestDNSRebindingIsCaughtAtConnect(t *testing.T) {
	t.Parallel()
	s := okServer(t, "secret")
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	r := &rebinder{first: 1, public: addrs("93.184.216.34"), private: addrs("127.0.0.1")}
	g := mustGuard(t, Options{Resolver: r})
	u, _ := url.Parse("http://rebind.example:" + port + "/")
	if err := g.CheckURL(context.Background(), u); err != nil {
		t.Fatalf("the first answer is public: %v", err)
	}
	_, err := get(context.Background(), g.HTTPClient(), u.String())
	wantRule(t, err, RuleLoopback)
	if r.calls < 2 {
		t.Fatalf("the dialer did not resolve again (%d lookups)", r.calls)
	}
}

func TestNetworkSwitchOff(t *testing.T) {
	t.Parallel()
	s := okServer(t, "x")
	type key struct{}
	g := mustGuard(t, Options{
		AllowedHosts:   []string{strings.TrimPrefix(s.URL, "http://")},
		NetworkAllowed: func(ctx context.Context) bool { on, _ := ctx.Value(key{}).(bool); return on },
	})
	on := context.WithValue(context.Background(), key{}, true)
	if _, err := get(on, g.HTTPClient(), s.URL); err != nil {
		t.Fatalf("network on: %v", err)
	}
	// A pooled connection exists now; a call with the switch off must not use it.
	c := g.HTTPClient()
	if _, err := get(on, c, s.URL); err != nil {
		t.Fatal(err)
	}
	_, err := get(context.Background(), c, s.URL)
	wantRule(t, err, RuleNetworkOff)
	u, _ := url.Parse(s.URL)
	wantRule(t, g.CheckURL(context.Background(), u), RuleNetworkOff)
}

func TestAllowListEntries(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"127.0.0.1:8080":   "127.0.0.1:8080",
		" Wiki.LAN ":       "wiki.lan",
		"searx.lan:8888":   "searx.lan:8888",
		"[::1]:80":         "[::1]:80",
		"[fd00::5]":        "[fd00::5]",
		"2130706433:80":    "127.0.0.1:80",
		"wiki.lan.":        "wiki.lan",
		"my_host.internal": "my_host.internal",
	}
	for in, want := range good {
		got, err := ParseAllowList(in)
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("%q: %v %v, want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"http://wiki.lan", "wiki.lan:0", "wiki.lan:99999", "wiki.lan:x", "*.lan", "a b", "wiki.lan/path", "user@host", "256.1.1.1", "[::1"} {
		if _, err := ParseAllowList(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		} else if !strings.Contains(err.Error(), "host:port") {
			t.Errorf("%q: the error does not say what to write: %v", bad, err)
		}
	}
	list, err := ParseAllowList("127.0.0.1:8080, wiki.lan,,")
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}
	if _, err := New(Options{AllowedHosts: []string{"bad host"}}); err == nil {
		t.Fatal("New accepted a bad entry")
	}
}

func TestRefusalUnwrapsThroughClientErrors(t *testing.T) {
	t.Parallel()
	g := mustGuard(t, Options{})
	_, err := get(context.Background(), g.HTTPClient(), "http://10.0.0.1/")
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Fatalf("want a *url.Error, got %T", err)
	}
	wantRule(t, err, RulePrivate)
}

// Taking a host off the allow list takes effect for the next request,
// even though a pooled connection to it is open.
func TestAllowListChangeDropsPooledConnections(t *testing.T) {
	t.Parallel()
	s := okServer(t, "wiki")
	g := mustGuard(t, Options{AllowedHosts: []string{strings.TrimPrefix(s.URL, "http://")}})
	c := g.HTTPClient()
	if _, err := get(context.Background(), c, s.URL); err != nil {
		t.Fatal(err)
	}
	if err := g.SetAllowedHosts(nil); err != nil {
		t.Fatal(err)
	}
	_, err := get(context.Background(), c, s.URL)
	wantRule(t, err, RuleLoopback)
	if len(g.Allowed()) != 0 {
		t.Fatalf("allowed %v", g.Allowed())
	}
}
