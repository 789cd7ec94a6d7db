package tokens

import (
	"bytes"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzScan checks what the embedder relies on: words are non-empty, valid
// UTF-8, lower-case, bounded, made of word characters only, and a word's
// parts put together give the word back.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"Hello, World!", "getUserName(user_id)", "HTTPServer utf8", "don't can't o'clock", "Café ΑΒΓ日本語", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var s Scanner
		var whole, joined []byte
		check := func() {
			if joined != nil && !bytes.Equal(joined, whole) {
				t.Fatalf("parts %q do not make %q", joined, whole)
			}
		}
		s.Scan(text, func(word []byte, kind Kind) {
			if len(word) == 0 || len(word) > maxWordBytes || !utf8.Valid(word) {
				t.Fatalf("bad word %q", word)
			}
			for _, r := range string(word) {
				if r != '\'' && !isWordRune(r) || r == '_' {
					t.Fatalf("word %q holds %q", word, r)
				}
				if unicode.IsUpper(r) && unicode.ToLower(r) != r {
					t.Fatalf("word %q is not lower-case", word)
				}
			}
			if kind == Whole {
				check()
				whole, joined = append(whole[:0], word...), nil
				return
			}
			joined = append(joined, word...)
		})
		check()
	})
}
