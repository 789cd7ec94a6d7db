package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/memory"
)

// TestMemoryCLI: a memory file written through the file tools lands in the
// store (not on disk), is listed, searched by the CLI and by memory_search
// as a tool, read by memory_get, and removed; bad input gets a clear error.
func TestMemoryCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := t.TempDir()
	content := "# Trips\n\n## Lisbon\n\nThe user flies to Lisbon on 3 March and prefers a window seat.\n"
	args, _ := json.Marshal(map[string]string{"path": "memory/trips.md", "content": content})
	mustRun(t, dir, "tool", "call", "write_file", string(args), "--workspace", ws)
	if _, err := os.Stat(filepath.Join(ws, "memory", "trips.md")); !os.IsNotExist(err) {
		t.Fatalf("the memory file reached the disk: %v", err)
	}
	if r := mustRun(t, dir, "memory", "list"); !strings.Contains(r.stdout, "memory/trips.md") || !strings.Contains(r.stdout, "default/local") {
		t.Fatalf("list: %+v", r)
	}
	r := mustRun(t, dir, "memory", "search", "window", "seat", "--json")
	var res memory.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Path != "memory/trips.md" || res.Hits[0].Heading != "Trips > Lisbon" || res.Hits[0].StartLine != 1 || res.Hits[0].EndLine != 5 {
		t.Fatalf("search: %+v", res)
	}
	r = mustRun(t, dir, "tool", "call", "memory_search", `{"query":"Lisbon flight"}`)
	if !strings.Contains(r.stdout, "mode: hybrid") || !strings.Contains(r.stdout, "memory/trips.md lines 1-5") {
		t.Fatalf("memory_search: %+v", r)
	}
	r = mustRun(t, dir, "tool", "call", "memory_get", `{"path":"memory/trips.md","from":5,"lines":1}`)
	if !strings.Contains(r.stdout, "lines 5-5 of 6") || !strings.Contains(r.stdout, "window seat") {
		t.Fatalf("memory_get: %+v", r)
	}
	if r := mustRun(t, dir, "memory", "show", "memory/trips.md"); r.stdout != content {
		t.Fatalf("show: %q", r.stdout)
	}
	mustRun(t, dir, "memory", "remove", "memory/trips.md")
	for _, bad := range [][]string{
		{"memory", "show", "memory/trips.md"},
		{"memory", "remove", "memory/trips.md"},
		{"memory", "search", "x", "--scope", "everyone"},
		{"memory", "put", "../escape.md", "--file", "/dev/null"},
		{"memory", "frobnicate"},
	} {
		r := warren(t, dir, bad...)
		if r.code == 0 || r.stderr == "" {
			t.Fatalf("%v: %+v", bad, r)
		}
	}
	r = warren(t, dir, "tool", "call", "memory_get", `{"path":"memory/none.md"}`)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "no memory document") {
		t.Fatalf("memory_get missing: %+v", r)
	}
	if r := mustRun(t, dir, "memory", "status"); !strings.Contains(r.stdout, "embedder:  builtin/") {
		t.Fatalf("status: %+v", r)
	}
}
