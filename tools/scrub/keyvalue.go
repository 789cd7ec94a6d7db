package scrub

import "strings"

// kvKeywords name fields whose value is a credential. They are matched case-insensitively at
// the end of the key, so "OPENAI_API_KEY", "x-api-key" and "client_secret" count while
// "max_tokens" and "tokenizer" do not. The second line holds the fields of credential files:
// ~/.aws/credentials and STS JSON (aws_session_token and identitytoken end in "token"), GCP
// service-account keys and kubeconfig's client-key-data; client-certificate-data stays.
var kvKeywords = [...]string{
	"api_key", "apikey", "api-key", "token", "secret", "password", "passwd", "bearer", "authorization",
	"secret_access_key", "secretaccesskey", "private_key", "private_key_id", "client-key-data",
}

// kvWholeKeys are credentials only as the whole key, case-insensitively: docker's config.json
// "auth" (base64 user:password) and .npmrc's _auth. As suffixes they would take "oauth",
// "use_auth: true" or .npmrc's "always-auth=true".
var kvWholeKeys = [...]string{"auth", "_auth"}

// envKeywords mark environment-style names whose value is secret. They are case-sensitive and
// may appear anywhere in the name (AWS_SECRET_ACCESS_KEY, DATABASE_DSN, VIRTUAL_ENV_TOKEN):
// upper case is the environment convention, and requiring it spares lower-case code.
var envKeywords = [...]string{"KEY", "SECRET", "CREDENTIAL", "TOKEN", "PASSWORD", "DSN", "VIRTUAL_"}

// authSchemes precede the credential in an Authorization value; the scheme stays readable.
var authSchemes = [...]string{"Bearer", "Basic", "Token"}

// findKeyValues redacts the value of key/value pairs whose key names a credential, in the
// forms tools print: key=value, key: value, "key": "value", \"key\":\"value\", NAME='value',
// key := "value", 'key' => 'value' and Authorization: Bearer value.
func findKeyValues(text string, out []span) []span {
	field := runCache{stops: fieldStop, stop: -1}
	shell := runCache{stops: shellStop, stop: -1}
	userinfo := runCache{stops: userinfoStop, stop: -1}
	// Two vectorised IndexByte scans beat testing every byte for ':' or '='.
	colon, equals := indexFrom(text, 0, ':'), indexFrom(text, 0, '=')
	for colon >= 0 || equals >= 0 {
		var p int
		if equals < 0 || colon >= 0 && colon < equals {
			p, colon = colon, indexFrom(text, colon+1, ':')
		} else {
			p, equals = equals, indexFrom(text, equals+1, '=')
		}
		valStart, quotedOnly, ok := separator(text, p)
		if !ok {
			continue
		}
		keyEnd := p
		for keyEnd > 0 && keyGap[text[keyEnd-1]] {
			keyEnd--
		}
		env := isEnvName(text, keyEnd)
		kv := endsWithKeyword(text[:keyEnd])
		if !env && !kv {
			continue
		}
		cache := &field
		switch {
		case inURLUserinfo(text, keyEnd):
			cache = &userinfo // scheme://token:value@host: the host is not part of the value
		case env && text[p] == '=':
			cache = &shell // NAME=value is shell syntax: the value runs to whitespace
		}
		auth := kv && hasAuthKey(text[:keyEnd])
		if sp, ok := valueSpan(text, valStart, quotedOnly, auth, cache); ok {
			out = append(out, sp)
		}
	}
	return out
}

// indexFrom returns the index of the first c at or after i, or -1.
func indexFrom(text string, i int, c byte) int {
	if k := strings.IndexByte(text[i:], c); k >= 0 {
		return i + k
	}
	return -1
}

// separator classifies the ':' or '=' at p. Comparisons ("==", "!=", "<=", ">="), scope
// operators ("::") and the '=' inside ":=" are not separators. ":=" and "=>" are code, where an
// unquoted right-hand side is an expression rather than a secret, so only quoted values count.
func separator(text string, p int) (valStart int, quotedOnly, ok bool) {
	var prev, next byte
	if p > 0 {
		prev = text[p-1]
	}
	if p+1 < len(text) {
		next = text[p+1]
	}
	if text[p] == ':' {
		switch {
		case next == ':' || prev == ':':
			return 0, false, false
		case next == '=':
			return p + 2, true, true
		}
		return p + 1, false, true
	}
	switch {
	case prev == '=' || prev == '!' || prev == '<' || prev == '>' || prev == ':' || next == '=':
		return 0, false, false
	case next == '>':
		return p + 2, true, true
	}
	return p + 1, false, true
}

// kvKeyword is a keyword and whether it must be the whole key.
type kvKeyword struct {
	word  string
	whole bool
}

// kvByLastLetter indexes the keywords by their last letter, lower-cased: most keys are
// rejected with one lookup, the rest are compared only with keywords that could match.
var kvByLastLetter = func() (t [256][]kvKeyword) {
	for _, kw := range kvKeywords {
		t[kw[len(kw)-1]] = append(t[kw[len(kw)-1]], kvKeyword{kw, false})
	}
	for _, kw := range kvWholeKeys {
		t[kw[len(kw)-1]] = append(t[kw[len(kw)-1]], kvKeyword{kw, true})
	}
	return t
}()

func endsWithKeyword(key string) bool {
	if key == "" {
		return false
	}
	// Every keyword ends in two lower-case letters, and b|0x20 is a lower-case letter only
	// when b is a letter; the second-to-last one spares EqualFold most calls ("data=", "a=a=").
	for _, kw := range kvByLastLetter[key[len(key)-1]|0x20] {
		n := len(key) - len(kw.word)
		if n < 0 || key[len(key)-2]|0x20 != kw.word[len(kw.word)-2] || !strings.EqualFold(key[n:], kw.word) {
			continue
		}
		if !kw.whole || n == 0 || !skBody[key[n-1]] { // a whole key has no key byte before it
			return true
		}
	}
	return false
}

// hasAuthKey reports whether the key is an Authorization header (or a bearer field), where the
// value starts with a scheme word that should stay visible.
func hasAuthKey(key string) bool {
	for _, kw := range [...]string{"authorization", "bearer"} {
		if len(key) >= len(kw) && strings.EqualFold(key[len(key)-len(kw):], kw) {
			return true
		}
	}
	return false
}

// inURLUserinfo reports whether the key ending at end directly follows "://".
func inURLUserinfo(text string, end int) bool {
	start := end
	for start > 0 && (ident[text[start-1]] || text[start-1] == '-' || text[start-1] == '.') {
		start--
	}
	return strings.HasSuffix(text[:start], "://")
}

// isEnvName reports whether the identifier ending at end is an environment-style secret name.
func isEnvName(text string, end int) bool {
	start := end
	for start > 0 && ident[text[start-1]] {
		start--
	}
	name := text[start:end]
	if len(name) < 3 {
		return false
	}
	for _, kw := range envKeywords {
		if strings.Contains(name, kw) {
			return true
		}
	}
	return false
}

// valueSpan returns the span of the value starting at i (after optional spaces).
func valueSpan(text string, i int, quotedOnly, auth bool, cache *runCache) (span, bool) {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if start, end, ok := quotedValue(text, i); ok {
		if auth {
			start = skipAuthScheme(text, start, end)
		}
		return span{start, end}, end > start
	}
	if quotedOnly || i >= len(text) {
		return span{}, false
	}
	if auth {
		i = skipAuthScheme(text, i, len(text))
	}
	if i < len(text) && (text[i] == '{' || text[i] == '[') {
		// A JSON object or list, not a scalar. This also leaves an earlier marker alone.
		return span{}, false
	}
	end := cache.end(text, i)
	return span{i, end}, end > i
}

// quotedValue returns the content of a quoted value at i. The quote may be escaped (\"…\" as
// in JSON embedded in a JSON string); then the value ends at the next such quote, without the
// backslashes. An unterminated value ends at the end of the line.
func quotedValue(text string, i int) (start, end int, ok bool) {
	k := i
	for k < len(text) && text[k] == '\\' {
		k++
	}
	if k >= len(text) {
		return 0, 0, false
	}
	q := text[k]
	if q != '"' && q != '\'' && q != '`' {
		return 0, 0, false
	}
	start, end = k+1, k+1
	escaped := k > i
	for ; end < len(text); end++ {
		switch c := text[end]; {
		case c == '\n' || c == q && escaped:
			for escaped && end > start && text[end-1] == '\\' {
				end--
			}
			return start, end, true
		case c == q:
			return start, end, true
		case c == '\\' && !escaped:
			end++ // skip the escaped byte so \" does not close the value
		}
	}
	return start, len(text), true
}

// skipAuthScheme skips "Bearer " (or Basic, Token) at i when a credential follows on the line.
func skipAuthScheme(text string, i, limit int) int {
	for _, s := range authSchemes {
		j := i + len(s)
		if j >= limit || !strings.EqualFold(text[i:j], s) || (text[j] != ' ' && text[j] != '\t') {
			continue
		}
		for j < limit && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j < limit && text[j] != '\n' && text[j] != '\r' {
			return j
		}
	}
	return i
}

// runCache remembers the last unquoted run scanned. Separators are visited left to right, and
// in "a=b=c=…" each value starts inside the previous run and ends where it does, so reusing
// the end keeps the scan linear on such input.
type runCache struct {
	stops      *byteClass
	from, stop int
}

func (r *runCache) end(text string, i int) int {
	if i >= r.from && i <= r.stop {
		return r.stop
	}
	r.from, r.stop = i, runUntil(text, i, r.stops)
	return r.stop
}
