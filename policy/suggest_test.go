package policy

import (
	"slices"
	"testing"
)

func TestSuggest(t *testing.T) {
	known := []string{"exec", "read_file", "write_file", "tool_search", "web_fetch", "memory_search"}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"exce", []string{"exec"}},
		{"read_fil", []string{"read_file"}},
		{"nonexistent_tool", []string{"tool_search"}},
		{"search", []string{"tool_search", "memory_search"}},
		{"zzzzzz", nil},
		{"", nil},
	} {
		got := Suggest(c.in, known)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Suggest(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
