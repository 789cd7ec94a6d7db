// Package doctext extracts plain text from documents on the local machine:
// PDF (with page ranges), DOCX, HTML and plain text. Nothing leaves the
// process. It is shared by read_document, the web fetcher and the memory
// folder importer, so it knows nothing about tools, workspaces or policy:
// callers check paths, this package checks bytes.
package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Kind is a document format doctext understands.
type Kind string

// Document kinds.
const (
	KindPDF  Kind = "pdf"
	KindDOCX Kind = "docx"
	KindHTML Kind = "html"
	KindText Kind = "text"
	// kindOLE is a Compound File: a legacy .doc or an encrypted .docx.
	kindOLE Kind = "ole"
)

// Default caps, used when Options leaves a field zero.
const (
	// DefaultMaxBytes caps the input file: larger documents are refused
	// before a byte is parsed.
	DefaultMaxBytes = 50 << 20
	// maxUnzipped caps what one DOCX part may inflate to (zip bombs).
	maxUnzipped = 64 << 20
)

// Errors callers can tell apart with errors.Is; each is wrapped with the
// document's name and the detail.
var (
	ErrEncrypted   = errors.New("document is encrypted or password-protected")
	ErrCorrupt     = errors.New("document is damaged or not what its name says")
	ErrTooLarge    = errors.New("document is too large")
	ErrUnsupported = errors.New("unsupported document format")
	ErrPages       = errors.New("bad page range")
)

// Options tune one extraction.
type Options struct {
	// Kind forces the format; empty means by extension, then by content.
	Kind Kind
	// Pages selects PDF pages, e.g. "3", "2-5", "1,4,7-" (1-based,
	// inclusive; an open end runs to the last page). Empty means all.
	// Other formats refuse a page range.
	Pages string
	// MaxBytes caps the input size; 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxChars caps the returned text (in runes); 0 means no cap. The text
	// is cut at a page or line boundary when one is near.
	MaxChars int
}

// Text is an extraction's result.
type Text struct {
	Kind Kind `json:"kind"`
	// Text is the extracted text; PDF pages are separated by
	// "--- page N ---" lines.
	Text string `json:"text"`
	// Pages is the PDF's page count (0 for other kinds).
	Pages int `json:"pages,omitempty"`
	// FirstPage and LastPage are the PDF pages whose text Text holds in
	// full or in part.
	FirstPage int `json:"first_page,omitempty"`
	LastPage  int `json:"last_page,omitempty"`
	// Truncated says MaxChars cut the text; NextPage is then the first PDF
	// page not (fully) returned, to ask for next.
	Truncated bool `json:"truncated,omitempty"`
	NextPage  int  `json:"next_page,omitempty"`
}

// Extract reads the document at path and returns its text.
func Extract(ctx context.Context, path string, opts Options) (Text, error) {
	f, err := os.Open(path)
	if err != nil {
		return Text{}, err
	}
	defer func() { _ = f.Close() }() // read-only
	return ExtractFile(ctx, f, filepath.Base(path), opts)
}

// ExtractFile reads an already opened file (callers that checked the
// descriptor themselves, such as the workspace tools, pass it here); name
// picks the kind by extension.
func ExtractFile(ctx context.Context, f *os.File, name string, opts Options) (Text, error) {
	fi, err := f.Stat()
	if err != nil {
		return Text{}, err
	}
	max := maxBytes(opts)
	if fi.Size() > max {
		return Text{}, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", name, ErrTooLarge, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return Text{}, fmt.Errorf("read %s: %w", name, err)
	}
	return ExtractBytes(ctx, data, name, opts)
}

// ExtractBytes extracts text from a document held in memory.
func ExtractBytes(ctx context.Context, data []byte, name string, opts Options) (Text, error) {
	if max := maxBytes(opts); int64(len(data)) > max {
		return Text{}, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", name, ErrTooLarge, len(data), max)
	}
	kind := opts.Kind
	if kind == "" {
		kind = Detect(name, data)
	}
	if kind != KindPDF && strings.TrimSpace(opts.Pages) != "" {
		return Text{}, fmt.Errorf("%s: %w: page ranges apply to PDF only, this is %s", name, ErrPages, kind)
	}
	var (
		out Text
		err error
	)
	switch kind {
	case KindPDF:
		out, err = extractPDF(ctx, data, opts)
	case KindDOCX:
		out.Text, err = extractDOCX(data)
	case KindHTML:
		out.Text, err = extractHTML(data)
	case KindText:
		if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			return Text{}, fmt.Errorf("%s: %w: not UTF-8 text and not a PDF, DOCX or HTML file", name, ErrUnsupported)
		}
		out.Text = string(data)
	case kindOLE:
		return Text{}, fmt.Errorf("%s: %w: an OLE container, which is a password-protected Office file or a legacy .doc; "+
			"save it as an unprotected .docx or PDF", name, ErrEncrypted)
	default:
		return Text{}, fmt.Errorf("%s: %w %q (PDF, DOCX, HTML and text are supported)", name, ErrUnsupported, kind)
	}
	if err != nil {
		return Text{}, fmt.Errorf("%s: %w", name, err)
	}
	out.Kind = kind
	if kind != KindPDF {
		out.Text, out.Truncated = capText(out.Text, opts.MaxChars)
	}
	return out, nil
}

func maxBytes(o Options) int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}

// Detect names the kind of a document from its file name, then its first
// bytes. A name that disagrees with the content loses: a PDF called .txt is
// still read as a PDF.
func Detect(name string, data []byte) Kind {
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return KindPDF
	case bytes.HasPrefix(head, []byte("\xD0\xCF\x11\xE0")):
		// An OLE container: a legacy .doc or a password-protected .docx.
		return kindOLE
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf":
		return KindPDF
	case ".docx":
		return KindDOCX
	case ".html", ".htm", ".xhtml":
		return KindHTML
	case ".txt", ".md", ".markdown", ".csv", ".json", ".log", ".xml", ".yaml", ".yml", ".rst":
		return KindText
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return KindDOCX
	case looksHTML(head):
		return KindHTML
	}
	return KindText
}

func looksHTML(head []byte) bool {
	s := strings.ToLower(strings.TrimSpace(string(head)))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html") || strings.Contains(s, "<body")
}

// capText cuts s to max runes, at the last line break in the final tenth
// when there is one.
func capText(s string, max int) (string, bool) {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s, false
	}
	head, n := s, 0
	for i := range s {
		if n == max {
			head = s[:i]
			break
		}
		n++
	}
	if nl := strings.LastIndexByte(head, '\n'); nl > len(head)*9/10 {
		head = head[:nl+1]
	}
	return head, true
}
