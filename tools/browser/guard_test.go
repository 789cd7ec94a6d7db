package browser

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// FuzzCheckURL: whatever the text, a URL that passes names an http(s)
// URL on the one allowed host.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"http://allowed.test/", "https://allowed.test:443/x?y#z", "HTTP://allowed.test", "file:///etc/passwd",
		"javascript:alert(1)", "data:text/html,hi", "chrome://version", "http://evil.test@allowed.test/",
		"http://allowed.test@evil.test/", "//allowed.test/", "http:///x", "ws://allowed.test/", "%zz", "",
	} {
		f.Add(s)
	}
	allow := allowList{"allowed.test": true}
	ctx := tools.WithCallContext(context.Background(), tools.CallContext{Agent: "a", Network: true})
	f.Fuzz(func(t *testing.T, raw string) {
		if err := checkURL(ctx, allow, raw); err != nil {
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%q passed but does not parse: %v", raw, err)
		}
		if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
			t.Fatalf("%q passed with scheme %q", raw, u.Scheme)
		}
		if u.Host != "allowed.test" && !strings.HasPrefix(u.Host, "allowed.test:") {
			t.Fatalf("%q passed for host %q", raw, u.Host)
		}
	})
}

// FuzzParseRef: refs parse to positive ids or are refused, never panic.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"e12", "[e12]", "12", "e0", "e-1", "x", "", "e99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if id, ok := parseRef(s); ok && id <= 0 {
			t.Fatalf("%q gave id %d", s, id)
		}
	})
}

func TestCheckURLRefusesWithoutGuardOrNetwork(t *testing.T) {
	if err := checkURL(context.Background(), nil, "http://a.test/"); err == nil {
		t.Fatal("no guard: allowed")
	}
	in := &interceptor{checker: allowList{"a.test": true}}
	if err := in.check(context.Background(), "http://a.test/"); err != ErrNetworkOff {
		t.Fatalf("before any call: %v", err)
	}
	in.setCall(tools.CallContext{Agent: "a", Network: false})
	if err := in.check(context.Background(), "http://a.test/"); err != ErrNetworkOff {
		t.Fatalf("network off: %v", err)
	}
	in.setCall(tools.CallContext{Agent: "a", Network: true})
	if err := in.check(context.Background(), "http://a.test/"); err != nil {
		t.Fatalf("network on: %v", err)
	}
}

func TestHasArg(t *testing.T) {
	want := []byte("--user-data-dir=/p/a")
	for cmdline, ok := range map[string]bool{
		"chromium\x00--user-data-dir=/p/a\x00":              true,
		"chromium --type=renderer --user-data-dir=/p/a --x": true,
		"chromium\x00--user-data-dir=/p/a":                  true,
		"chromium\x00--user-data-dir=/p/ab\x00":             false,
		"chromium\x00x--user-data-dir=/p/a\x00":             false,
		"chromium --user-data-dir=/p/a/b":                   false,
	} {
		if got := hasArg([]byte(cmdline), want); got != ok {
			t.Errorf("%q: %v", cmdline, got)
		}
	}
}

// TestProfileInUse: a lock held by a live process on this host refuses
// the profile; a stale one (a dead pid, another host) does not.
func TestProfileInUse(t *testing.T) {
	host, _ := os.Hostname()
	for name, c := range map[string]struct {
		link    string
		refused bool
	}{
		"live":       {host + "-" + strconv.Itoa(os.Getpid()), true},
		"dead":       {host + "-999999999", false},
		"other host": {"elsewhere-" + strconv.Itoa(os.Getpid()), false},
		"garbage":    {"nonsense", false},
	} {
		dir := t.TempDir()
		if err := os.Symlink(c.link, filepath.Join(dir, "SingletonLock")); err != nil {
			t.Fatal(err)
		}
		if err := profileInUse(dir); (err != nil) != c.refused {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := profileInUse(t.TempDir()); err != nil {
		t.Errorf("no lock: %v", err)
	}
}

func TestProfileName(t *testing.T) {
	for in, want := range map[string]string{"coder": "coder", "": "default", "a/../b": "a_2f__2e__2e__2f_b", "x y": "x_20_y"} {
		if got := profileName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
