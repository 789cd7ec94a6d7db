package doctext

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// extractDOCX reads word/document.xml from the zip a .docx is: paragraphs
// become lines, headings get "#" marks, list items "- ", table cells are
// separated by " | ".
func extractDOCX(data []byte) (string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("%w: not a DOCX zip (%v)", ErrCorrupt, err)
	}
	var doc *zip.File
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml":
			doc = f
		case "EncryptionInfo", "EncryptedPackage":
			return "", ErrEncrypted
		}
	}
	if doc == nil {
		return "", fmt.Errorf("%w: no word/document.xml in the zip (not a Word document)", ErrCorrupt)
	}
	if doc.UncompressedSize64 > maxUnzipped {
		return "", fmt.Errorf("%w: word/document.xml inflates to %d bytes (limit %d)", ErrTooLarge, doc.UncompressedSize64, maxUnzipped)
	}
	rc, err := doc.Open()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer func() { _ = rc.Close() }()
	// The header's size can lie; the limit holds whatever it says.
	lr := &io.LimitedReader{R: rc, N: maxUnzipped + 1}
	text, err := docxText(lr)
	if lr.N <= 0 {
		return "", fmt.Errorf("%w: word/document.xml inflates past %d bytes", ErrTooLarge, maxUnzipped)
	}
	if err != nil {
		return "", fmt.Errorf("%w: word/document.xml: %v", ErrCorrupt, err)
	}
	return text, nil
}

// docxText walks WordprocessingML tokens; only the elements that carry
// text or structure matter, the rest is skipped.
func docxText(r io.Reader) (string, error) {
	dec := xml.NewDecoder(r)
	var (
		out, para strings.Builder
		prefix    string
		inText    bool
		cells     []string
	)
	endPara := func() {
		line := strings.TrimSpace(para.String())
		para.Reset()
		if len(cells) > 0 {
			cells[len(cells)-1] += joinNonEmpty(cells[len(cells)-1], line)
		} else if line != "" {
			out.WriteString(prefix + line + "\n")
		}
		prefix = ""
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inText = true
			case "tab":
				para.WriteByte('\t')
			case "br", "cr":
				para.WriteByte('\n')
			case "pStyle":
				prefix = headingPrefix(attr(t, "val"))
			case "numPr":
				if prefix == "" {
					prefix = "- "
				}
			case "tr":
				cells = []string{}
			case "tc":
				if cells != nil {
					cells = append(cells, "")
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				endPara()
			case "tr":
				if cells != nil {
					out.WriteString("| " + strings.Join(cells, " | ") + " |\n")
				}
				cells = nil
			case "tbl":
				out.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				para.Write(t)
			}
		}
	}
	return strings.TrimSpace(out.String()) + "\n", nil
}

func joinNonEmpty(have, add string) string {
	if have != "" && add != "" {
		return " " + add
	}
	return add
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// headingPrefix maps Word's built-in styles "Heading1".."Heading6" and
// "Title" to Markdown heading marks.
func headingPrefix(style string) string {
	s := strings.ToLower(style)
	switch {
	case s == "title":
		return "# "
	case strings.HasPrefix(s, "heading") && len(s) == len("heading1") && s[7] >= '1' && s[7] <= '6':
		return strings.Repeat("#", int(s[7]-'0')) + " "
	}
	return ""
}
