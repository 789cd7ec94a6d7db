package doctext

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/ledongthuc/pdf"
)

// The PDF library follows links inside the file (cross-reference /Prev
// chains, the page tree's /Kids, a page's /Parent chain) without bounds, so
// a small hostile file that loops would hang it for ever. These checks walk
// the same links first, bounded, and refuse a file whose links loop.
const (
	maxXrefSections = 128
	maxTreeDepth    = 64
	// maxTreeNodes bounds the page tree walk (a tree whose nodes share
	// children can be exponentially large without any loop).
	maxTreeNodes = 4 * maxPages
)

var errLoop = fmt.Errorf("%w: its internal links loop", ErrCorrupt)

// checkXrefChain follows startxref and each section's /Prev as the library
// will, refusing a chain that revisits a section or is implausibly long.
func checkXrefChain(data []byte) error {
	tail := data[max(0, len(data)-1024):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return nil // the library refuses the file itself
	}
	off, ok := leadingInt(tail[i+len("startxref"):])
	seen := map[int64]bool{}
	for ok && off >= 0 && off < int64(len(data)) {
		if seen[off] {
			return fmt.Errorf("%w (cross-reference section at %d is reached twice)", errLoop, off)
		}
		if len(seen) >= maxXrefSections {
			return fmt.Errorf("%w: more than %d cross-reference sections", ErrCorrupt, maxXrefSections)
		}
		seen[off] = true
		dict := sectionDict(data[off:])
		p := bytes.Index(dict, []byte("/Prev"))
		if p < 0 {
			return nil
		}
		off, ok = leadingInt(dict[p+len("/Prev"):])
	}
	return nil
}

// sectionDict is the part of a cross-reference section that holds its
// dictionary: the trailer after an xref table, or an xref stream object's
// dictionary (up to its stream data).
func sectionDict(sec []byte) []byte {
	if bytes.HasPrefix(bytes.TrimLeft(sec, " \t\r\n\f\x00"), []byte("xref")) {
		t := bytes.Index(sec, []byte("trailer"))
		if t < 0 {
			return nil
		}
		sec = sec[t:]
	}
	end := len(sec)
	for _, stop := range []string{"stream", "startxref", "endobj"} {
		if j := bytes.Index(sec[:end], []byte(stop)); j >= 0 {
			end = j
		}
	}
	return sec[:end]
}

// leadingInt parses the integer after optional white space.
func leadingInt(b []byte) (int64, bool) {
	b = bytes.TrimLeft(b, " \t\r\n\f\x00")
	n := 0
	for n < len(b) && n < 19 && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	v, err := strconv.ParseInt(string(b[:n]), 10, 64)
	return v, err == nil
}

// collectPages walks the page tree in order, bounded in depth and size,
// and checks each page's /Parent chain ends (the library follows it to
// find inherited resources).
func collectPages(r *pdf.Reader) ([]pdf.Page, error) {
	var out []pdf.Page
	nodes := 0
	var walk func(v pdf.Value, depth int) error
	walk = func(v pdf.Value, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("%w (the page tree is deeper than %d levels)", errLoop, maxTreeDepth)
		}
		kids := v.Key("Kids")
		for i := 0; i < kids.Len(); i++ {
			if nodes++; nodes > maxTreeNodes {
				return fmt.Errorf("%w: the page tree has over %d nodes", ErrCorrupt, maxTreeNodes)
			}
			kid := kids.Index(i)
			switch kid.Key("Type").Name() {
			case "Pages":
				if err := walk(kid, depth+1); err != nil {
					return err
				}
			case "Page":
				if !parentsEnd(kid) {
					return fmt.Errorf("%w (a page's /Parent chain is longer than %d)", errLoop, maxTreeDepth)
				}
				out = append(out, pdf.Page{V: kid})
			}
		}
		return nil
	}
	if err := walk(r.Trailer().Key("Root").Key("Pages"), 0); err != nil {
		return nil, err
	}
	return out, nil
}

func parentsEnd(v pdf.Value) bool {
	for range maxTreeDepth {
		if v = v.Key("Parent"); v.IsNull() {
			return true
		}
	}
	return false
}

// maxNesting bounds how deeply arrays and dictionaries may nest: the PDF
// library parses them recursively, and a few megabytes of "[" would
// overflow the stack, which kills the whole process (it cannot be
// recovered). Real files nest a handful of levels.
const maxNesting = 1000

// maxStreamBytes caps one decoded page content or ToUnicode stream (a
// small compressed stream can inflate to gigabytes).
const maxStreamBytes = 64 << 20

// checkNesting scans PDF syntax (the file, or a decoded content stream)
// for array and dictionary nesting deeper than maxNesting, skipping
// comments, strings and stream data as the parser does.
func checkNesting(data []byte) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '%':
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
		case '(':
			i = skipString(data, i)
		case '[':
			depth++
		case ']':
			depth = max(depth-1, 0)
		case '<':
			if i+1 < len(data) && data[i+1] == '<' {
				depth++
				i++
			}
		case '>':
			if i+1 < len(data) && data[i+1] == '>' {
				depth = max(depth-1, 0)
				i++
			}
		case 's':
			if bytes.HasPrefix(data[i:], []byte("stream")) && (i == 0 || isSpace(data[i-1])) {
				j := bytes.Index(data[i:], []byte("endstream"))
				if j < 0 {
					return nil
				}
				i += j + len("endstream") - 1
			}
		}
		if depth > maxNesting {
			return fmt.Errorf("%w: arrays or dictionaries nest deeper than %d levels", ErrCorrupt, maxNesting)
		}
	}
	return nil
}

// skipString returns the index of the ")" closing the literal string
// that opens at i (balanced parentheses, backslash escapes).
func skipString(data []byte, i int) int {
	n := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '(':
			n++
		case ')':
			if n--; n == 0 {
				return i
			}
		}
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0
}

// checkPageStreams decodes what GetPlainText will interpret on page p (its
// content streams and its fonts' ToUnicode maps), refusing one that
// inflates past maxStreamBytes or nests too deeply.
func checkPageStreams(p pdf.Page) error {
	streams := []pdf.Value{}
	contents := p.V.Key("Contents")
	if contents.Kind() == pdf.Array {
		for i := 0; i < contents.Len(); i++ {
			streams = append(streams, contents.Index(i))
		}
	} else {
		streams = append(streams, contents)
	}
	for _, name := range p.Fonts() {
		streams = append(streams, p.Font(name).V.Key("ToUnicode"))
	}
	for _, s := range streams {
		if s.Kind() != pdf.Stream {
			continue
		}
		rc := s.Reader()
		data, err := io.ReadAll(io.LimitReader(rc, maxStreamBytes+1))
		_ = rc.Close() // an in-memory reader
		if err != nil {
			return fmt.Errorf("%w: a page stream does not decode: %v", ErrCorrupt, err)
		}
		if len(data) > maxStreamBytes {
			return fmt.Errorf("%w: a page stream inflates past %d MB", ErrTooLarge, maxStreamBytes>>20)
		}
		if err := checkNesting(data); err != nil {
			return err
		}
	}
	return nil
}
