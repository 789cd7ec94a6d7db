package policy

import (
	"strings"
	"testing"
)

func TestEntryProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entry   string
		problem string // "" when valid, else a fragment of the reason
	}{
		{"*", ""},
		{"exec", ""},
		{"web-fetch.v2", ""},
		{"Create_Issue", ""},
		{"group:fs", ""},
		{"group:mcp", ""},
		{"group:mcp:github", ""},
		{"group:mcp:my-server.v1", ""},
		{"", "empty entry"},
		{" exec", "whitespace"},
		{"exec\n", "whitespace"},
		{"group:", "empty group name"},
		{"group:mcp:", "empty segment"},
		{"group::x", "empty segment"},
		{"group:*", "wildcards"},
		{"group:f s", "invalid character"},
		{"**", "wildcards"},
		{"web_*", "wildcards"},
		{"mcp:github", `did you mean "group:mcp:github"`},
		{"rm -rf", "invalid character ' '"},
		{"exec;ls", "invalid character ';'"},
		{"tööl", "invalid character"},
	}
	for _, tc := range tests {
		t.Run(tc.entry, func(t *testing.T) {
			t.Parallel()
			got := entryProblem(tc.entry)
			if (got == "") != (tc.problem == "") || !strings.Contains(got, tc.problem) {
				t.Fatalf("entryProblem(%q) = %q, want %q", tc.entry, got, tc.problem)
			}
		})
	}
}

// FuzzEntry checks that no entry panics the parser and that every entry the
// parser accepts can be evaluated.
func FuzzEntry(f *testing.F) {
	for _, seed := range []string{"*", "exec", "group:mcp:github", "group:", "mcp:x", "a b", "web_*", "\x00", "group:a::b"} {
		f.Add(seed)
	}
	tools := testTools()
	e, err := NewEngine(Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		problem := entryProblem(entry)
		_, err := e.Filter(tools, Request{RequestAllow: []string{entry}})
		if (problem == "") != (err == nil) {
			t.Fatalf("entry %q: problem %q but Filter error %v", entry, problem, err)
		}
		if err != nil && !strings.Contains(err.Error(), "request_allow[0]") {
			t.Fatalf("error %q does not locate the entry", err)
		}
	})
}
