package doctext

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// extractHTML renders an HTML document as text that keeps its shape:
// headings as "#" lines, list items as "- " or "1. ", paragraphs and
// blocks on their own lines, preformatted text as it is. Scripts, styles,
// templates and the head are dropped.
func extractHTML(data []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	w := &htmlWriter{}
	w.walk(doc, 0)
	w.flush()
	return strings.TrimSpace(w.out.String()) + "\n", nil
}

type htmlWriter struct {
	out  strings.Builder
	line strings.Builder
	pre  int
}

// flush ends the current line (if it holds anything).
func (w *htmlWriter) flush() {
	// Leading blanks are the list indentation or preformatted text.
	s := strings.TrimRight(w.line.String(), " \t\r\n")
	w.line.Reset()
	if strings.TrimSpace(s) != "" {
		w.out.WriteString(s + "\n")
	}
}

// blank ends the line and leaves one empty line, for block boundaries.
func (w *htmlWriter) blank() {
	w.flush()
	if o := w.out.String(); o != "" && !strings.HasSuffix(o, "\n\n") {
		w.out.WriteByte('\n')
	}
}

func (w *htmlWriter) text(s string) {
	if w.pre > 0 {
		w.line.WriteString(s)
		return
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		if s != "" && w.line.Len() > 0 {
			w.line.WriteByte(' ')
		}
		return
	}
	if w.line.Len() > 0 && startsSpace(s) {
		w.line.WriteByte(' ')
	}
	w.line.WriteString(strings.Join(f, " "))
	if endsSpace(s) {
		w.line.WriteByte(' ')
	}
}

func startsSpace(s string) bool { return s != "" && strings.TrimLeft(s, " \t\r\n") != s }
func endsSpace(s string) bool   { return s != "" && strings.TrimRight(s, " \t\r\n") != s }

// maxDepth stops a hostile, deeply nested page from exhausting the stack.
const maxDepth = 512

func (w *htmlWriter) walk(n *html.Node, depth int) {
	if depth > maxDepth {
		return
	}
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		if w.element(n, depth) {
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, depth+1)
	}
}

// element writes n itself; true means its children were handled too.
func (w *htmlWriter) element(n *html.Node, depth int) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Svg, atom.Iframe:
		return true
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.blank()
		w.line.WriteString(strings.Repeat("#", int(n.Data[1]-'0')) + " ")
		w.children(n, depth)
		w.blank()
		return true
	case atom.Li:
		w.flush()
		w.line.WriteString(strings.Repeat("  ", listDepth(n)) + listMark(n))
		w.children(n, depth)
		w.flush()
		return true
	case atom.Pre:
		w.blank()
		w.pre++
		w.children(n, depth)
		w.pre--
		w.blank()
		return true
	case atom.Br:
		w.flush()
		return true
	case atom.Td, atom.Th:
		w.children(n, depth)
		w.line.WriteString(" | ")
		return true
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Blockquote, atom.Table,
		atom.Header, atom.Footer, atom.Main, atom.Nav, atom.Aside, atom.Figure, atom.Hr, atom.Dl:
		w.blank()
		w.children(n, depth)
		w.blank()
		return true
	case atom.Ul, atom.Ol:
		if listDepth(n) > 0 { // a nested list stays inside its item
			w.flush()
			w.children(n, depth)
			w.flush()
		} else {
			w.blank()
			w.children(n, depth)
			w.blank()
		}
		return true
	case atom.Tr, atom.Dt, atom.Dd, atom.Figcaption:
		w.flush()
		w.children(n, depth)
		w.flush()
		return true
	}
	return false
}

func (w *htmlWriter) children(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, depth+1)
	}
}

// listMark is "1. " style for an ordered list's items, "- " otherwise.
func listMark(li *html.Node) string {
	p := li.Parent
	if p == nil || p.DataAtom != atom.Ol {
		return "- "
	}
	i := 1
	for s := li.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode && s.DataAtom == atom.Li {
			i++
		}
	}
	return fmt.Sprintf("%d. ", i)
}

// listDepth counts the lists around n's own list, for indentation.
func listDepth(n *html.Node) int {
	d := 0
	if n.DataAtom == atom.Ul || n.DataAtom == atom.Ol {
		d++
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Ul || p.DataAtom == atom.Ol {
			d++
		}
	}
	return max(d-1, 0)
}
