package scrub

import "strings"

const (
	pemEnd  = "-----END "
	pemDash = "-----"
	// pemMaxLabel bounds the label between the dashes ("ENCRYPTED PRIVATE KEY", "PGP PRIVATE
	// KEY BLOCK"), so a run of capitals after "-----BEGIN " is not scanned far.
	pemMaxLabel = 40
	// pemMinBody is the least base64 a block must hold to be key material; less is a marker
	// quoted in code or docs ("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END …").
	pemMinBody = 16
)

// findPEMKeys redacts PEM private key blocks (PKCS#1/#8, EC, OpenSSH, encrypted, PGP), markers
// included: "-----BEGIN … PRIVATE KEY-----", base64 lines, optional "Name: value" headers and
// the END line. The block may be embedded in a JSON string with \n escapes (a GCP service
// account key) or indented (YAML). A block cut short (head, a truncated log) loses what it has.
// Certificates and public keys are not secret and are left alone.
func findPEMKeys(text string, out []span) []span {
	const anchor = "BEGIN " // "-----" would stop at every dash; see tokenFamily
	for i := 0; ; {
		k := strings.Index(text[i:], anchor)
		if k < 0 {
			return out
		}
		start := i + k - len(pemDash)
		i += k + len(anchor)
		if start < 0 || !strings.HasPrefix(text[start:], pemDash) {
			continue
		}
		bodyStart, ok := privateKeyMarker(text, i)
		if !ok {
			continue
		}
		end, scanned, ok := pemBodyEnd(text, bodyStart)
		if ok {
			out = append(out, span{start, end})
		}
		// A marker inside the lines just read (a header line may hold one) would read a subset
		// of them, find no more key material and fail too, so they are read once.
		i = max(i, scanned)
	}
}

// privateKeyMarker reads the label after "-----BEGIN " at i and reports where the body starts
// if the label names a private key.
func privateKeyMarker(text string, i int) (bodyStart int, ok bool) {
	limit := min(len(text), i+pemMaxLabel)
	j := i
	for j < limit && (upperAlnum[text[j]] || text[j] == ' ') {
		j++
	}
	if !strings.HasPrefix(text[j:], pemDash) || !strings.Contains(text[i:j], "PRIVATE KEY") {
		return 0, false
	}
	return j + len(pemDash), true
}

// pemBodyEnd walks the lines after the BEGIN marker. It returns the end of the END marker, or,
// for a block cut short, the end of its last base64 line, and how far it read. Blank and
// header lines may sit between; any other line ends the block.
func pemBodyEnd(text string, i int) (end, scanned int, ok bool) {
	pos, ok := lineBreak(text, skipBlanks(text, i))
	if !ok {
		return 0, i, false // "-----BEGIN RSA PRIVATE KEY-----" quoted inside a line of code or prose
	}
	end, body := i, 0
	for pos < len(text) {
		start := skipBlanks(text, pos)
		if strings.HasPrefix(text[start:], pemEnd) {
			if body == 0 {
				return 0, pos, false // markers with nothing between: code or docs, not a key
			}
			end = pemEndMarker(text, start+len(pemEnd))
			return end, end, true
		}
		run := runWhile(text, start, base64Std)
		if next, ok := lineBreak(text, skipBlanks(text, run)); ok {
			if run > start {
				end, body = run, body+run-start
			}
			pos = next
			continue
		}
		if next, ok := pemHeader(text, start); ok {
			pos = next
			continue
		}
		break
	}
	return end, pos, body >= pemMinBody
}

// pemEndMarker returns the end of an END marker whose label starts at i.
func pemEndMarker(text string, i int) int {
	limit := min(len(text), i+pemMaxLabel)
	j := i
	for j < limit && (upperAlnum[text[j]] || text[j] == ' ') {
		j++
	}
	return j + commonPrefixLen(text[j:], pemDash)
}

func commonPrefixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// skipBlanks skips spaces, tabs and carriage returns (also as a JSON \r escape).
func skipBlanks(text string, i int) int {
	for i < len(text) {
		switch {
		case text[i] == ' ' || text[i] == '\t' || text[i] == '\r':
			i++
		case strings.HasPrefix(text[i:], `\r`):
			i += 2
		default:
			return i
		}
	}
	return i
}

// lineBreak reports whether a line ends at i (a newline, a JSON \n escape or the end of the
// text) and where the next line starts.
func lineBreak(text string, i int) (next int, ok bool) {
	switch {
	case i == len(text):
		return i, true
	case text[i] == '\n':
		return i + 1, true
	case strings.HasPrefix(text[i:], `\n`):
		return i + 2, true
	}
	return 0, false
}

// pemMaxHeader bounds an armor header line; real ones are short.
const pemMaxHeader = 256

// pemHeader reports whether an RFC 1421 / OpenPGP armor header line such as
// "Proc-Type: 4,ENCRYPTED" or "Version: GnuPG v2" starts at i, and where the next line starts.
func pemHeader(text string, i int) (next int, ok bool) {
	name := runWhile(text, i, headerName)
	if name == i || !strings.HasPrefix(text[name:], ": ") {
		return 0, false
	}
	limit := min(len(text), i+pemMaxHeader)
	for j := name + 2; j <= limit; j++ {
		if next, ok := lineBreak(text, j); ok {
			return next, true
		}
	}
	return 0, false
}
