package scrub

import "strings"

const (
	netrcPassword = "password"
	// netrcMaxToken bounds the login or host read back from "password"; longer is not netrc.
	netrcMaxToken = 256
	// netrcEntryWindow is how far before the login "machine" or "default" must appear: an
	// entry spread over a few lines still counts, a stray "login … password …" in prose not.
	netrcEntryWindow = 512
)

// findNetrcPasswords redacts the password of .netrc (and _netrc, .authinfo) entries, where
// keywords and values are separated by blanks only: "machine host login user password secret",
// on one line or over several. The word "password" in prose stays, as does its neighbour,
// unless it follows "machine <host>" or "login|account <name>" inside an entry.
func findNetrcPasswords(text string, out []span) []span {
	const anchor = "word" // 'p' is common, 'w' is not; see tokenFamily
	for i := 0; ; {
		k := strings.Index(text[i:], anchor)
		if k < 0 {
			return out
		}
		kw := i + k + len(anchor) - len(netrcPassword)
		i += k + len(anchor)
		if kw < 0 || !strings.HasPrefix(text[kw:], netrcPassword) || kw > 0 && !blank[text[kw-1]] {
			continue
		}
		start := i
		for start < len(text) && (text[start] == ' ' || text[start] == '\t') {
			start++
		}
		// A value starting with = or : is key/value syntax (".pypirc: password = …"), which
		// findKeyValues handles.
		if start == i || start == len(text) || blank[text[start]] || text[start] == '=' || text[start] == ':' {
			continue
		}
		if !inNetrcEntry(text, kw) {
			continue
		}
		end := runUntil(text, start, blank)
		out = append(out, span{start, end})
		i = end
	}
}

// inNetrcEntry reports whether the "password" keyword at kw follows "machine <host>", or
// "login <name>" / "account <name>" with "machine" or "default" shortly before. Every read
// back is capped, so a run of candidates costs no more than the text.
func inNetrcEntry(text string, kw int) bool {
	valueEnd := skipBack(text, kw, blank, netrcMaxToken)
	valueStart := skipBack(text, valueEnd, nonBlank, netrcMaxToken+1)
	if valueStart == valueEnd || valueEnd-valueStart > netrcMaxToken {
		return false
	}
	keyEnd := skipBack(text, valueStart, blank, netrcMaxToken)
	keyStart := skipBack(text, keyEnd, nonBlank, len("account")+1)
	switch text[keyStart:keyEnd] {
	case "machine":
		return true
	case "login", "account":
		before := text[max(0, keyStart-netrcEntryWindow):keyStart]
		return strings.Contains(before, "machine") || strings.Contains(before, "default")
	}
	return false
}

// skipBack returns the start of the run of class bytes ending at end, reading at most limit.
func skipBack(text string, end int, class *byteClass, limit int) int {
	i := end
	for i > 0 && end-i < limit && class[text[i-1]] {
		i--
	}
	return i
}
