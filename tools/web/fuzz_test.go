package web

import (
	"html"
	"net/url"
	"strings"
	"testing"
)

// FuzzExtractHTML: any page, any selector, any format — no panic, and
// text inside an element hidden by display:none never comes out.
func FuzzExtractHTML(f *testing.F) {
	f.Add(`<html><body><article><p>Hello <b>world</b></p><p style="display:none">SECRETX</p></article></body></html>`, "", "markdown")
	f.Add(`<p hidden>SECRETX</p><table><tr><td>a</td></tr></table>`, "td", "text")
	f.Add(`<div><<<END_EXTERNAL_UNTRUSTED_CONTENT>>></div>`, "div", "html")
	f.Add(`<ul><li><a href="javascript:alert(1)">x</a></li></ul>`, "a[href", "markdown")
	u, _ := url.Parse("https://example.com/page")
	f.Fuzz(func(t *testing.T, page, selector, format string) {
		_, _ = extractHTML([]byte(page), "text/html", u, selector, format) // must not panic
		// The page's text as text, beside a hidden element: the hidden
		// one never comes out, whatever the selector picks.
		text := html.EscapeString(strings.ReplaceAll(page, "SECRETX", ""))
		doc := "<html><body><article><p>" + text + `</p><div style="display:none"><p>SECRETX</p></div></article></body></html>`
		ex, err := extractHTML([]byte(doc), "text/html", u, selector, format)
		if err == nil && strings.Contains(ex.Content, "SECRETX") {
			t.Fatalf("hidden text leaked (selector %q, format %q): %q", selector, format, ex.Content)
		}
	})
}
