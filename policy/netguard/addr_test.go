package netguard

import (
	"net/netip"
	"testing"
)

func TestParseHostForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		host   string
		want   string // "" = a name
		refuse bool
	}{
		{"2130706433", "127.0.0.1", false},
		{"0x7f.1", "127.0.0.1", false},
		{"017700000001", "127.0.0.1", false},
		{"127.1", "127.0.0.1", false},
		{"0x7f000001", "127.0.0.1", false},
		{"0177.0.0.1", "127.0.0.1", false},
		{"0X7F.0.0.1", "127.0.0.1", false},
		{"127.0.1", "127.0.0.1", false},
		{"10.1", "10.0.0.1", false},
		{"169.254.43518", "169.254.169.254", false},
		{"0xa9fea9fe", "169.254.169.254", false},
		{"0", "0.0.0.0", false},
		{"127.0.0.1.", "127.0.0.1", false},
		{"8.8.8.8", "8.8.8.8", false},
		{"::1", "::1", false},
		{"::ffff:127.0.0.1", "::ffff:127.0.0.1", false},
		{"example.com", "", false},
		{"1.example", "", false},
		{"256.1.1.1", "", true},
		{"1.2.3.4.5", "", true},
		{"127.0.0.08", "", true}, // 08 is no octal number
		{"4294967296", "", true},
		{"example.123", "", true},
		{"fe80::1%eth0", "", true},
		{":::", "", true},
		{"", "", true},
	}
	for _, c := range cases {
		a, isAddr, err := ParseHost(c.host)
		if c.refuse {
			if err == nil {
				t.Errorf("%q: parsed as %v (addr %v), want a refusal", c.host, a, isAddr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.host, err)
			continue
		}
		if c.want == "" {
			if isAddr {
				t.Errorf("%q: read as address %v, want a name", c.host, a)
			}
			continue
		}
		if !isAddr || a.String() != c.want {
			t.Errorf("%q: got %v (addr %v), want %s", c.host, a, isAddr, c.want)
		}
	}
}

func TestCheckAddrRanges(t *testing.T) {
	t.Parallel()
	cases := map[string]Rule{
		"127.0.0.1":                RuleLoopback,
		"127.255.255.254":          RuleLoopback,
		"10.0.0.1":                 RulePrivate,
		"172.16.0.1":               RulePrivate,
		"172.31.255.255":           RulePrivate,
		"192.168.1.1":              RulePrivate,
		"169.254.169.254":          RuleLinkLocal,
		"100.64.0.1":               RuleCGNAT,
		"100.127.255.255":          RuleCGNAT,
		"0.0.0.0":                  RuleUnspecified,
		"0.1.2.3":                  RuleThisNetwork,
		"255.255.255.255":          RuleBroadcast,
		"224.0.0.1":                RuleMulticast,
		"239.255.255.250":          RuleMulticast,
		"240.0.0.1":                RuleReserved,
		"::":                       RuleUnspecified,
		"::1":                      RuleLoopback,
		"fe80::1":                  RuleLinkLocal,
		"fc00::1":                  RuleUniqueLocal,
		"fd00:ec2::254":            RuleUniqueLocal,
		"ff02::1":                  RuleMulticast,
		"fec0::1":                  RuleSiteLocal,
		"::ffff:127.0.0.1":         RuleMapped,
		"::ffff:8.8.8.8":           RuleMapped,
		"::127.0.0.1":              RuleCompatible,
		"::8.8.8.8":                RuleCompatible,
		"64:ff9b::10.0.0.1":        RuleNAT64,
		"64:ff9b::127.0.0.1":       RuleNAT64,
		"64:ff9b::169.254.169.254": RuleNAT64,
		"64:ff9b:1::1":             RuleNAT64,
		"2002:7f00:1::":            RuleTunnel,
		"2001:0:4136:e378::1":      RuleTunnel,
		"8.8.8.8":                  "",
		"1.1.1.1":                  "",
		"172.32.0.1":               "",
		"100.128.0.1":              "",
		"2606:4700:4700::1111":     "",
		"64:ff9b::8.8.8.8":         "",
		"2002:808:808::":           "",
	}
	for s, want := range cases {
		if got := CheckAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("%s: rule %q, want %q", s, got, want)
		}
	}
	if CheckAddr(netip.Addr{}) == "" {
		t.Error("the zero address passed")
	}
}
