package netguard

import (
	"encoding/binary"
	"net/netip"
	"strconv"
	"strings"
)

// Rule names a reason the guard refuses; the names are stable (they reach
// the model and the user in SecurityError results).
type Rule string

// Rules, one per refused range or form.
const (
	RuleNetworkOff     Rule = "network-off"
	RuleScheme         Rule = "scheme"
	RuleBadURL         Rule = "bad-url"
	RuleRedirects      Rule = "too-many-redirects"
	RuleLoopback       Rule = "loopback"
	RulePrivate        Rule = "private"
	RuleLinkLocal      Rule = "link-local"
	RuleCGNAT          Rule = "cgnat"
	RuleUniqueLocal    Rule = "unique-local"
	RuleSiteLocal      Rule = "site-local"
	RuleMulticast      Rule = "multicast"
	RuleUnspecified    Rule = "unspecified"
	RuleBroadcast      Rule = "broadcast"
	RuleThisNetwork    Rule = "this-network"
	RuleReserved       Rule = "reserved"
	RuleMapped         Rule = "ipv4-mapped-ipv6"
	RuleCompatible     Rule = "ipv4-compatible-ipv6"
	RuleNAT64          Rule = "nat64-embedded-private"
	RuleTunnel         Rule = "ipv6-tunnel"
	RuleNumericHost    Rule = "ambiguous-numeric-host"
	RuleZone           Rule = "ipv6-zone"
	RuleLocalhostName  Rule = "localhost-name"
	RuleNoAddress      Rule = "no-address"
	RuleUnresolvedHost Rule = "unresolved-host"
)

type prefixRule struct {
	p    netip.Prefix
	rule Rule
}

// v4Rules are the IPv4 ranges no agent request may reach (RFC 6890 and
// friends): everything that is not the public internet.
var v4Rules = []prefixRule{
	{netip.MustParsePrefix("255.255.255.255/32"), RuleBroadcast},
	{netip.MustParsePrefix("0.0.0.0/32"), RuleUnspecified},
	{netip.MustParsePrefix("0.0.0.0/8"), RuleThisNetwork},
	{netip.MustParsePrefix("10.0.0.0/8"), RulePrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), RuleCGNAT},
	{netip.MustParsePrefix("127.0.0.0/8"), RuleLoopback},
	{netip.MustParsePrefix("169.254.0.0/16"), RuleLinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), RulePrivate},
	{netip.MustParsePrefix("192.0.0.0/24"), RuleReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), RuleReserved},
	{netip.MustParsePrefix("192.88.99.0/24"), RuleReserved},
	{netip.MustParsePrefix("192.168.0.0/16"), RulePrivate},
	{netip.MustParsePrefix("198.18.0.0/15"), RuleReserved},
	{netip.MustParsePrefix("198.51.100.0/24"), RuleReserved},
	{netip.MustParsePrefix("203.0.113.0/24"), RuleReserved},
	{netip.MustParsePrefix("224.0.0.0/4"), RuleMulticast},
	{netip.MustParsePrefix("240.0.0.0/4"), RuleReserved},
}

// v6Rules are the IPv6 ranges refused outright. Prefixes that embed an
// IPv4 address are handled in checkV6 so the embedded one is judged.
var v6Rules = []prefixRule{
	{netip.MustParsePrefix("::/128"), RuleUnspecified},
	{netip.MustParsePrefix("::1/128"), RuleLoopback},
	{netip.MustParsePrefix("::ffff:0:0/96"), RuleMapped},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), RuleMapped}, // SIIT translated form
	{netip.MustParsePrefix("::/96"), RuleCompatible},
	{netip.MustParsePrefix("64:ff9b:1::/48"), RuleNAT64}, // local-use NAT64: always a local network
	{netip.MustParsePrefix("100::/64"), RuleReserved},
	{netip.MustParsePrefix("2001::/32"), RuleTunnel}, // Teredo hides its IPv4 endpoint
	{netip.MustParsePrefix("2001:db8::/32"), RuleReserved},
	{netip.MustParsePrefix("fc00::/7"), RuleUniqueLocal},
	{netip.MustParsePrefix("fe80::/10"), RuleLinkLocal},
	{netip.MustParsePrefix("fec0::/10"), RuleSiteLocal},
	{netip.MustParsePrefix("ff00::/8"), RuleMulticast},
}

var (
	nat64WellKnown = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
)

// CheckAddr returns the rule that refuses a, or "" when a is a public
// address an agent may reach.
func CheckAddr(a netip.Addr) Rule {
	if !a.IsValid() {
		return RuleNoAddress
	}
	if a.Zone() != "" {
		return RuleZone
	}
	if a.Is4() {
		return match(v4Rules, a)
	}
	return checkV6(a)
}

func checkV6(a netip.Addr) Rule {
	if r := match(v6Rules, a); r != "" {
		return r
	}
	b := a.As16()
	// NAT64 and 6to4 carry an IPv4 address a gateway will connect to:
	// judge that one.
	switch {
	case nat64WellKnown.Contains(a):
		if match(v4Rules, netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})) != "" {
			return RuleNAT64
		}
	case sixToFour.Contains(a):
		if r := match(v4Rules, netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})); r != "" {
			return RuleTunnel
		}
	}
	return ""
}

func match(rules []prefixRule, a netip.Addr) Rule {
	for _, r := range rules {
		if r.p.Contains(a) {
			return r.rule
		}
	}
	return ""
}

// ParseHost reads a URL host (no port, no brackets) the way the operating
// system's resolver would: IPv6 literals, dotted quads, and the inet_aton
// forms (2130706433, 0x7f.1, 017700000001, 127.1). It returns the address
// and true for an address literal, false for a name to be resolved, and a
// refusal for a host that looks numeric but is no valid address (fail
// closed: some resolver may still read it as one).
func ParseHost(host string) (netip.Addr, bool, error) {
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return netip.Addr{}, false, refusal(RuleBadURL, host, "empty host")
	}
	if strings.Contains(host, ":") || strings.Contains(host, "%") {
		a, err := netip.ParseAddr(host)
		if err != nil {
			return netip.Addr{}, false, refusal(RuleBadURL, host, "not a valid IPv6 address")
		}
		if a.Zone() != "" {
			return netip.Addr{}, false, refusal(RuleZone, host, "IPv6 zones name a local interface")
		}
		return a, true, nil
	}
	if !looksNumeric(host) {
		return netip.Addr{}, false, nil
	}
	a, ok := parseInetAton(host)
	if !ok {
		return netip.Addr{}, false, refusal(RuleNumericHost, host, "a numeric host that is no valid IPv4 address")
	}
	return a, true, nil
}

// looksNumeric reports whether every label is a number in some base, so
// the host is an address to the OS rather than a DNS name (DNS names may
// start with digits, but a name whose last label is numeric is no name).
func looksNumeric(host string) bool {
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	return last != "" && isNumberLabel(strings.ToLower(last))
}

func isNumberLabel(s string) bool {
	if strings.HasPrefix(s, "0x") {
		s = s[2:]
		for _, c := range s {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// parseInetAton implements inet_aton: one to four parts, each decimal,
// octal (leading 0) or hex (0x); the last part fills the remaining bytes.
func parseInetAton(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, ok := parseAtonPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var out uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return netip.Addr{}, false
		}
		out |= v << (24 - 8*uint(i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*uint(5-len(vals))) {
		return netip.Addr{}, false
	}
	out |= last
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(out&0xffffffff)) // out < 1<<32 by the checks above
	return netip.AddrFrom4(b), true
}

func parseAtonPart(p string) (uint64, bool) {
	base := 10
	lp := strings.ToLower(p)
	switch {
	case strings.HasPrefix(lp, "0x"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true // inet_aton reads "0x" as 0
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	if p == "" || len(p) > 32 {
		return 0, false
	}
	v, err := strconv.ParseUint(p, base, 64)
	if err != nil || v > 0xffffffff {
		return 0, false
	}
	return v, true
}
