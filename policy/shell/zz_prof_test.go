package shell

import (
	"strings"
	"testing"
)

func BenchmarkZZParens(b *testing.B) {
	s := strings.Repeat("(", 20000) + "ls" + strings.Repeat(")", 20000)
	for b.Loop() {
		Analyze(s)
	}
}
func BenchmarkZZBraces(b *testing.B) {
	s := strings.Repeat("echo {a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}; ", 1400)
	for b.Loop() {
		Analyze(s)
	}
}
