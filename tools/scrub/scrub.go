// Package scrub redacts credentials from tool output before the model or the user sees it.
//
// Static detectors cover the shapes tools commonly print: provider API keys (OpenAI, Anthropic,
// Google, Stripe), GitHub and Slack tokens, Slack webhook URLs, AWS access key IDs and the secret
// access key printed beside one, JWTs, PEM private key blocks, key/value pairs such as
// password=… or "api_key": "…" (including the fields of credential files: ~/.aws/credentials,
// GCP service-account JSON, docker's config.json, kubeconfig, .npmrc, .pypirc), .netrc
// passwords, Authorization headers, passwords inside connection strings, secret-looking
// environment variables and long hex keys. AddValues registers literal secrets known only at
// run time. Every match becomes Redacted.
//
// Design notes:
//   - Detectors are hand-written scanners behind cheap literal pre-checks (strings.Index for a
//     prefix, a byte scan for ':' and '='), not regular expressions: Go's RE2 engine has no fast
//     path for case-insensitive keys or {64,} repetitions, and Warren scrubs every tool result.
//     strings.Index stops at every occurrence of the needle's first byte, so needles start with
//     a rare byte ("yJ" for a JWT's "eyJ", "BEGIN " for a PEM marker).
//   - Shapes that also occur in ordinary text need context: a bare 40-character AWS secret only
//     near an access key ID, a JWT only as two "eyJ" segments starting a token, a .netrc
//     password only after "machine" or "login", a PEM block only with base64 lines in it.
//   - All detectors run on the same text and their spans are unioned before anything is
//     replaced, so overlapping secrets (a key inside a hex run, a token inside a URL) vanish
//     together instead of leaving fragments.
//   - Key/value matches keep the key ("password=[REDACTED]") so output stays readable.
//     Connection strings keep scheme, user and host and lose only the password, for the same
//     reason: "postgres://app:[REDACTED]@db:5432/app" still tells the model which database failed.
//
// Known limits, chosen to keep ordinary output intact: an unquoted value ends at whitespace
// (and, outside NAME=value, at , ; & and closing brackets), so "password: two words" keeps
// "words"; a value opening with { or [ is structure and is skipped; SHA-256 digests are 64 hex
// digits and are redacted like keys; a bare AWS secret more than 256 bytes from its key ID, and
// a PEM key whose newlines became spaces, are not recognised by shape.
package scrub

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Redacted replaces every credential Scrub finds.
const Redacted = "[REDACTED]"

// MinValueLen is the shortest dynamic value AddValues keeps, in runes after trimming spaces:
// shorter values ("ok", "42", "dev") occur in ordinary text and redacting them would wreck it.
const MinValueLen = 4

// maxPasses bounds re-scanning. Redacting can expose a new match next to a fresh marker (a
// key=value whose value now runs past a redacted literal), so Scrub repeats until nothing
// changes; two passes are the norm and the bound keeps hostile input from looping long.
const maxPasses = 8

// Scrubber redacts credentials; the zero value is ready to use and it is safe for concurrent use.
type Scrubber struct {
	mu     sync.Mutex               // serialises AddValues/RemoveValues so no update is lost
	values atomic.Pointer[[]string] // immutable snapshot, so Scrub never takes a lock
}

// New returns a Scrubber with the static patterns and no dynamic values.
func New() *Scrubber { return &Scrubber{} }

// Scrub returns text with every credential replaced by Redacted; Scrub(Scrub(x)) == Scrub(x).
// A nil Scrubber still applies the static patterns, so a missing dependency fails safe.
func (s *Scrubber) Scrub(text string) string {
	values := s.snapshot()
	for range maxPasses {
		spans := findSpans(text, values)
		if spans == nil {
			break
		}
		text = replaceSpans(text, spans)
	}
	return text
}

// AddValues registers literal secrets to redact wherever they occur. Values shorter than
// MinValueLen runes (ignoring surrounding spaces) and duplicates are ignored.
func (s *Scrubber) AddValues(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := slices.Clone(s.snapshot())
	for _, v := range values {
		if utf8.RuneCountInString(strings.TrimSpace(v)) < MinValueLen || slices.Contains(next, v) {
			continue
		}
		next = append(next, v)
	}
	s.values.Store(&next)
}

// RemoveValues unregisters literal secrets added by AddValues; unknown values are ignored.
func (s *Scrubber) RemoveValues(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := slices.DeleteFunc(slices.Clone(s.snapshot()), func(v string) bool {
		return slices.Contains(values, v)
	})
	s.values.Store(&next)
}

// Clone returns an independent Scrubber with the same dynamic values.
func (s *Scrubber) Clone() *Scrubber {
	c := New()
	if p := s.valuesPtr(); p != nil {
		c.values.Store(p) // sharing is safe: snapshots are never modified in place
	}
	return c
}

func (s *Scrubber) valuesPtr() *[]string {
	if s == nil {
		return nil
	}
	return s.values.Load()
}

func (s *Scrubber) snapshot() []string {
	if p := s.valuesPtr(); p != nil {
		return *p
	}
	return nil
}

// detectors are the static patterns; each appends the spans it finds in text.
var detectors = [...]func(text string, out []span) []span{
	findSKKeys,
	findPrefixedTokens,
	findAWSKeys,
	findJWTs,
	findPEMKeys,
	findHexRuns,
	findURLPasswords,
	findKeyValues,
	findNetrcPasswords,
}

// findSpans returns the merged spans to redact, or nil when a pass would change nothing.
func findSpans(text string, values []string) []span {
	var raw []span
	for _, detect := range detectors {
		raw = detect(text, raw)
	}
	for _, v := range values {
		raw = findLiteral(text, v, raw)
	}
	if len(raw) == 0 {
		return nil
	}
	spans := absorbMarkers(text, mergeSpans(raw))
	for _, sp := range spans {
		if text[sp.start:sp.end] != Redacted {
			return spans
		}
	}
	return nil // only earlier markers matched (e.g. the value in password=[REDACTED])
}

func replaceSpans(text string, spans []span) string {
	var b strings.Builder
	b.Grow(len(text) + len(spans)*len(Redacted))
	last := 0
	for _, sp := range spans {
		b.WriteString(text[last:sp.start])
		b.WriteString(Redacted)
		last = sp.end
	}
	b.WriteString(text[last:])
	return b.String()
}
