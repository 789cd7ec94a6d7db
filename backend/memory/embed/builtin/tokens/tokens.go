// Package tokens splits text into the lower-cased words the builtin embedder
// looks up. It is Unicode-aware (letters, digits and combining marks of any
// script make words) and knows code: a word written in snake_case, camelCase
// or with acronyms and digits ("HTTPServer2") is also offered in parts, so
// "getUserID" is found as "get", "user", "id" when the whole word is not in
// the table.
package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind tells a whole word from one of its parts.
type Kind uint8

const (
	// Whole is a maximal run of word characters, lower-cased.
	Whole Kind = iota
	// Part is a piece of the preceding Whole word (split at underscores,
	// lower-to-upper case changes and letter/digit changes). Parts are only
	// emitted when a word has more than one; a consumer that found the whole
	// word skips them.
	Part
)

// Scanner splits text into words. Its buffer is reused between calls, so a
// Scanner is not safe for concurrent use; the zero value is ready.
type Scanner struct {
	word  []byte // the current word, lower-cased
	parts []span // part boundaries in word
}

type span struct{ from, to int }

// maxWordBytes bounds one word: longer runs (base64, minified code) carry no
// meaning the table knows and would only grow the buffer.
const maxWordBytes = 64

// Scan calls emit for every word of text in order. word is only valid during
// the call (it points into the Scanner's buffer).
func (s *Scanner) Scan(text string, emit func(word []byte, kind Kind)) {
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordStart(r) {
			i += size
			continue
		}
		end := wordEnd(text, i)
		s.emitWord(text[i:end], emit)
		i = end
	}
}

// isWordStart reports whether r begins a word. Underscores join words but do
// not start one; marks never start one.
func isWordStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '_'
}

func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' }

// wordEnd returns the end of the word starting at i. An apostrophe stays in
// the word only between two letters ("don't", "user's").
func wordEnd(text string, i int) int {
	prevLetter := false
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			prevLetter = unicode.IsLetter(r)
			i += size
		case isApostrophe(r) && prevLetter:
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsLetter(next) {
				return i
			}
			prevLetter = false
			i += size
		default:
			return i
		}
	}
	return i
}

// emitWord lower-cases raw (dropping clitics), then emits it and, when it
// splits, its parts.
func (s *Scanner) emitWord(raw string, emit func([]byte, Kind)) {
	stem, clitic := splitClitic(raw)
	s.word = s.word[:0]
	s.parts = s.parts[:0]
	partStart := 0
	var prev rune
	for i := 0; i < len(stem); {
		r, size := utf8.DecodeRuneInString(stem[i:])
		i += size
		if r == '_' || isApostrophe(r) {
			if r == '_' {
				s.closePart(partStart)
				partStart = len(s.word)
			} else {
				s.word = append(s.word, '\'')
			}
			prev = r
			continue
		}
		if len(s.word)+utf8.UTFMax > maxWordBytes {
			break
		}
		next, _ := utf8.DecodeRuneInString(stem[i:])
		if prev != 0 && boundary(prev, r, next) {
			s.closePart(partStart)
			partStart = len(s.word)
		}
		s.word = utf8.AppendRune(s.word, unicode.ToLower(r))
		prev = r
	}
	s.closePart(partStart)
	if len(s.word) > 0 {
		emit(s.word, Whole)
		if len(s.parts) > 1 {
			for _, p := range s.parts {
				emit(s.word[p.from:p.to], Part)
			}
		}
	}
	if clitic != "" {
		s.word = append(s.word[:0], clitic...)
		emit(s.word, Whole)
	}
}

func (s *Scanner) closePart(from int) {
	if len(s.word) > from {
		s.parts = append(s.parts, span{from, len(s.word)})
	}
}

// boundary reports a part boundary before r: lower→upper case ("userName"),
// the last capital of an acronym before a word ("HTTPServer") and
// letter↔digit ("utf8").
func boundary(prev, r, next rune) bool {
	switch {
	case prev == '_' || isApostrophe(prev):
		return false
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r) && unicode.IsLower(next):
		return true
	case unicode.IsLetter(prev) && unicode.IsDigit(r), unicode.IsDigit(prev) && unicode.IsLetter(r):
		return true
	}
	return false
}

// splitClitic drops English clitics the way the word table was built: "n't"
// becomes a "not" of its own; "'s", "'re", "'ve", "'ll", "'d" and "'m" are
// dropped. Other apostrophes ("o'clock") stay in the word.
func splitClitic(raw string) (stem, clitic string) {
	i := strings.LastIndexAny(raw, "'\u2019")
	if i <= 0 {
		return raw, ""
	}
	_, size := utf8.DecodeRuneInString(raw[i:])
	stem, suffix := raw[:i], strings.ToLower(raw[i+size:])
	switch suffix {
	case "t":
		if n := len(stem); n > 1 && (stem[n-1] == 'n' || stem[n-1] == 'N') {
			return nTStem(stem[:n-1]), "not"
		}
	case "s", "re", "ve", "ll", "d", "m":
		return stem, ""
	}
	return raw, ""
}

// nTStem repairs the stems "n't" leaves behind: "ca" (can't), "wo" (won't).
func nTStem(stem string) string {
	switch strings.ToLower(stem) {
	case "ca":
		return "can"
	case "wo":
		return "will"
	}
	return stem
}
