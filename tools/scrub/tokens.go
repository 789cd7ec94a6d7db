package scrub

import "strings"

// prefixedToken is a credential that announces itself with a literal prefix and is confirmed
// by the length of the run that follows.
type prefixedToken struct {
	prefix     string
	body       *byteClass
	minBody    int
	keepPrefix bool // redact only the body: "Bearer [REDACTED]" still says what was sent
}

// tokenFamily is prefixed tokens found with one strings.Index scan for an anchor, a substring
// of every member prefix at the same offset. strings.Index stops at each occurrence of the
// anchor's first byte, so the anchor starts with a byte rare in ordinary text: "yJ" not "eyJ",
// "k_live_" not "sk_live_". Members share one body class, so a prefix inside another member's
// run ends where that run does, and none is a prefix of another, so one matches at most.
// TestTokenFamilies checks these rules.
type tokenFamily struct {
	anchor string
	tokens []prefixedToken
}

// tokenFamilies are the prefixed credentials other than AWS key IDs, which aws.go scans itself
// because a secret access key may sit next to them.
var tokenFamilies = [...]tokenFamily{
	{"gh", []prefixedToken{ // GitHub classic, OAuth, user-to-server, server, refresh tokens
		{"ghp_", alnum, 36, false},
		{"gho_", alnum, 36, false},
		{"ghu_", alnum, 36, false},
		{"ghs_", alnum, 36, false},
		{"ghr_", alnum, 36, false},
	}},
	{"github_pat_", []prefixedToken{{"github_pat_", ident, 22, false}}}, // github_pat_<22>_<59>
	// Slack bot, user, workspace, refresh, session and app-level tokens. Real ones carry 40+
	// characters after the prefix; 20 spares placeholders such as "xoxb-your-token".
	{"xox", []prefixedToken{
		{"xoxb-", slackBody, 20, false},
		{"xoxp-", slackBody, 20, false},
		{"xoxa-", slackBody, 20, false},
		{"xoxr-", slackBody, 20, false},
		{"xoxs-", slackBody, 20, false},
	}},
	{"xapp-", []prefixedToken{{"xapp-", slackBody, 20, false}}},
	// A Slack incoming webhook is a bearer credential in its path; the host stays readable.
	{"k.com/services/", []prefixedToken{{"hooks.slack.com/services/", webhookPath, 20, true}}},
	{"k_live_", []prefixedToken{{"sk_live_", alnum, 20, false}, {"rk_live_", alnum, 20, false}}}, // Stripe
	{"k_test_", []prefixedToken{{"sk_test_", alnum, 20, false}, {"rk_test_", alnum, 20, false}}},
	{"AIza", []prefixedToken{{"AIza", base64URL, 35, false}}}, // Google API key: AIza[0-9A-Za-z_-]{35}
	// A bearer credential anywhere, not only after "Authorization:"; 16+ characters keeps prose
	// such as "Bearer authentication" intact.
	{"Bearer ", []prefixedToken{{"Bearer ", token68, 16, true}}},
}

func findPrefixedTokens(text string, out []span) []span {
	for _, f := range tokenFamilies {
		out = f.find(text, out)
	}
	return out
}

// find appends a span for every member token in text.
func (f tokenFamily) find(text string, out []span) []span {
	offset := strings.Index(f.tokens[0].prefix, f.anchor)
	longest := 0
	for _, t := range f.tokens {
		longest = max(longest, len(t.prefix))
	}
	for i := offset; i <= len(text); {
		k := strings.Index(text[i:], f.anchor)
		if k < 0 {
			break
		}
		start := i + k - offset
		i += k + 1
		for _, t := range f.tokens {
			if !strings.HasPrefix(text[start:], t.prefix) {
				continue
			}
			body := start + len(t.prefix)
			end := runWhile(text, body, t.body)
			if end-body >= t.minBody {
				out = append(out, span{start, end})
				if t.keepPrefix {
					out[len(out)-1].start = body
				}
			}
			// A prefix lying wholly inside this run shares its end and has a shorter body, so it
			// matches only if this one did; resuming where a prefix could still straddle the
			// run's end ("ghp_ghp_…") keeps "AKIAAKIA…" linear without missing any.
			i = max(i, end-longest+1+offset)
			break
		}
	}
	return out
}

// skFamilies are the distinctive sk- key families (Anthropic; OpenAI project, service-account
// and admin keys). Their bodies mix '-' and '_', which the classic all-alnum rule would miss.
var skFamilies = [...]string{"ant-", "proj-", "svcacct-", "admin-"}

// findSKKeys finds OpenAI and Anthropic keys. Unlike the other prefixes, "sk-" hides inside
// ordinary words ("task-", "risk-"), so a run may hold several candidates that are judged apart.
func findSKKeys(text string, out []span) []span {
	for i := 0; ; {
		k := strings.Index(text[i:], "sk-")
		if k < 0 {
			return out
		}
		start := i + k
		end := runWhile(text, start, skBody) // "sk-" is itself in skBody, so end >= start+3
		lastMixed := -1                      // last digit or capital in the run, for "looks random"
		for j := end - 1; j >= start+3; j-- {
			if upperAlnum[text[j]] {
				lastMixed = j
				break
			}
		}
		for q := start; ; {
			if skKeyAt(text, q, end, lastMixed > q+2) {
				out = append(out, span{q, end}) // later candidates in the run lie inside this one
				break
			}
			n := strings.Index(text[q+3:end], "sk-")
			if n < 0 {
				break
			}
			q += 3 + n
		}
		i = end
	}
}

// skKeyAt reports whether the "sk-" at q, whose run ends at end, is a key. mixed says whether
// the body holds a digit or a capital.
func skKeyAt(text string, q, end int, mixed bool) bool {
	body := text[q+3 : end]
	if runWhile(body, 0, alnum) >= 20 {
		return true // the classic pattern sk-[A-Za-z0-9]{20,}, wherever it appears
	}
	for _, f := range skFamilies {
		if len(body) >= len(f)+20 && strings.HasPrefix(body, f) {
			return true
		}
	}
	// Other dashed keys count only at the start of a word and only if they look random, which
	// keeps "task-2024-01-15-migration-notes" and kebab-case prose intact.
	return len(body) >= 20 && mixed && (q == 0 || !alnum[text[q-1]])
}

// findHexRuns finds runs of 64+ hex digits (encryption keys, raw secrets). Git hashes (40) and
// UUIDs (dashed) stay. Any such run covers a multiple of 64, so probing every 64th byte finds
// it without touching most of the text.
func findHexRuns(text string, out []span) []span {
	const minLen = 64
	for i := minLen - 1; i < len(text); i += minLen {
		if !hexDigit[text[i]] {
			continue
		}
		start := i
		for start > 0 && hexDigit[text[start-1]] {
			start--
		}
		end := runWhile(text, i, hexDigit)
		if end-start >= minLen {
			out = append(out, span{start, end})
		}
		i += (end - 1 - i) / minLen * minLen // next probe lands past this run
	}
	return out
}

// jwtMinSegment is the shortest header or payload counted: "eyJ" plus the base64url of a few
// more JSON bytes. The smallest real header, {"alg":"none"}, is 19 characters.
const jwtMinSegment = 10

// findJWTs finds JSON Web Tokens: header.payload.signature, where header and payload are
// base64url JSON objects and so both begin with "eyJ" (the encoding of `{"`). Requiring two
// such segments joined by dots spares a lone base64 JSON blob, and requiring the token to start
// a base64url run spares "eyJ" inside a word. An unsigned token ("….") counts too.
func findJWTs(text string, out []span) []span {
	for i := 0; ; {
		k := strings.Index(text[i:], "yJ") // 'e' is the commonest letter; see tokenFamily
		if k < 0 {
			return out
		}
		start := i + k - 1
		if start < 0 || text[start] != 'e' {
			i += k + 1
			continue
		}
		headerEnd := runWhile(text, start, base64URL)
		// Any later "eyJ" inside this run is preceded by a base64url byte, so it starts no token.
		i = headerEnd
		if start > 0 && base64URL[text[start-1]] || headerEnd-start < jwtMinSegment ||
			!strings.HasPrefix(text[headerEnd:], ".eyJ") {
			continue
		}
		payloadEnd := runWhile(text, headerEnd+1, base64URL)
		if payloadEnd-headerEnd-1 < jwtMinSegment || payloadEnd >= len(text) || text[payloadEnd] != '.' {
			continue
		}
		end := runWhile(text, payloadEnd+1, base64URL)
		out = append(out, span{start, end})
		i = end
	}
}

// connSchemes are database and broker URLs whose userinfo password is redacted even when the
// password itself holds '/', '?' or '@' (people paste them unescaped). Matched as a suffix of
// the scheme so "jdbc:postgresql://" and "DSN=postgres://" count too.
var connSchemes = [...]string{
	"postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis", "rediss", "amqp", "amqps",
}

// findURLPasswords redacts the password in scheme://user:password@host. For database schemes
// the password runs to the last '@' of the URL; for any other scheme (https://user:pat@host in
// CI logs) it must lie in the authority, so '@' in paths ("/@types/node") is left alone.
func findURLPasswords(text string, out []span) []span {
	tokenEnd, lastAt := -1, -1
	for i := 0; ; {
		k := strings.Index(text[i:], "://")
		if k < 0 {
			return out
		}
		sep := i + k
		auth := sep + 3
		i = auth
		if auth > tokenEnd { // "a://b://c" shares one URL token; scan it once
			tokenEnd = runUntil(text, auth, urlStop)
			lastAt = strings.LastIndexByte(text[auth:tokenEnd], '@')
			if lastAt >= 0 {
				lastAt += auth
			}
		}
		at := lastAt
		if at < auth {
			continue
		}
		if !hasConnScheme(text[:sep]) {
			if n := strings.IndexAny(text[auth:at], "/?#"); n >= 0 {
				at = strings.LastIndexByte(text[auth:auth+n], '@')
				if at < 0 {
					continue
				}
				at += auth
			}
		}
		colon := strings.IndexByte(text[auth:at], ':')
		if colon >= 0 && auth+colon+1 < at {
			out = append(out, span{auth + colon + 1, at})
		}
	}
}

func hasConnScheme(before string) bool {
	for _, s := range connSchemes {
		if len(before) >= len(s) && strings.EqualFold(before[len(before)-len(s):], s) {
			return true
		}
	}
	return false
}
