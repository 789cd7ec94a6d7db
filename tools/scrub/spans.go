package scrub

import (
	"cmp"
	"slices"
	"strings"
)

// span is a half-open byte range [start, end) of text to redact.
type span struct{ start, end int }

// mergeSpans sorts spans and joins those that overlap or touch, so adjacent secrets become one
// marker. It reuses the slice's backing array.
func mergeSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// absorbMarkers widens spans that cover part of an existing Redacted marker to cover all of it.
// Otherwise a dynamic value such as "DACTED]x" would cut a marker in half, leave "[RE" as plain
// text and grow the output on every pass instead of settling.
func absorbMarkers(text string, spans []span) []span {
	n := len(Redacted)
	for i := range spans {
		sp := &spans[i]
		// Markers overlapping sp start in [sp.start-n+1, sp.end); markers cannot overlap each
		// other, so one look around the original span finds them all.
		lo, hi := max(0, sp.start-n+1), min(len(text), sp.end+n-1)
		for j := lo; ; {
			k := strings.Index(text[j:hi], Redacted)
			if k < 0 {
				break
			}
			t := j + k
			sp.start, sp.end = min(sp.start, t), max(sp.end, t+n)
			j = t + n
		}
	}
	return mergeSpans(spans)
}

// findLiteral appends every occurrence of value, overlapping ones included ("abab" in "ababab"
// must leave no "ab" behind), joining runs as it goes so repetitive input stays cheap.
func findLiteral(text, value string, out []span) []span {
	base := len(out)
	for i := 0; ; {
		k := strings.Index(text[i:], value)
		if k < 0 {
			return out
		}
		sp := span{i + k, i + k + len(value)}
		if n := len(out); n > base && sp.start <= out[n-1].end {
			out[n-1].end = sp.end
		} else {
			out = append(out, sp)
		}
		i = sp.start + 1
	}
}

// byteClass is a set of bytes; table lookups keep the scanners' inner loops branch-light.
type byteClass [256]bool

// newClass builds a class from single bytes and a-z style ranges; a literal '-' goes last.
func newClass(spec string) *byteClass {
	var c byteClass
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for b := int(spec[i]); b <= int(spec[i+2]); b++ {
				c[b] = true
			}
			i += 2
			continue
		}
		c[spec[i]] = true
	}
	return &c
}

// complement returns the bytes not in c.
func complement(c *byteClass) *byteClass {
	var out byteClass
	for i := range out {
		out[i] = !c[i]
	}
	return &out
}

var (
	alnum      = newClass("0-9A-Za-z")
	upperAlnum = newClass("0-9A-Z")
	hexDigit   = newClass("0-9A-Fa-f")
	ident      = newClass("0-9A-Za-z_")
	skBody     = newClass("0-9A-Za-z_-")
	token68    = newClass("0-9A-Za-z._~+/=-") // RFC 7235 bearer credentials
	base64URL  = newClass("0-9A-Za-z_-")      // RFC 4648 §5, unpadded (JWT segments)
	slackBody  = newClass("0-9A-Za-z-")
	// webhookPath is a Slack webhook's path after /services/: T…/B…/secret.
	webhookPath = newClass("0-9A-Za-z/")
	awsSecret   = newClass("0-9A-Za-z/+")
	base64Std   = newClass("0-9A-Za-z+/=")
	headerName  = newClass("0-9A-Za-z-")
	blank       = newClass(" \t\r\n\v\f")
	nonBlank    = complement(blank)
	// awsGlue next to a 40-byte run makes it part of a longer identifier, not a secret key.
	awsGlue = newClass("_-")

	// urlStop ends a URL: nothing that quotes or delimits it in logs, JSON or markup.
	urlStop = newClass(" \t\r\n\v\f\"'`<>")
	// shellStop ends an unquoted NAME=value the way a shell does.
	shellStop = newClass(" \t\r\n\v\f\"'`")
	// fieldStop ends an unquoted key/value field in logs, query strings and JSON.
	fieldStop = newClass(" \t\r\n\v\f\"'`,;&)]}<>\\")
	// userinfoStop ends a key/value inside a URL's userinfo (scheme://token:value@host).
	userinfoStop = newClass(" \t\r\n\v\f\"'`,;&)]}<>\\@/?#")
	// keyGap may sit between a key and its separator: `"api_key": `, `\"token\":`, `token =`.
	keyGap = newClass(" \t\"'`\\")
)

// runWhile returns the end of the run of class bytes starting at i.
func runWhile(text string, i int, class *byteClass) int {
	for i < len(text) && class[text[i]] {
		i++
	}
	return i
}

// runUntil returns the index of the first stop byte at or after i, or len(text).
func runUntil(text string, i int, stops *byteClass) int {
	for i < len(text) && !stops[text[i]] {
		i++
	}
	return i
}
