package cli

import "testing"

func TestProcessLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"mcp", []string{"serve", "--stdio"}, "warren mcp serve"},
		{"tool", []string{"call", "exec", "{}"}, "warren tool call"},
		{"tool", []string{"--json"}, "warren tool"},
		{"run", []string{"delete everything"}, "warren run"},
	} {
		if got := processLabel(tc.name, tc.args); got != tc.want {
			t.Errorf("processLabel(%q, %q) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}
