package tools

import (
	"strings"
	"unicode/utf8"
)

// CutUTF8 cuts s to at most n bytes, never inside a UTF-8 character.
func CutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Clip is CutUTF8 with the cut marked by "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return CutUTF8(s, n) + "…"
}

// FirstLine is s's first line, clipped to n bytes.
func FirstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	return Clip(s, n)
}

// OneLine collapses s's whitespace (newlines included) to single spaces
// and clips it to n bytes: a summary for one line of a list or log.
func OneLine(s string, n int) string {
	return Clip(strings.Join(strings.Fields(s), " "), n)
}
