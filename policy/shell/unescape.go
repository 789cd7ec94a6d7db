package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeBare removes backslash quoting from an unquoted literal (so r\m is
// rm) and reports whether unescaped glob characters remain.
func unescapeBare(v string) (string, bool) {
	if !strings.ContainsAny(v, `\*?[`) {
		return v, false
	}
	var b strings.Builder
	glob, open := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case c == '*' || c == '?' || (c == ']' && open):
			glob = true
			b.WriteByte(c)
		case c == '[': // only a glob with a closing ] ([ alone is test)
			open = true
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), glob
}

// unescapeQuoted handles a literal inside double quotes or a heredoc body,
// where a backslash only escapes $ ` \ newline (and " outside heredocs).
func unescapeQuoted(v string, hdoc bool) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		switch n := v[i+1]; {
		case n == '\n':
			i++
		case n == '$' || n == '`' || n == '\\' || (n == '"' && !hdoc):
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ansiC decodes the body of a $'…' string as bash does, so $'\x72\x6d' is rm.
func ansiC(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 >= len(v) {
			b.WriteByte(v[i])
			continue
		}
		i++
		switch c := v[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			maxLen := 2
			switch c {
			case 'u':
				maxLen = 4
			case 'U':
				maxLen = 8
			}
			j := i + 1
			for j < len(v) && j-i-1 < maxLen && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			n, _ := strconv.ParseUint(v[i+1:j], 16, 32) // at most 8 hex digits: fits
			if c == 'x' {
				b.WriteByte(byte(n & 0xff))
			} else if r := rune(int32(n & 0x7fffffff)); utf8.ValidRune(r) { //nolint:gosec // masked to 31 bits
				b.WriteRune(r)
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j-i < 3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 16)
			b.WriteByte(byte(n & 0xff)) // like the shell, \777 wraps to one byte
			i = j - 1
		default:
			// \\ \' \" \? stand for themselves; unknown escapes keep the backslash.
			if c != '\\' && c != '\'' && c != '"' && c != '?' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
