package web

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// Text a human reading the page cannot see is where prompt injections
// hide; the model must not read what the user would not. Only inline
// styles and attributes are judged (no stylesheet is applied).
var (
	styleHidden = regexp.MustCompile(`(?i)(^|;)\s*(display\s*:\s*none|visibility\s*:\s*(hidden|collapse)|opacity\s*:\s*0(\.0+)?\s*(!important)?\s*(;|$)|font-size\s*:\s*0(px|em|rem|pt|%)?\s*(!important)?\s*(;|$))`)
	styleZero   = regexp.MustCompile(`(?i)(^|;)\s*(width|height|max-width|max-height)\s*:\s*0(px|em|rem|pt|%)?\s*(!important)?\s*(;|$)`)
	styleClip   = regexp.MustCompile(`(?i)clip\s*:\s*rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)|clip-path\s*:\s*inset\(\s*(50%|100%)`)
	// Far off-screen: absolute/fixed with a large negative offset, or
	// text pushed out of its box.
	stylePositioned = regexp.MustCompile(`(?i)position\s*:\s*(absolute|fixed)`)
	styleOffscreen  = regexp.MustCompile(`(?i)(^|;)\s*(left|top|right|bottom|margin-left|margin-top)\s*:\s*-\s*\d{3,}`)
	styleIndent     = regexp.MustCompile(`(?i)text-indent\s*:\s*-\s*\d{3,}`)
	styleTransform  = regexp.MustCompile(`(?i)transform\s*:\s*[^;]*(scale\(\s*0(\.0+)?\s*\)|translate[xy]?\(\s*-\s*\d{4,})`)
)

// cssRule is one top-level rule of a <style> block; @media and other
// at-rule blocks are skipped (they hide only on some screens).
var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cssAtBlock = regexp.MustCompile(`(?s)@[^{;]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}`)
	cssRule    = regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)
)

// screenReaderOnly are the usual class names of text kept for screen
// readers and clipped away from the screen.
const screenReaderOnly = ".sr-only, .visually-hidden, .screen-reader-text"

// dropHidden removes elements (and their text) that a human would not
// see, plus everything that is never shown: scripts, styles, templates.
func dropHidden(doc *goquery.Document) {
	doc.Find("style").Each(func(_ int, s *goquery.Selection) { dropStyledHidden(doc, s.Text()) })
	doc.Find(screenReaderOnly).Remove()
	doc.Find("script, style, noscript, template, iframe, object, embed, svg, canvas, head > meta, link, input[type=hidden]").Remove()
	doc.Find("[hidden], [aria-hidden=true], [aria-hidden=TRUE]").Remove()
	doc.Find("[style]").Each(func(_ int, s *goquery.Selection) {
		if hiddenStyle(s.AttrOr("style", "")) {
			s.Remove()
		}
	})
}

// hiddenStyle reports whether an inline style hides its element.
func hiddenStyle(style string) bool {
	style = strings.ReplaceAll(style, "\n", " ")
	switch {
	case styleHidden.MatchString(style), styleZero.MatchString(style), styleClip.MatchString(style),
		styleIndent.MatchString(style), styleTransform.MatchString(style):
		return true
	case stylePositioned.MatchString(style) && styleOffscreen.MatchString(style):
		return true
	}
	return false
}

// dropStyledHidden applies the hiding rules of a page's own <style>
// block: a class the page styles display:none hides its text as surely as
// an inline style does.
func dropStyledHidden(doc *goquery.Document, css string) {
	css = cssComment.ReplaceAllString(css, "")
	css = cssAtBlock.ReplaceAllString(css, "")
	for _, m := range cssRule.FindAllStringSubmatch(css, 200) {
		if !hiddenStyle(strings.TrimSpace(m[2])) {
			continue
		}
		sel, err := cascadia.Compile(strings.TrimSpace(m[1]))
		if err != nil {
			continue // pseudo-elements and selectors cascadia cannot read
		}
		doc.FindMatcher(sel).Remove()
	}
}
