package web

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"codeberg.org/readeck/go-readability/v2"
	"codeberg.org/readeck/go-readability/v2/render"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Output formats of web_fetch.
const (
	formatMarkdown = "markdown"
	formatText     = "text"
	formatHTML     = "html"
)

// extracted is a page's readable content.
type extracted struct {
	Title   string
	Content string
}

var blankLines = regexp.MustCompile(`\n{3,}`)

// extractHTML drops hidden text, picks the selector's elements or the main
// content (readability; the whole body when it finds none) and renders it
// in the wanted format.
func extractHTML(body []byte, contentType string, pageURL *url.URL, selector, format string) (extracted, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		r = bytes.NewReader(body)
	}
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return extracted{}, fmt.Errorf("parse HTML: %w", err)
	}
	title := strings.TrimSpace(doc.Find("title").First().Text())
	dropHidden(doc)

	var nodes []*html.Node
	if selector != "" {
		sel, err := safeFind(doc, selector)
		if err != nil {
			return extracted{}, err
		}
		if sel.Length() == 0 {
			return extracted{}, fmt.Errorf("selector %q matched nothing on the page", selector)
		}
		nodes = sel.Nodes
	} else {
		parser := readability.NewParser()
		article, err := parser.ParseDocument(doc.Get(0), pageURL)
		if err == nil && article.Node != nil && strings.TrimSpace(render.InnerText(article.Node)) != "" {
			nodes = []*html.Node{article.Node}
			if t := strings.TrimSpace(article.Title()); t != "" {
				title = t
			}
		} else if b := doc.Find("body"); b.Length() > 0 {
			nodes = b.Nodes
		} else {
			nodes = doc.Nodes
		}
	}
	content, err := renderNodes(nodes, pageURL, format)
	if err != nil {
		return extracted{}, err
	}
	return extracted{Title: title, Content: content}, nil
}

// safeFind runs a CSS selector; goquery silently matches nothing for a
// bad one, so it is compiled first to tell the model what to fix.
func safeFind(doc *goquery.Document, selector string) (*goquery.Selection, error) {
	m, err := cascadia.Compile(selector)
	if err != nil {
		return nil, fmt.Errorf("invalid CSS selector %q: %v", selector, err)
	}
	return doc.FindMatcher(m), nil
}

func renderNodes(nodes []*html.Node, pageURL *url.URL, format string) (string, error) {
	var parts []string
	for _, n := range nodes {
		switch format {
		case formatHTML:
			var b bytes.Buffer
			if err := html.Render(&b, n); err != nil {
				return "", fmt.Errorf("render HTML: %w", err)
			}
			parts = append(parts, b.String())
		case formatText:
			parts = append(parts, strings.TrimSpace(render.InnerText(n)))
		default:
			opts := []converter.ConvertOptionFunc{}
			if pageURL != nil {
				opts = append(opts, converter.WithDomain(pageURL.Scheme+"://"+pageURL.Host))
			}
			md, err := htmltomarkdown.ConvertNode(n, opts...)
			if err != nil {
				return "", fmt.Errorf("convert to Markdown: %w", err)
			}
			parts = append(parts, strings.TrimSpace(string(md)))
		}
	}
	return blankLines.ReplaceAllString(strings.Join(parts, "\n\n"), "\n\n"), nil
}
