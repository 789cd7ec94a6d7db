// Package doctexttest makes real documents for tests: PDFs written by a PDF
// library (optionally encrypted) and minimal but valid DOCX files.
package doctexttest

import (
	"archive/zip"
	"bytes"
	"testing"

	"github.com/go-pdf/fpdf"
)

// PDF returns a PDF with one line of text per page; a non-empty
// userPassword encrypts it (RC4, as the PDF library writes it).
func PDF(t testing.TB, userPassword string, pages ...string) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	if userPassword != "" {
		p.SetProtection(fpdf.CnProtectPrint, userPassword, "owner")
	}
	p.SetFont("Helvetica", "", 14)
	for _, text := range pages {
		p.AddPage()
		p.Cell(40, 10, text)
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// DOCX returns a .docx whose body is the given WordprocessingML (the w:
// prefix is bound), with the parts Word needs to open it.
func DOCX(t testing.TB, body string) []byte {
	t.Helper()
	return Zip(t, []string{
		"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			body + `</w:body></w:document>`,
	}...)
}

// Zip returns a zip of name, content pairs, in order.
func Zip(t testing.TB, nameContent ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(nameContent); i += 2 {
		w, err := zw.Create(nameContent[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(nameContent[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
