package memory

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/warren-dev/warren/backend/doctext"
)

// maxImportDocument caps a PDF or DOCX file a folder scan reads: they hold
// far less text than their size, so they get more room than text files.
const maxImportDocument = 20 << 20

// documentExts are binary document kinds indexed by their extracted text.
var documentExts = map[string]bool{"pdf": true, "docx": true}

func fileExt(name string) string {
	return strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
}

// importLimit is the largest file of this name a scan reads.
func importLimit(name string) int64 {
	if documentExts[fileExt(name)] {
		return maxImportDocument
	}
	return maxImportFile
}

// importText turns a file's bytes into the text indexed: PDF and DOCX
// through doctext (locally), anything else as UTF-8 text. ok=false skips
// the file (binary, encrypted, damaged).
func importText(ctx context.Context, name string, b []byte) (string, bool) {
	if documentExts[fileExt(name)] {
		doc, err := doctext.ExtractBytes(ctx, b, name, doctext.Options{MaxBytes: maxImportDocument, MaxChars: maxImportFile})
		if err != nil || strings.TrimSpace(doc.Text) == "" {
			return "", false
		}
		return doc.Text, true
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return "", false
	}
	return string(b), true
}
