package mcp

import (
	"strings"
	"testing"
)

func TestCollapseRepeats(t *testing.T) {
	t.Parallel()
	got := collapseRepeats([]string{"a", "a", "a", "b", "a", "c", "c"})
	want := []string{"a (repeated 3 times)", "b", "a", "c (repeated 2 times)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("collapseRepeats = %q, want %q", got, want)
	}
	if got := collapseRepeats(nil); len(got) != 0 {
		t.Fatalf("collapseRepeats(nil) = %q", got)
	}
}
