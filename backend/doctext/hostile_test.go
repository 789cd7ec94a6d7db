package doctext_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext"
)

// rawPDF assembles a PDF from object bodies (numbered from 1) with a
// correct cross-reference table; trailer is added to the trailer
// dictionary, with %XREF% replaced by the table's own offset.
func rawPDF(objects []string, trailer string) []byte {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, body := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	trailer = strings.ReplaceAll(trailer, "%XREF%", fmt.Sprint(xref))
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, trailer, xref)
	return []byte(b.String())
}

const pageText = "<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 712 Td (Hello hostile) Tj ET\nendstream"

// TestHostilePDFsDoNotHang: files whose internal links loop are refused
// by the link checks (not by the last-resort timeout), quickly.
func TestHostilePDFsDoNotHang(t *testing.T) {
	t.Parallel()
	font := "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
	good := rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R " + font + " >>",
		pageText,
	}, "")
	got, err := doctext.ExtractBytes(context.Background(), good, "good.pdf", doctext.Options{})
	if err != nil || !strings.Contains(got.Text, "Hello hostile") {
		t.Fatalf("the hand-made PDF itself: %+v %v", got, err)
	}
	cases := map[string][]byte{
		"prev-loop.pdf": rawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
			pageText,
		}, "/Prev %XREF%"),
		"kids-loop.pdf": rawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
		}, ""),
		"parent-loop.pdf": rawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 5 0 R /Contents 4 0 R >>",
			pageText,
			"<< /Type /Pages /Parent 5 0 R >>",
		}, ""),
		"kids-fanout.pdf": rawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 1 >>",
			"<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 1 >>",
		}, ""),
	}
	for name, data := range cases {
		_, err := doctext.ExtractBytes(context.Background(), data, name, doctext.Options{})
		if !errors.Is(err, doctext.ErrCorrupt) || !strings.Contains(err.Error(), "loop") {
			t.Errorf("%s: %v, want a loop refusal", name, err)
		}
	}
}

// TestDeeplyNestedPDFsDoNotCrash: nesting deep enough to overflow the
// parser's stack (a fatal error, not a panic) is refused first, in the
// file and inside a compressed page content stream.
func TestDeeplyNestedPDFsDoNotCrash(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 5_000_000)
	inFile := rawPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, "/Junk "+deep)
	if _, err := doctext.ExtractBytes(context.Background(), inFile, "deep.pdf", doctext.Options{}); !errors.Is(err, doctext.ErrCorrupt) || !strings.Contains(err.Error(), "nest") {
		t.Fatalf("nesting in the file: %v", err)
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write([]byte(strings.Repeat("[", 5_000_000)))
	_ = zw.Close()
	inStream := rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.String()),
	}, "")
	if _, err := doctext.ExtractBytes(context.Background(), inStream, "deep-stream.pdf", doctext.Options{}); !errors.Is(err, doctext.ErrCorrupt) || !strings.Contains(err.Error(), "nest") {
		t.Fatalf("nesting in a content stream: %v", err)
	}
}
