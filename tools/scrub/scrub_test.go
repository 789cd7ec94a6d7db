package scrub

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestDynamicValues(t *testing.T) {
	t.Parallel()
	s := New()
	s.AddValues("10.0.0.7", "ab", "   ", "  x  ", "", "s3cr3t-deploy")
	got := s.Scrub("ssh 10.0.0.7 with s3cr3t-deploy; ab stays")
	if want := "ssh [REDACTED] with [REDACTED]; ab stays"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	s.RemoveValues("10.0.0.7", "never-added")
	got = s.Scrub("ssh 10.0.0.7 with s3cr3t-deploy")
	if want := "ssh 10.0.0.7 with [REDACTED]"; got != want {
		t.Fatalf("after remove: got %q, want %q", got, want)
	}
}

func TestDynamicValueEdges(t *testing.T) {
	t.Parallel()
	cases := []struct{ value, in, want string }{
		{"abab", "xababab", "x[REDACTED]"}, // overlapping occurrences leave no fragment
		{"héllo", "say héllo!", "say [REDACTED]!"},
		{"DACT", "[REDACTED] and DACT", "[REDACTED] and [REDACTED]"}, // inside a marker: no loop
		{"D]ab", "x[REDACTED]ab D]ab", "x[REDACTED] [REDACTED]"},
		{"c de", "password=abc def", "password=[REDACTED]f"}, // the value was "abc"; "f" is prose
		{"two words", "the two words here", "the [REDACTED] here"},
	}
	for _, tc := range cases {
		s := New()
		s.AddValues(tc.value)
		got := s.Scrub(tc.in)
		if got != tc.want {
			t.Errorf("value %q: Scrub(%q) = %q, want %q", tc.value, tc.in, got, tc.want)
		}
		if again := s.Scrub(got); again != got {
			t.Errorf("value %q: not idempotent: %q -> %q", tc.value, got, again)
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	s := New()
	s.AddValues("alpha-secret")
	c := s.Clone()
	c.AddValues("beta-secret")
	s.RemoveValues("alpha-secret")
	in := "alpha-secret beta-secret"
	if got, want := s.Scrub(in), in; got != want {
		t.Errorf("original: got %q, want %q", got, want)
	}
	if got, want := c.Scrub(in), "[REDACTED] [REDACTED]"; got != want {
		t.Errorf("clone: got %q, want %q", got, want)
	}
}

func TestZeroAndNilScrubber(t *testing.T) {
	t.Parallel()
	var zero Scrubber
	if got := zero.Scrub("password=x"); got != "password=[REDACTED]" {
		t.Errorf("zero value: got %q", got)
	}
	var nilS *Scrubber
	if got := nilS.Scrub("token: abc"); got != "token: [REDACTED]" {
		t.Errorf("nil: got %q", got)
	}
	if nilS.Clone() == nil {
		t.Error("nil Clone returned nil")
	}
	if got := New().Scrub(""); got != "" {
		t.Errorf("empty: got %q", got)
	}
}

// TestConcurrentUse runs Scrub while values change; run it with -race.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	s := New()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				v := fmt.Sprintf("value-%d-%d", w, i)
				s.AddValues(v)
				if got := s.Scrub("x " + v + " y"); got != "x [REDACTED] y" {
					t.Errorf("got %q", got)
					return
				}
				if i%3 == 0 {
					s.RemoveValues(v)
				}
				_ = s.Clone()
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 200 {
				if got := s.Scrub("password=hunter2"); got != "password=[REDACTED]" {
					t.Errorf("got %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestHostileInputStaysLinear feeds repetitive input that would be quadratic for a naive
// scanner. It asserts results only; BenchmarkScrubHostile measures the time.
func TestHostileInputStaysLinear(t *testing.T) {
	t.Parallel()
	s := New()
	s.AddValues("aaaa")
	for _, in := range hostileInputs(64 << 10) {
		out := s.Scrub(in)
		if again := s.Scrub(out); again != out {
			t.Errorf("input %q…: not idempotent", in[:16])
		}
	}
}

func hostileInputs(size int) []string {
	var out []string
	for _, unit := range []string{
		"sk-", "AKIA", "ghp_", "://", "token=", "a=", "token:\"", `token=\"`, "ab", "://u:p@",
		"password=\"x\\", "Bearer ", strings.Repeat("f", 63) + "-", "a",
		"eyJhbGciOi.", "xoxb-", "-----BEGIN PRIVATE KEY-----\n", "-----BEGIN PRIVATE KEY-----a: ",
		"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: ", "login u password ", "AKIAIOSFODNN7EXAMPLE ",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY/",
	} {
		out = append(out, strings.Repeat(unit, size/len(unit)))
	}
	return out
}
