package fs

import (
	"slices"
	"testing"
)

func TestRouteContextFile(t *testing.T) {
	t.Parallel()
	user := ContextFileRoute{Scope: ScopeUser}
	userWithTemplate := ContextFileRoute{Scope: ScopeUser, Fallback: true}
	agent := ContextFileRoute{Scope: ScopeAgent}
	cases := []struct {
		typ, name string
		want      ContextFileRoute
		ok        bool
	}{
		{AgentTypeOpen, "SOUL.md", userWithTemplate, true},
		{AgentTypeOpen, "USER.md", userWithTemplate, true},
		{AgentTypeOpen, "BOOTSTRAP.md", user, true},
		{"", "TOOLS.md", userWithTemplate, true}, // unknown types route as open
		{AgentTypePredefined, "SOUL.md", agent, true},
		{AgentTypePredefined, "BOOTSTRAP.md", agent, true},
		{AgentTypePredefined, "USER.md", user, true},
		{AgentTypeOpen, "notes.md", ContextFileRoute{}, false},
		{AgentTypeOpen, "soul.md", ContextFileRoute{}, false},
		{AgentTypePredefined, "sub/SOUL.md", ContextFileRoute{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.typ+"/"+tc.name, func(t *testing.T) {
			got, ok := RouteContextFile(tc.typ, tc.name)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("RouteContextFile(%q, %q) = %+v, %v; want %+v, %v", tc.typ, tc.name, got, ok, tc.want, tc.ok)
			}
		})
	}
	names := ContextFileNames()
	if len(names) != 6 || names[0] != "SOUL.md" || !slices.Contains(names, "BOOTSTRAP.md") {
		t.Fatalf("names %v", names)
	}
	names[0] = "changed"
	if !IsContextFile("SOUL.md") || IsContextFile("changed") {
		t.Fatal("ContextFileNames returned the package's own slice")
	}
}
