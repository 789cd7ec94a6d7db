package scrub

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	alnumChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexChars    = "0123456789abcdefABCDEF"
	skChars     = alnumChars + "-_"
	fieldChars  = alnumChars + "!@#$%^*_+-./~=:?"            // survives fieldStop
	quotedChars = alnumChars + " !#$%&()*+,-./:;<=>?@^_{|}~" // no quotes, backslash or brackets
	shellChars  = alnumChars + "!@#$%^&*()_+-=;:,./<>?|~{}"  // survives shellStop
	dbPassChars = alnumChars + "!$&()*+,;=%-._~:@/?#"        // database URLs: to the last '@'
	urlPassChar = alnumChars + "!$&()*+,;=%-._~:"            // other URLs: inside the authority
	token68Char = alnumChars + "-._~+/="
	b64URLChars = alnumChars + "-_"
	b64Chars    = alnumChars + "+/"
	lowerChars  = "abcdefghijklmnopqrstuvwxyz"
)

// generated is one secret embedded in the text that carries it; secret is what must not survive.
type generated struct {
	text, secret string
	offset       int // of secret within text
	dynamic      bool
}

// pieces of text around the secret; the fuzzer picks among them with material bytes.
var (
	skFamilyPrefixes = []string{"sk-proj-", "sk-svcacct-", "sk-admin-", "sk-ant-api03-", "sk-ant-"}
	kvKeys           = []string{"password", "api_key", "apikey", "api-key", "token", "secret", "passwd",
		"OPENAI_API_KEY", "x-api-key", "client_secret", "access_token", "DB_PASSWORD", "Password", "TOKEN",
		"aws_secret_access_key", "SecretAccessKey", "aws_session_token", "private_key", "private_key_id",
		"client-key-data", "_authToken", "identitytoken"}
	kvUnquoted = []string{"%s=%s", "%s: %s", "%s = %s", "%s:%s", "--%s=%s", "%s:\t%s"}
	kvQuoted   = []string{`"%s": "%s"`, `"%s":"%s"`, `%s='%s'`, `%s="%s"`, `\"%s\":\"%s\"`,
		`%s := "%s"`, `'%s' => '%s'`, "%s: `%s`"}
	authForms = []string{"Authorization: Bearer %s", "authorization: basic %s", `"Authorization": "Bearer %s"`,
		"-H 'Authorization: Token %s'", `Authorization="Bearer %s"`, "Authorization:Bearer\t%s"}
	envNames = []string{"AWS_SECRET_ACCESS_KEY", "DATABASE_DSN", "VIRTUAL_ENV_TOKEN", "GITHUB_TOKEN",
		"DB_PASSWORD", "GOOGLE_APPLICATION_CREDENTIALS", "STRIPE_SECRET", "MY_API_KEY", "VIRTUAL_HOST"}
	envForms  = []string{"%s=%s", "export %s=%s", "%s='%s'", `%s="%s"`}
	dbSchemes = []string{"postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis", "rediss", "amqp", "amqps"}
	urlScheme = []string{"https", "http", "ftp", "git+ssh"}
	// The shapes a prefix or an anchor announces (kinds 12 to 19).
	slackPrefixes  = []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-"}
	stripePrefixes = []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"}
	pemLabels      = []string{"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY",
		"ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"}
	pemBreaks = []string{"\n", "\r\n", `\n`}
	awsSeps   = []string{",", " ", "\n", "\t", ": ", "\",\""}
)

// fuzzKinds is how many shapes generate knows; kind 11 stays the dynamic value, so seeds
// written before kinds 12 and up existed keep their meaning.
const fuzzKinds = 20

// fill maps material onto charset as n bytes, so the fuzzer steers the secret's content.
func fill(material, charset string, n int) string {
	b := make([]byte, n)
	for i := range b {
		m := byte(i*7 + 3)
		if len(material) > 0 {
			m = material[i%len(material)] + byte(i/len(material))
		}
		b[i] = charset[int(m)%len(charset)]
	}
	return string(b)
}

// choose picks one of options using the material byte at i.
func choose(material string, i int, options []string) string {
	if len(material) == 0 {
		return options[i%len(options)]
	}
	return options[int(material[i%len(material)])%len(options)]
}

// embed formats key and secret (in that order) and records exactly where the secret went.
func embed(format, key, secret string) generated {
	before, after, _ := strings.Cut(fmt.Sprintf(format, key, "\x00"), "\x00")
	return generated{text: before + secret + after, secret: secret, offset: len(before)}
}

func generate(kind uint8, material string) generated {
	n := len(material)
	whole := func(s string) generated { return generated{text: s, secret: s} }
	switch kind % fuzzKinds {
	case 0:
		return whole("sk-" + fill(material, alnumChars, 20+n%40))
	case 1:
		return whole(choose(material, 0, skFamilyPrefixes) + fill(material, skChars, 20+n%60))
	case 2:
		return whole("gh" + choose(material, 1, []string{"p", "o", "u", "s", "r"}) + "_" + fill(material, alnumChars, 36+n%5))
	case 3:
		return whole("github_pat_" + fill(material, alnumChars+"_", 22+n%60))
	case 4:
		return whole(choose(material, 2, []string{"AKIA", "ASIA"}) + fill(material, upperChars, 16))
	case 5:
		return whole(fill(material, hexChars, 64+n%64))
	case 6:
		value := fill(material, alnumChars, 1) + fill(material, fieldChars, n%40)
		format := choose(material, 3, kvUnquoted)
		if len(material) > 4 && material[4]%2 == 0 {
			value = fill(material, alnumChars, 1) + fill(material, quotedChars, n%40)
			format = choose(material, 3, kvQuoted)
		}
		return embed(format, choose(material, 5, kvKeys), value)
	case 7:
		value := fill(material, alnumChars, 1) + fill(material, token68Char, n%60)
		return embed(strings.Replace(choose(material, 6, authForms), "%s", "%[2]s", 1), "", value)
	case 8:
		user := fill(material, alnumChars, n%6)
		scheme, chars := choose(material, 7, dbSchemes), dbPassChars
		if len(material) > 8 && material[8]%3 == 0 {
			scheme, chars = choose(material, 7, urlScheme), urlPassChar
		}
		return embed("%s:%s@db.internal:5432/app", scheme+"://"+user, fill(material, chars, 1+n%30))
	case 9:
		value := fill(material, alnumChars, 1) + fill(material, shellChars, n%40)
		return embed(choose(material, 9, envForms), choose(material, 10, envNames), value)
	case 10:
		value := fill(material, alnumChars, 1) + fill(material, token68Char, 15+n%60)
		return embed("Bearer %[2]s%[1]s", "", value)
	case 12:
		return whole(choose(material, 11, slackPrefixes) + fill(material, alnumChars+"-", 20+n%40))
	case 13: // the webhook's host stays readable; its path is the secret
		path := "T" + fill(material, upperChars, 8) + "/B" + fill(material, upperChars, 8) + "/" + fill(material, alnumChars, 24)
		return embed("%s%s", "https://hooks.slack.com/services/", path)
	case 14:
		return whole(choose(material, 12, stripePrefixes) + fill(material, alnumChars, 20+n%80))
	case 15:
		return whole("AIza" + fill(material, b64URLChars, 35))
	case 16: // a JWT starts a base64url run, so it follows a separator
		token := "eyJ" + fill(material, b64URLChars, 7+n%40) + ".eyJ" + fill(material[min(n, 1):], b64URLChars, 7+n%60) +
			"." + fill(material[min(n, 2):], b64URLChars, n%50)
		return embed("%s%s", choose(material, 13, []string{" ", "=", "\"", "\n", "Bearer "}), token)
	case 17:
		label, br := choose(material, 14, pemLabels), choose(material, 15, pemBreaks)
		block := "-----BEGIN " + label + "-----" + br
		for line := range 1 + n%3 {
			block += fill(material[min(n, line):], b64Chars, 16+n%49) + br
		}
		return whole(block + "-----END " + label + "-----")
	case 18: // a bare secret access key beside its key ID, ended by a separator
		secret := fill(material, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1) + fill(material, lowerChars, 1) + fill(material, b64Chars, awsSecretLen-2)
		id := choose(material, 16, []string{"AKIA", "ASIA"}) + fill(material, upperChars, 16)
		sep := choose(material, 17, awsSeps)
		if len(material) > 18 && material[18]%2 == 0 {
			return embed("\n%[2]s"+sep+"%[1]s\n", id, secret)
		}
		return embed("%s"+sep+"%s\n", id, secret)
	case 19:
		entry := "\nmachine " + fill(material, alnumChars, 1+n%12) + ".example.com" +
			choose(material, 19, []string{" ", "\n  "}) + "login " + fill(material, alnumChars, 1+n%8) +
			choose(material, 20, []string{" ", "\n  "}) + "password %[2]s\n"
		return embed(entry, "", fill(material, alnumChars, 1)+fill(material, fieldChars, n%40))
	default:
		v := material
		if utf8.RuneCountInString(strings.TrimSpace(v)) < MinValueLen {
			v = "dyn-" + v
		}
		return generated{text: v, secret: v, dynamic: true}
	}
}

// FuzzScrub embeds a generated secret between arbitrary text and checks that it does not
// survive and that scrubbing is idempotent.
func FuzzScrub(f *testing.F) {
	f.Add("key ", uint8(0), "abc", " end")
	f.Add("", uint8(6), "hunter2", "")
	f.Add(`{"a":1,`, uint8(9), "xyz", `}`)
	f.Fuzz(func(t *testing.T, prefix string, kind uint8, material, suffix string) {
		if len(prefix)+len(material)+len(suffix) > 1<<10 {
			t.Skip("large inputs add time, not coverage")
		}
		g := generate(kind, material)
		s := New()
		if g.dynamic {
			s.AddValues(g.secret)
		}
		in := prefix + g.text + suffix
		out := s.Scrub(in)
		if again := s.Scrub(out); again != out {
			t.Fatalf("not idempotent\n in: %q\nout: %q\nagain: %q", in, out, again)
		}
		if strings.Contains(Redacted, g.secret) {
			return // the marker itself spells it
		}
		// A static secret may also occur in prefix or suffix where no pattern covers it; only
		// copies that overlap the embedded one must go. A dynamic value must go everywhere.
		lo := len(prefix) + g.offset
		allowed := countOutside(in, g.secret, lo, lo+len(g.secret))
		if g.dynamic {
			allowed = 0
		}
		if got := strings.Count(out, g.secret); got > allowed {
			t.Fatalf("secret %q survived (kind %d)\n in: %q\nout: %q", g.secret, kind%fuzzKinds, in, out)
		}
	})
}

// countOutside counts non-overlapping occurrences of sub in s that do not intersect [lo, hi).
func countOutside(s, sub string, lo, hi int) int {
	n := 0
	for i := 0; ; {
		k := strings.Index(s[i:], sub)
		if k < 0 {
			return n
		}
		start := i + k
		if start+len(sub) <= lo || start >= hi {
			n++
			i = start + len(sub)
		} else {
			i = start + 1
		}
	}
}
