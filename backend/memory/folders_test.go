package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestImportedFolders: a folder's text files become searchable documents
// (dependencies, hidden folders, binaries and huge files are skipped), a
// rescan follows edits and deletions, and forgetting the folder removes
// its documents, not its files.
func TestImportedFolders(t *testing.T) {
	t.Parallel()
	s := openStore(t, &hashEmbedder{dims: 32, model: "a"})
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "handbook")
	writeFile(t, filepath.Join(dir, "onboarding.md"), "# Onboarding\n\nNew staff get a badge from reception.")
	writeFile(t, filepath.Join(dir, "src", "billing.go"), "package billing\n\n// Invoice totals are rounded to cents.\nfunc Round() {}\n")
	writeFile(t, filepath.Join(dir, "node_modules", "x", "readme.md"), "a dependency's readme about badges")
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core]")
	writeFile(t, filepath.Join(dir, "logo.png"), "\x89PNG\x00\x00")
	writeFile(t, filepath.Join(dir, "blob.txt"), "bad \x00 bytes")
	writeFile(t, filepath.Join(dir, "huge.txt"), strings.Repeat("x", maxImportFile+1))
	f, err := s.AddFolder(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Files != 2 || f.Skipped != 2 || f.Error != "" {
		t.Fatalf("folder %+v", f)
	}
	if _, err := s.AddFolder(ctx, "", dir); err == nil || !strings.Contains(err.Error(), "already imported") {
		t.Fatalf("second import: %v", err)
	}
	if _, err := s.AddFolder(ctx, "", filepath.Join(dir, "onboarding.md")); err == nil {
		t.Fatal("a file imported as a folder")
	}
	index(t, s)
	docs := []Source{SourceImport}
	r := search(t, s, Query{Text: "badge reception", Sources: docs})
	if len(r.Hits) == 0 || r.Hits[0].Path != docPrefix(f)+"/onboarding.md" {
		t.Fatalf("search: %+v", r.Hits)
	}
	if r := search(t, s, Query{Text: "badge reception", Sources: []Source{SourceMemory}}); len(r.Hits) != 0 {
		t.Fatalf("imported files in memory_search: %+v", r.Hits)
	}
	// An agent cannot write over an imported file through memory paths.
	if _, err := s.Put(ctx, PutDoc{Path: docPrefix(f) + "/onboarding.md", Content: "x"}); err == nil {
		t.Fatal("a memory write replaced an imported file")
	}
	writeFile(t, filepath.Join(dir, "onboarding.md"), "# Onboarding\n\nNew staff collect a laptop from IT.")
	if err := os.Remove(filepath.Join(dir, "src", "billing.go")); err != nil {
		t.Fatal(err)
	}
	if f, err = s.ScanFolder(ctx, f.ID); err != nil || f.Files != 1 {
		t.Fatalf("rescan %+v %v", f, err)
	}
	if r := search(t, s, Query{Text: "laptop", Sources: docs}); len(r.Hits) != 1 || !strings.Contains(r.Hits[0].Snippet, "laptop") {
		t.Fatalf("edit not followed: %+v", r.Hits)
	}
	if r := search(t, s, Query{Text: "invoice cents", Sources: docs}); len(r.Hits) != 1 || strings.Contains(r.Hits[0].Path, "billing") {
		t.Fatalf("deleted file still found: %+v", r.Hits)
	}
	if err := s.RemoveFolder(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveFolder(ctx, f.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removing twice: %v", err)
	}
	if list, _ := s.List(ctx, ListFilter{Source: SourceImport}); len(list) != 0 {
		t.Fatalf("documents left: %+v", list)
	}
	if _, err := os.Stat(filepath.Join(dir, "onboarding.md")); err != nil {
		t.Fatalf("the file went too: %v", err)
	}
}

// TestSystemDocuments: Warren's docs are kept in sync, found only when
// asked for, and never written over by a memory write.
func TestSystemDocuments(t *testing.T) {
	t.Parallel()
	s := openStore(t, &hashEmbedder{dims: 32, model: "a"})
	ctx := context.Background()
	if err := s.SyncSystem(ctx, map[string]string{"warren-docs/sandbox.md": "# Sandbox\n\nCommands run in rootless Podman.",
		"warren-docs/old.md": "gone soon"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SyncSystem(ctx, map[string]string{"warren-docs/sandbox.md": "# Sandbox\n\nCommands run in rootless Podman."}); err != nil {
		t.Fatal(err)
	}
	index(t, s)
	r := search(t, s, Query{Text: "podman", Scope: ScopeGlobal, Sources: []Source{SourceSystem}})
	if len(r.Hits) != 1 || r.Hits[0].Path != "warren-docs/sandbox.md" {
		t.Fatalf("%+v", r.Hits)
	}
	if r := search(t, s, Query{Text: "podman"}); len(r.Hits) != 0 {
		t.Fatalf("system docs in a plain search: %+v", r.Hits)
	}
	if list, _ := s.List(ctx, ListFilter{Global: true, Source: SourceSystem}); len(list) != 1 {
		t.Fatalf("old doc kept: %+v", list)
	}
	if list, _ := s.List(ctx, ListFilter{}); len(list) != 0 {
		t.Fatalf("system docs listed by default: %+v", list)
	}
	if _, err := s.Put(ctx, PutDoc{Path: "warren-docs/sandbox.md", Content: "hijacked"}); err == nil {
		t.Fatal("a memory write replaced Warren's documentation")
	}
}
