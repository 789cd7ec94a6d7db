package cli_test

import (
	"strings"
	"testing"
)

// TestAlsoAllowSuggests: an also-allow entry naming no tool is stored (an
// MCP server's tools exist only while it runs) with a warning giving the
// likely names, as the window's forms do.
func TestAlsoAllowSuggests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := warren(t, dir, "policy", "also-allow", "web_fetc")
	if r.code != 0 || !strings.Contains(r.stderr, `warning: "web_fetc" matches no registered tool (did you mean web_fetch or web_search?)`) {
		t.Fatalf("code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = warren(t, dir, "policy", "also-allow", "group:webb")
	if r.code != 0 || !strings.Contains(r.stderr, `unknown group "webb" (did you mean group:web`) {
		t.Fatalf("code %d\nstderr %s", r.code, r.stderr)
	}
	r = warren(t, dir, "policy", "also-allow", "web_fetch")
	if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "web_fetc, group:webb, web_fetch") {
		t.Fatalf("code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r = warren(t, dir, "policy", "also-allow", "--remove", "web_fetc"); r.code != 0 || r.stderr != "" {
		t.Fatalf("remove: code %d stderr %s", r.code, r.stderr)
	}
}
