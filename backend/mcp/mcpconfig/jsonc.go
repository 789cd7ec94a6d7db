package mcpconfig

import "bytes"

// stripJSONC blanks out what JSONC allows and JSON does not: a leading UTF-8
// byte order mark (Windows editors write one), // and /* */ comments, and
// trailing commas. VS Code's mcp.json is JSONC and its documented examples
// carry comments, so strict JSON would refuse the very files users copy.
//
// It blanks rather than deletes, keeping every byte offset (and every newline,
// so line numbers) the same, so JSON errors still point into the user's text.
// Valid JSON comes back unchanged. An unterminated /* is left alone for the
// JSON decoder to report.
func stripJSONC(data []byte) []byte {
	out := bytes.Clone(data)
	if bytes.HasPrefix(out, []byte("\xef\xbb\xbf")) {
		copy(out, "   ")
	}
	blankComments(out)
	blankTrailingCommas(out)
	return out
}

func blankComments(b []byte) {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			continue
		}
		if c != '/' || i+1 >= len(b) {
			continue
		}
		switch b[i+1] {
		case '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case '*':
			n := bytes.Index(b[i+2:], []byte("*/"))
			if n < 0 {
				return
			}
			end := i + 2 + n + 2
			for ; i < end; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			i-- // the loop's i++ moves to end
		}
	}
}

// blankTrailingCommas removes a comma that closes an object or array, unless
// nothing valid precedes it (`[,]` stays an error).
func blankTrailingCommas(b []byte) {
	inString := false
	var prev byte // last significant byte outside strings
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			inString = true
		case ',':
			if prev != 0 && prev != '{' && prev != '[' && prev != ',' && closesNext(b[i+1:]) {
				b[i] = ' '
				continue // prev stays the value before the comma
			}
		}
		prev = c
	}
}

// closesNext reports whether the next significant byte of b ends an object or array.
func closesNext(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '}', ']':
			return true
		}
		return false
	}
	return false
}
