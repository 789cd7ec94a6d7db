package doctext_test

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/warren-dev/warren/backend/doctext"
)

// FuzzExtractBytes feeds arbitrary bytes under each kind's name: whatever
// comes in, extraction returns text or an error, never a panic or a text
// over its cap. Seeds: testdata/fuzz/FuzzExtractBytes plus real documents.
func FuzzExtractBytes(f *testing.F) {
	f.Add(makePDF(f, []string{"page one", "page two"}, ""), "a.pdf", "1-2")
	f.Add(makePDF(f, []string{"locked"}, "pw"), "b.pdf", "")
	f.Add(makeDOCX(f, `<w:p><w:r><w:t>hello</w:t></w:r></w:p>`), "c.docx", "")
	f.Add([]byte(`<html><body><h2>x</h2><ol><li>y</li></ol></body></html>`), "d.html", "")
	f.Fuzz(func(t *testing.T, data []byte, name, pages string) {
		const maxChars = 200
		got, err := doctext.ExtractBytes(context.Background(), data, name, doctext.Options{Pages: pages, MaxChars: maxChars, MaxBytes: 1 << 20})
		if err != nil {
			return
		}
		if got.Truncated && utf8.RuneCountInString(got.Text) > maxChars {
			t.Fatalf("text of %d runes over the cap %d", utf8.RuneCountInString(got.Text), maxChars)
		}
	})
}

// FuzzParsePages checks every accepted range stays within the document.
func FuzzParsePages(f *testing.F) {
	for _, s := range []string{"1", "1-3", "2-", "1,3,5-7", "-", "0", "3-1", ",", "99999999999999999999"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		if n < 1 || n > 10_000 {
			return
		}
		pages, err := doctext.ParsePages(spec, n)
		if err != nil {
			return
		}
		for i, p := range pages {
			if p < 1 || p > n || (i > 0 && p <= pages[i-1]) {
				t.Fatalf("%q over %d pages gave %v", spec, n, pages)
			}
		}
	})
}
