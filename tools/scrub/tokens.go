package scrub

import "strings"

// prefixedTokens are credentials that announce themselves with a literal prefix. Each is found
// with strings.Index (vectorised) and confirmed by the length of the run that follows.
var prefixedTokens = [...]struct {
	prefix     string
	body       *byteClass
	minBody    int
	keepPrefix bool // redact only the body: "Bearer [REDACTED]" still says what was sent
}{
	{"ghp_", alnum, 36, false}, // GitHub classic, OAuth, user-to-server, server, refresh tokens
	{"gho_", alnum, 36, false},
	{"ghu_", alnum, 36, false},
	{"ghs_", alnum, 36, false},
	{"ghr_", alnum, 36, false},
	{"github_pat_", ident, 22, false}, // fine-grained PATs: github_pat_<22>_<59>
	{"AKIA", upperAlnum, 16, false},   // AWS access key ID
	{"ASIA", upperAlnum, 16, false},   // AWS temporary (STS) key ID, same shape
	// A bearer credential anywhere, not only after "Authorization:"; 16+ characters keeps prose
	// such as "Bearer authentication" intact.
	{"Bearer ", token68, 16, true},
}

func findPrefixedTokens(text string, out []span) []span {
	for _, t := range prefixedTokens {
		for i := 0; ; {
			k := strings.Index(text[i:], t.prefix)
			if k < 0 {
				break
			}
			start := i + k
			body := start + len(t.prefix)
			end := runWhile(text, body, t.body)
			if end-body >= t.minBody {
				if t.keepPrefix {
					start = body
				}
				out = append(out, span{start, end})
			}
			// A prefix lying wholly inside this run shares its end and has a shorter body, so it
			// matches only if this one did; skipping to where a prefix could still straddle the
			// run's end ("ghp_ghp_…") keeps "AKIAAKIA…" linear without missing any.
			i = max(start+1, end-len(t.prefix)+1)
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
