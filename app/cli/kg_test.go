package cli_test

import (
	"strings"
	"testing"
)

// TestKnowledgeGraphCLI: entities and relations entered by hand are
// searched and walked, by the CLI and by knowledge_graph_search; bad input
// names what was wrong.
func TestKnowledgeGraphCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := mustRun(t, dir, "kg", "add", "Ana", "Ruiz", "--type", "person", "--description", "backend engineer"); !strings.Contains(r.stdout, "added entity 1") {
		t.Fatalf("add: %+v", r)
	}
	mustRun(t, dir, "kg", "add", "Apollo", "--type", "project")
	mustRun(t, dir, "kg", "link", "1", "works_on", "2", "--from", "2025-01-01")
	if r := mustRun(t, dir, "kg", "search", "engineer"); !strings.Contains(r.stdout, "Ana Ruiz —works_on→ Apollo [2025-01-01 – …]") {
		t.Fatalf("search: %+v", r)
	}
	if r := mustRun(t, dir, "tool", "call", "knowledge_graph_search", `{"query":"apollo","max_depth":1}`); !strings.Contains(r.stdout, "Ana Ruiz —works_on→ Apollo") {
		t.Fatalf("tool: %+v", r)
	}
	if r := warren(t, dir, "kg", "show", "2", "--as-of", "2024-06-01"); strings.Contains(r.stdout, "works_on") {
		t.Fatalf("as-of before the relation began: %+v", r)
	}
	mustRun(t, dir, "kg", "edit", "2", "--description", "the billing rewrite")
	mustRun(t, dir, "kg", "remove", "2")
	for _, bad := range [][]string{{"kg", "add", "X", "--type", "alien"}, {"kg", "link", "1", "likes", "1"}, {"kg", "show", "99"},
		{"kg", "search", "x", "--depth", "9"}, {"kg", "remove", "two"}, {"kg", "frob"}} {
		if r := warren(t, dir, bad...); r.code == 0 || r.stderr == "" {
			t.Fatalf("%v: %+v", bad, r)
		}
	}
}
