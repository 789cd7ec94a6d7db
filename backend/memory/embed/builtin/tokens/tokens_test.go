package tokens

import (
	"strings"
	"testing"
)

// words renders a scan as "whole" and "whole[part part]" items.
func words(text string) string {
	var s Scanner
	var out []string
	s.Scan(text, func(w []byte, k Kind) {
		if k == Part {
			out[len(out)-1] += "|" + string(w)
			return
		}
		out = append(out, string(w))
	})
	return strings.Join(out, " ")
}

func TestScan(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Hello, World!", "hello world"},
		{"The user's dark-mode setting", "the user dark mode setting"},
		{"I don't know; we can't, won't", "i do not know we can not will not"},
		{"at five o'clock", "at five o'clock"},
		{"getUserName(user_id)", "getusername|get|user|name userid|user|id"},
		{"HTTPServer and JSONDecoder", "httpserver|http|server and jsondecoder|json|decoder"},
		{"utf8 ipv6 2024", "utf8|utf|8 ipv6|ipv|6 2024"},
		{"Café Ünïcödé naïve ΑΒΓ日本語", "café ünïcödé naïve αβγ日本語"},
		{"__init__ _x", "init x"},
		{"it’s John’s", "it john"},
		{"", ""},
		{"--- ... !!!", ""},
		{"\xff\xfeabc\xff", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if got := words(tt.in); got != tt.want {
				t.Errorf("Scan(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
