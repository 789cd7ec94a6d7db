package media_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext/doctexttest"
	"github.com/warren-dev/warren/tools"
)

func TestReadDocumentPDFPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.write(t, "docs/report.pdf", doctexttest.PDF(t, "", "Intro page", "Results page", "Appendix page"))

	res := w.call(t, "read_document", map[string]any{"path": "docs/report.pdf", "pages": "2"})
	if res.IsError || !strings.Contains(res.ForLLM, "docs/report.pdf (PDF, 3 pages; pages 2-2 below)") ||
		!strings.Contains(res.ForLLM, "Results page") || strings.Contains(res.ForLLM, "Intro") {
		t.Fatalf("pages 2: %s", res.ForLLM)
	}
	// An absolute path inside the workspace is the same file.
	if res := w.call(t, "read_document", map[string]any{"path": filepath.Join(w.ws, "docs", "report.pdf"), "pages": "3"}); res.IsError || !strings.Contains(res.ForLLM, "Appendix page") {
		t.Fatalf("absolute path: %s", res.ForLLM)
	}
	// A small cap: the answer says which pages to ask for next.
	res = w.call(t, "read_document", map[string]any{"path": "docs/report.pdf", "max_chars": 40})
	if res.IsError || !strings.Contains(res.ForLLM, `pages="2-"`) {
		t.Fatalf("capped: %s", res.ForLLM)
	}
}

func TestReadDocumentRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	outside := filepath.Join(t.TempDir(), "secret.pdf")
	if err := os.WriteFile(outside, doctexttest.PDF(t, "", "outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(w.ws, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	w.write(t, ".warren/state.pdf", doctexttest.PDF(t, "", "warren's own"))
	w.write(t, "locked.pdf", doctexttest.PDF(t, "pw", "locked"))
	w.write(t, "broken.pdf", []byte("%PDF-1.7\nnot really"))
	w.write(t, "notes.docx", []byte("PK\x03\x04 not a zip"))

	for _, c := range []struct {
		path string
		code tools.ErrorCode
		want string
	}{
		{"link.pdf", tools.CodeSecurity, "link.pdf"},
		{"../secret.pdf", tools.CodeSecurity, ""},
		{outside, tools.CodeSecurity, ""},
		{".warren/state.pdf", tools.CodeSecurity, ""},
		{"missing.pdf", tools.CodeNotFound, "missing.pdf"},
		{"locked.pdf", tools.CodeValidation, "encrypted"},
		{"broken.pdf", tools.CodeValidation, "damaged"},
		{"notes.docx", tools.CodeValidation, "damaged"},
	} {
		res := w.call(t, "read_document", map[string]any{"path": c.path})
		wantError(t, res, c.code, c.want)
	}
	wantError(t, w.call(t, "read_document", map[string]any{"path": "locked.pdf", "max_chars": 999999}), tools.CodeValidation, "max_chars")
}

func TestReadDocumentDOCXAndHTML(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.write(t, "page.html", []byte(`<html><body><h2>Plan</h2><ul><li>ship</li></ul></body></html>`))
	res := w.call(t, "read_document", map[string]any{"path": "page.html"})
	if res.IsError || !strings.Contains(res.ForLLM, "## Plan\n\n- ship") {
		t.Fatalf("html: %s", res.ForLLM)
	}
	wantError(t, w.call(t, "read_document", map[string]any{"path": "page.html", "pages": "1"}), tools.CodeValidation, "PDF only")
}
