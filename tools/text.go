package tools

import (
	"strings"
	"unicode/utf8"
)

// Clip cuts s to at most n bytes, never inside a UTF-8 character, and
// marks the cut with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// OneLine collapses s's whitespace (newlines included) to single spaces
// and clips it to n bytes: a summary for one line of a list or log.
func OneLine(s string, n int) string {
	return Clip(strings.Join(strings.Fields(s), " "), n)
}
