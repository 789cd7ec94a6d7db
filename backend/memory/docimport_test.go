package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext/doctexttest"
)

func writePDF(t *testing.T, path, password, text string) {
	t.Helper()
	if err := os.WriteFile(path, doctexttest.PDF(t, password, text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestImportedFolderPDFs: a folder's PDFs are indexed by their text
// (extracted locally); encrypted and damaged ones are skipped.
func TestImportedFolderPDFs(t *testing.T) {
	t.Parallel()
	s := openStore(t, &hashEmbedder{dims: 32, model: "a"})
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "papers")
	writeFile(t, filepath.Join(dir, "readme.md"), "# Papers")
	writePDF(t, filepath.Join(dir, "greenhouse.pdf"), "", "Tomatoes need warm greenhouse nights")
	writePDF(t, filepath.Join(dir, "locked.pdf"), "pw", "secret plans")
	writeFile(t, filepath.Join(dir, "broken.pdf"), "%PDF-1.4 nothing here")
	f, err := s.AddFolder(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Files != 2 || f.Skipped != 2 {
		t.Fatalf("folder %+v", f)
	}
	index(t, s)
	r := search(t, s, Query{Text: "greenhouse tomatoes", Sources: []Source{SourceImport}})
	if len(r.Hits) == 0 || r.Hits[0].Path != docPrefix(f)+"/greenhouse.pdf" || !strings.Contains(r.Hits[0].Snippet, "greenhouse") {
		t.Fatalf("search: %+v", r.Hits)
	}
}
