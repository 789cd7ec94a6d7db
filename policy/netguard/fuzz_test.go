package netguard

import (
	"context"
	"net/netip"
	"net/url"
	"testing"
)

// everythingLocal resolves every name to loopback: whatever CheckURL lets
// through under it must be a public address literal.
type everythingLocal struct{}

func (everythingLocal) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return addrs("127.0.0.1", "::1"), nil
}

// FuzzParseHost checks that any host either is refused, is a name, or is
// an address whose verdict agrees with the standard library's own view of
// loopback, private, link-local, multicast and unspecified addresses.
func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "2130706433", "0x7f.1", "017700000001", "127.1", "::ffff:127.0.0.1",
		"64:ff9b::a9fe:a9fe", "example.com", "0", "1.2.3.4.5", "fe80::1%eth0", "0x", "08", "1e3", "0x.0x.0x.0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		a, isAddr, err := ParseHost(host)
		if err != nil || !isAddr {
			return
		}
		if CheckAddr(a) != "" {
			return
		}
		u := a.Unmap()
		if u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsLinkLocalMulticast() ||
			u.IsMulticast() || u.IsUnspecified() || u.IsInterfaceLocalMulticast() {
			t.Fatalf("%q parsed to %v, which passed the guard", host, a)
		}
	})
}

// FuzzCheckURL feeds arbitrary URLs to the guard with a resolver that
// answers loopback for every name: nothing may pass but a public address
// literal over http or https.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://2130706433/", "http://0x7f.1/", "http://017700000001/", "http://127.1/",
		"http://[::ffff:7f00:1]/", "https://example.com/", "http://8.8.8.8/", "file:///etc/passwd",
		"http://[64:ff9b::a00:1]/", "http://user@127.0.0.1:80@evil/", "http://0x08080808/", "HTTP://EXAMPLE.com"} {
		f.Add(s)
	}
	g, err := New(Options{Resolver: everythingLocal{}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		if g.CheckURL(context.Background(), u) != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("%q passed with scheme %q", raw, u.Scheme)
		}
		a, isAddr, err := ParseHost(u.Hostname())
		if err != nil || !isAddr || CheckAddr(a) != "" {
			t.Fatalf("%q passed: host %q (addr %v %v, %v)", raw, u.Hostname(), a, isAddr, err)
		}
	})
}

// FuzzParseAllowList: any setting value either is refused with an error or
// normalises to a list that parses back to itself.
func FuzzParseAllowList(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080,wiki.lan", "[::1]:80", "2130706433:80", "a..b", "host:0", "[fd00::1]", " , ,x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		list, err := ParseAllowList(s)
		if err != nil {
			return
		}
		for _, e := range list {
			again, err := ParseAllowList(e)
			if err != nil || len(again) != 1 || again[0] != e {
				t.Fatalf("%q normalised to %q, which parses to %v (%v)", s, e, again, err)
			}
		}
	})
}
