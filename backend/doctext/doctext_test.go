package doctext_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext"
	"github.com/warren-dev/warren/backend/doctext/doctexttest"
)

func makePDF(t testing.TB, pages []string, userPassword string) []byte {
	return doctexttest.PDF(t, userPassword, pages...)
}

func makeDOCX(t testing.TB, body string) []byte { return doctexttest.DOCX(t, body) }

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtractPDFPages(t *testing.T) {
	t.Parallel()
	path := writeFile(t, "report.pdf", makePDF(t, []string{"Alpha first page", "Bravo second page", "Charlie third page"}, ""))
	ctx := context.Background()

	all, err := doctext.Extract(ctx, path, doctext.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Kind != doctext.KindPDF || all.Pages != 3 || all.FirstPage != 1 || all.LastPage != 3 || all.Truncated {
		t.Fatalf("all pages: %+v", all)
	}
	for _, want := range []string{"--- page 1 ---", "Alpha first page", "Bravo second page", "--- page 3 ---", "Charlie third page"} {
		if !strings.Contains(all.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, all.Text)
		}
	}

	some, err := doctext.Extract(ctx, path, doctext.Options{Pages: "2-"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(some.Text, "Alpha") || !strings.Contains(some.Text, "Bravo") || !strings.Contains(some.Text, "Charlie") {
		t.Fatalf("pages 2-: %q", some.Text)
	}

	// A cap that holds one page: the result says where to go on.
	capped, err := doctext.Extract(ctx, path, doctext.Options{MaxChars: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !capped.Truncated || capped.LastPage != 1 || capped.NextPage != 2 || strings.Contains(capped.Text, "Bravo") {
		t.Fatalf("capped: %+v", capped)
	}

	for _, bad := range []string{"0", "4", "3-1", "x", "1-9"} {
		if _, err := doctext.Extract(ctx, path, doctext.Options{Pages: bad}); !errors.Is(err, doctext.ErrPages) {
			t.Errorf("pages %q: err %v, want ErrPages", bad, err)
		}
	}
}

func TestParsePages(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]string{"": "[1 2 3 4 5]", "3": "[3]", "4,1-2,2": "[1 2 4]", " 2 - 3 ": "[2 3]", "5-": "[5]"} {
		got, err := doctext.ParsePages(spec, 5)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("ParsePages(%q) = %v, %v; want %s", spec, got, err, want)
		}
	}
}

func TestExtractEncryptedPDF(t *testing.T) {
	t.Parallel()
	path := writeFile(t, "locked.pdf", makePDF(t, []string{"secret"}, "hunter2"))
	_, err := doctext.Extract(context.Background(), path, doctext.Options{})
	if !errors.Is(err, doctext.ErrEncrypted) || !strings.Contains(err.Error(), "locked.pdf") {
		t.Fatalf("err = %v, want ErrEncrypted naming the file", err)
	}
}

func TestExtractCorrupt(t *testing.T) {
	t.Parallel()
	good := makePDF(t, []string{"one"}, "")
	cases := map[string][]byte{
		"cut.pdf":      good[:len(good)/2],
		"garbage.pdf":  []byte("%PDF-1.4\n this is not a pdf at all"),
		"notzip.docx":  []byte("PK\x03\x04 nope"),
		"noword.docx":  zipWith(t, "other.xml", "<x/>"),
		"badxml.docx":  makeDOCX(t, `<w:p><w:r><w:t>open`),
		"legacy.doc":   append([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), make([]byte, 64)...),
		"binary.bin":   {0, 1, 2, 3},
		"encrypt.docx": zipWith(t, "EncryptedPackage", "x"),
	}
	for name, data := range cases {
		_, err := doctext.ExtractBytes(context.Background(), data, name, doctext.Options{})
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
		if !errors.Is(err, doctext.ErrCorrupt) && !errors.Is(err, doctext.ErrEncrypted) && !errors.Is(err, doctext.ErrUnsupported) {
			t.Errorf("%s: %v is not one of the documented errors", name, err)
		}
	}
}

func zipWith(t *testing.T, name, body string) []byte { return doctexttest.Zip(t, name, body) }

func TestExtractTooLarge(t *testing.T) {
	t.Parallel()
	path := writeFile(t, "big.txt", bytes.Repeat([]byte("a"), 2048))
	_, err := doctext.Extract(context.Background(), path, doctext.Options{MaxBytes: 1024})
	if !errors.Is(err, doctext.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestExtractDOCX(t *testing.T) {
	t.Parallel()
	body := `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Quarterly plan</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t xml:space="preserve">Ship the </w:t></w:r><w:r><w:t>media tools.</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/></w:numPr></w:pPr><w:r><w:t>first item</w:t></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell A</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>cell B</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`
	path := writeFile(t, "plan.docx", makeDOCX(t, body))
	got, err := doctext.Extract(context.Background(), path, doctext.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Quarterly plan\nShip the media tools.\n- first item\n| cell A | cell B |\n"
	if got.Kind != doctext.KindDOCX || got.Text != want {
		t.Fatalf("got %s %q\nwant %q", got.Kind, got.Text, want)
	}
	if _, err := doctext.Extract(context.Background(), path, doctext.Options{Pages: "1"}); !errors.Is(err, doctext.ErrPages) {
		t.Fatalf("a page range on a DOCX: %v", err)
	}
}

func TestExtractHTML(t *testing.T) {
	t.Parallel()
	page := `<!doctype html><html><head><title>T</title><style>p{}</style></head><body>
<h1>Title  here</h1><script>alert(1)</script>
<p>Some <b>bold</b>
 text.</p>
<ul><li>one</li><li>two<ol><li>nested</li></ol></li></ul>
<pre>  keep
   this</pre>
<table><tr><td>a</td><td>b</td></tr></table>
</body></html>`
	got, err := doctext.ExtractBytes(context.Background(), []byte(page), "page.html", doctext.Options{MaxChars: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title here\n\nSome bold text.\n\n- one\n- two\n  1. nested\n\n  keep\n   this\n\na | b |\n"
	if got.Text != want {
		t.Fatalf("got  %q\nwant %q", got.Text, want)
	}
	capped, _ := doctext.ExtractBytes(context.Background(), []byte(page), "page.html", doctext.Options{MaxChars: 10})
	if !capped.Truncated || len([]rune(capped.Text)) > 10 {
		t.Fatalf("capped: %+v", capped)
	}
}

func TestDetectByContent(t *testing.T) {
	t.Parallel()
	pdf := makePDF(t, []string{"hidden pdf"}, "")
	got, err := doctext.ExtractBytes(context.Background(), pdf, "notes.txt", doctext.Options{})
	if err != nil || got.Kind != doctext.KindPDF || !strings.Contains(got.Text, "hidden pdf") {
		t.Fatalf("a PDF named .txt: %+v %v", got, err)
	}
}
