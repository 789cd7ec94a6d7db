package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/warren"
)

func openApp(t *testing.T, opts app.Options) *app.App {
	t.Helper()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(core, opts)
	ctx, cancel := context.WithCancel(context.Background())
	a.Startup(ctx)
	t.Cleanup(func() {
		a.Shutdown(ctx)
		cancel()
		_ = core.Close()
	})
	return a
}

// TestMemoryFoldersAndChooser: the folder the native dialog returns is
// imported for search_documents, listed and forgotten; a cancelled dialog
// is "", and without a dialog the call says to type the path.
func TestMemoryFoldersAndChooser(t *testing.T) {
	t.Parallel()
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "notes.md"), []byte("# Notes\n\nThe boiler is serviced in March.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var titles []string
	answer := docs
	a := openApp(t, app.Options{ChooseFolder: func(_ context.Context, title string) (string, error) {
		titles = append(titles, title)
		return answer, nil
	}})
	if !a.CanChooseFolders() {
		t.Fatal("CanChooseFolders with a dialog")
	}
	dir, err := a.ChooseFolder("Import a folder into memory")
	if err != nil || dir != docs || titles[0] != "Import a folder into memory" {
		t.Fatalf("chosen %q %v %v", dir, err, titles)
	}
	answer = ""
	if dir, err := a.ChooseFolder(""); err != nil || dir != "" || titles[1] != "Choose a folder" {
		t.Fatalf("cancelled: %q %v %v", dir, err, titles)
	}

	f, err := a.ImportMemoryFolder(docs, "")
	if err != nil || f.Files != 1 || f.Path != docs {
		t.Fatalf("import %+v %v", f, err)
	}
	if _, err := a.ImportMemoryFolder(docs, ""); err == nil || !strings.Contains(err.Error(), "already imported") {
		t.Fatalf("twice: %v", err)
	}
	if _, err := a.ImportMemoryFolder(filepath.Join(docs, "notes.md"), ""); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a file: %v", err)
	}
	list, err := a.MemoryFolders()
	if err != nil || len(list) != 1 || list[0].ID != f.ID {
		t.Fatalf("folders %+v %v", list, err)
	}
	if err := a.ForgetMemoryFolder(f.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.ForgetMemoryFolder(f.ID); err == nil {
		t.Fatal("forgot twice")
	}

	none := openApp(t, app.Options{})
	if none.CanChooseFolders() {
		t.Fatal("CanChooseFolders without a dialog")
	}
	if _, err := none.ChooseFolder("x"); err == nil || !strings.Contains(err.Error(), "type the folder's path") {
		t.Fatalf("no dialog: %v", err)
	}
}
