package llm

import (
	"encoding/json"
	"strings"
)

// RepairArguments fixes damage small models commonly do to JSON arguments when the intent is
// unambiguous: code fences around it, trailing commas, single-quoted keys and strings, unquoted
// keys, Python True/False/None, and missing closing brackets at the very end. It returns ok=false
// whenever it cannot be sure (a truncated string, a dangling key, trailing prose, mismatched
// brackets), so the caller can report the error to the model instead of guessing.
func RepairArguments(raw string) (fixed string, ok bool) {
	s := stripFence(strings.TrimSpace(raw))
	if s == "" {
		return "", false
	}
	if json.Valid([]byte(s)) {
		return s, true
	}
	out, ok := rewriteJSONish(s)
	if !ok || !json.Valid([]byte(out)) {
		return "", false
	}
	return out, true
}

// stripFence removes a surrounding ``` or ```json fence.
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	body := strings.TrimPrefix(s, "```")
	if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(body[:nl], "{[") {
		body = body[nl+1:] // drop the language tag line
	}
	body = strings.TrimSpace(body)
	return strings.TrimSpace(strings.TrimSuffix(body, "```"))
}

// rewriteJSONish walks s once, normalising tokens into strict JSON and tracking open brackets.
func rewriteJSONish(s string) (string, bool) {
	var b strings.Builder
	var stack []byte // expected closers
	done := false    // the top-level value is complete; only whitespace may follow
	for i := 0; i < len(s); i++ {
		c := s[i]
		if done && !isSpace(c) {
			return "", false
		}
		switch {
		case isSpace(c):
			b.WriteByte(c)
		case c == '{' || c == '[':
			stack = append(stack, map[byte]byte{'{': '}', '[': ']'}[c])
			b.WriteByte(c)
		case c == '}' || c == ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return "", false
			}
			stack = stack[:len(stack)-1]
			trimTrailingComma(&b)
			b.WriteByte(c)
			done = len(stack) == 0
		case c == '"' || c == '\'':
			str, n, ok := readString(s[i:], c)
			if !ok {
				return "", false // a string cut off mid-way: its end is anyone's guess
			}
			b.WriteString(str)
			i += n - 1
			done = len(stack) == 0
		case c == ',' || c == ':':
			b.WriteByte(c)
		case isWordStart(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			word := s[i:j]
			switch {
			case word == "True" || word == "true":
				b.WriteString("true")
			case word == "False" || word == "false":
				b.WriteString("false")
			case word == "None" || word == "null":
				b.WriteString("null")
			case isNumber(word):
				b.WriteString(word)
			case nextNonSpace(s, j) == ':' && len(stack) > 0 && stack[len(stack)-1] == '}':
				q, _ := json.Marshal(word) // an unquoted key is unambiguous before ':'
				b.Write(q)
			default:
				return "", false
			}
			i = j - 1
			done = len(stack) == 0
		default:
			return "", false
		}
	}
	if len(stack) == 0 {
		return b.String(), true
	}
	// Truncated at the end: close what is open, unless a value is visibly missing.
	trimTrailingComma(&b)
	if t := strings.TrimRight(b.String(), " \t\r\n"); strings.HasSuffix(t, ":") {
		return "", false
	}
	for i := len(stack) - 1; i >= 0; i-- {
		b.WriteByte(stack[i])
	}
	return b.String(), true
}

// readString reads a quoted string starting at s[0] and returns it re-encoded as a JSON string
// and the number of bytes consumed.
func readString(s string, quote byte) (string, int, bool) {
	var val strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote:
			if quote == '"' {
				return s[:i+1], i + 1, true // already JSON; json.Valid judges its escapes later
			}
			q, err := json.Marshal(val.String())
			return string(q), i + 1, err == nil
		case c == '\\' && i+1 < len(s):
			i++
			if quote == '\'' && (s[i] == '\'' || s[i] == '"') {
				val.WriteByte(s[i])
				continue
			}
			if quote == '\'' {
				// Keep other escapes as JSON escapes by decoding the pair.
				var dec string
				if json.Unmarshal([]byte(`"\`+string(s[i])+`"`), &dec) != nil {
					return "", 0, false
				}
				val.WriteString(dec)
				continue
			}
		case c == '\n' && quote == '\'':
			return "", 0, false
		default:
			val.WriteByte(c)
		}
	}
	return "", 0, false
}

func trimTrailingComma(b *strings.Builder) {
	t := strings.TrimRight(b.String(), " \t\r\n")
	if strings.HasSuffix(t, ",") {
		t = t[:len(t)-1]
		b.Reset()
		b.WriteString(t)
	}
}

func nextNonSpace(s string, i int) byte {
	for ; i < len(s); i++ {
		if !isSpace(s[i]) {
			return s[i]
		}
	}
	return 0
}

func isNumber(w string) bool {
	var f json.Number
	return json.Unmarshal([]byte(w), &f) == nil
}

func isSpace(c byte) bool     { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isWordStart(c byte) bool { return c == '-' || c == '_' || c >= '0' && c <= '9' || isLetter(c) }
func isWordByte(c byte) bool  { return isWordStart(c) || c == '.' || c == '+' }
func isLetter(c byte) bool    { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
