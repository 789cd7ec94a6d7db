package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/warren"
)

// TestMemoryFilesOnDiskImportedOnce: memory files a workspace held from
// before memory lived in the database become global documents at the first
// start, stay on disk, and are not imported again (a document the user
// deleted stays deleted).
func TestMemoryFilesOnDiskImportedOnce(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory", "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"MEMORY.md": "# Me\n\nLikes tea.", "memory/projects/apollo.md": "Apollo ships in May.", "memory/notes.txt": "not markdown"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	openWS := func() *warren.Warren {
		w, err := warren.Open(ctx, warren.Options{DataDir: dir, Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := openWS()
	docs, err := w.Memory().List(ctx, memory.ListFilter{Global: true})
	if err != nil || len(docs) != 2 {
		t.Fatalf("imported %+v %v", docs, err)
	}
	d, ok, err := w.Memory().Resolve(ctx, "anyone", "local", "memory/projects/apollo.md")
	if err != nil || !ok || d.Content != "Apollo ships in May." {
		t.Fatalf("resolve %+v %v %v", d, ok, err)
	}
	if err := w.Memory().Delete(ctx, "", "", "MEMORY.md"); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	w = openWS()
	defer func() { _ = w.Close() }()
	if docs, _ := w.Memory().List(ctx, memory.ListFilter{Global: true}); len(docs) != 1 {
		t.Fatalf("imported again: %+v", docs)
	}
	if _, err := os.Stat(filepath.Join(ws, "MEMORY.md")); err != nil {
		t.Fatalf("the file left the disk: %v", err)
	}
}
