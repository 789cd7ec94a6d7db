package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipNeverSplitsACharacter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"héllo", 2, "h…"}, // é is 2 bytes: cut before it
		{"日本語", 4, "日…"},
		{"", 0, ""},
	} {
		if got := Clip(tc.in, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	if got := FirstLine("héllo\nworld", 2); got != "h…" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := OneLine("a\n\tb   c\n", 80); got != "a b c" {
		t.Errorf("OneLine = %q", got)
	}
	long := strings.Repeat("é", 100)
	if got := OneLine(long, 81); !utf8.ValidString(got) {
		t.Errorf("OneLine cut inside a character: %q", got)
	}
}
