package scrub

import (
	"strings"
	"testing"
)

// More fake credentials in real shapes; none of them is live.
const (
	awsSecretKey  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	slackBot      = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	slackWebhook  = "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/AbCdEfGhIjKlMnOpQrStUvWx"
	stripeLive    = "sk_live_51H8abcDEFghiJKLmnoPQRstuVWX"
	googleKey     = "AIzaSyD-abcdefghijklmnopqrstuvwx_123456"
	jwt           = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemLine1      = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"
	pemLine2      = "MqZmN3pvx0Rq4zT9kQ1bE3y8sQ4xY2vZ9hbR7c0aB1dC2eF3gH4iJ5kL6mN7oP=="
	rsaPEM        = "-----BEGIN RSA PRIVATE KEY-----\n" + pemLine1 + "\n" + pemLine2 + "\n-----END RSA PRIVATE KEY-----"
	escapedPEM    = `-----BEGIN PRIVATE KEY-----\n` + pemLine1 + `\n` + pemLine2 + `\n-----END PRIVATE KEY-----\n`
	certificatePE = "-----BEGIN CERTIFICATE-----\n" + pemLine1 + "\n-----END CERTIFICATE-----"
)

var shapeCases = []scrubCase{
	{"slack bot token", "SLACK=" + slackBot + " ok", "SLACK=[REDACTED] ok"},
	{"slack user token", "use xoxp-1234567890-1234567890-1234567890123-0123456789abcdef0123456789abcdef", "use [REDACTED]"},
	{"slack workspace token", "xoxa-2-1234567890-abcdefghijklmnop", "[REDACTED]"},
	{"slack refresh token", `{"refresh":"xoxr-1-abcdefghijklmnopqrst"}`, `{"refresh":"[REDACTED]"}`},
	{"slack session token", "cookie xoxs-1234567890-abcdefghijklm", "cookie [REDACTED]"},
	{"slack app token", "xapp-1-A0123ABCD-1234567890123-abcdef0123456789", "[REDACTED]"},
	{"slack webhook", "POST " + slackWebhook + " 200", "POST https://hooks.slack.com/services/[REDACTED] 200"},
	{"stripe live secret", "stripe " + stripeLive, "stripe [REDACTED]"},
	{"stripe restricted", "rk_live_abcdefghijklmnopqrstuvwx.", "[REDACTED]."},
	{"stripe test secret", `Stripe::api_key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"`, `Stripe::api_key = "[REDACTED]"`},
	{"stripe restricted test", "(rk_test_abcdefghijklmnopqrstuvwx)", "([REDACTED])"},
	{"google api key", "?key=" + googleKey + "&q=1", "?key=[REDACTED]&q=1"},
	{"google api key in js", `apiKey: "` + googleKey + `",`, `apiKey: "[REDACTED]",`},
	{"jwt bare", "id " + jwt + " end", "id [REDACTED] end"},
	{"jwt in json", `{"id_token":"` + jwt + `"}`, `{"id_token":"[REDACTED]"}`},
	{"jwt in cookie", "Set-Cookie: session=" + jwt + "; Path=/", "Set-Cookie: session=[REDACTED]; Path=/"},
	{"jwt in url", "/callback#access_jwt=" + jwt + "&state=x", "/callback#access_jwt=[REDACTED]&state=x"},
	{"jwt unsigned", "alg none: eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NSJ9. ok", "alg none: [REDACTED] ok"},
	{"jwt ends a sentence", "It sent " + jwt + ".", "It sent [REDACTED]."},
	{"pem rsa", "key:\n" + rsaPEM + "\nnext", "key:\n[REDACTED]\nnext"},
	{"pem pkcs8", "-----BEGIN PRIVATE KEY-----\n" + pemLine1 + "\n-----END PRIVATE KEY-----", "[REDACTED]"},
	{"pem ec", "-----BEGIN EC PRIVATE KEY-----\n" + pemLine2 + "\n-----END EC PRIVATE KEY-----\n", "[REDACTED]\n"},
	{"pem openssh", "$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n" +
		"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
		"QyNTUxOQAAACDx\n-----END OPENSSH PRIVATE KEY-----\n$ ", "$ cat ~/.ssh/id_ed25519\n[REDACTED]\n$ "},
	{"pem encrypted pkcs8", "-----BEGIN ENCRYPTED PRIVATE KEY-----\r\n" + pemLine1 + "\r\n-----END ENCRYPTED PRIVATE KEY-----\r\n", "[REDACTED]\r\n"},
	{"pem legacy encrypted headers", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n" +
		pemLine1 + "\n-----END RSA PRIVATE KEY-----", "[REDACTED]"},
	{"pem pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + pemLine1 + "\n=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----", "[REDACTED]"},
	{"pem yaml indented", "tls:\n  key: |\n    -----BEGIN RSA PRIVATE KEY-----\n    " + pemLine1 + "\n    -----END RSA PRIVATE KEY-----\n  cert: x",
		"tls:\n  key: |\n    [REDACTED]\n  cert: x"},
	{"pem json escaped", `"key": "` + escapedPEM + `"`, `"key": "[REDACTED]\n"`},
	{"pem truncated by head", "$ head -2 key.pem\n-----BEGIN RSA PRIVATE KEY-----\n" + pemLine1 + "\n$ ls", "$ head -2 key.pem\n[REDACTED]\n$ ls"},
	{"pem two blocks", rsaPEM + "\n" + rsaPEM, "[REDACTED]\n[REDACTED]"},
	{"pem key then certificate", rsaPEM + "\n" + certificatePE, "[REDACTED]\n" + certificatePE},
	{"aws pair in iam csv", "User name,Access key ID,Secret access key\nbob,AKIAIOSFODNN7EXAMPLE," + awsSecretKey + "\n",
		"User name,Access key ID,Secret access key\nbob,[REDACTED],[REDACTED]\n"},
	{"aws pair on one line", "creds ASIAY34FZKBOKMUTVV7A " + awsSecretKey + " (expires 1h)", "creds [REDACTED] [REDACTED] (expires 1h)"},
	{"aws pair on separate lines", "id:     AKIAIOSFODNN7EXAMPLE\nvalue:  " + awsSecretKey, "id:     [REDACTED]\nvalue:  [REDACTED]"},
	{"aws secret before id", awsSecretKey + " AKIAIOSFODNN7EXAMPLE", "[REDACTED] [REDACTED]"},
	{"github tokens every prefix", "ghp_" + strings.Repeat("a1", 18) + " gho_" + strings.Repeat("b2", 18) + " ghu_" + strings.Repeat("c3", 18) +
		" ghs_" + strings.Repeat("d4", 18) + " ghr_" + strings.Repeat("e5", 18), "[REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED]"},
}

// credentialFileCases are the fields of files that hold credentials, printed as cat would.
var credentialFileCases = []scrubCase{
	{"aws credentials file", "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = " + awsSecretKey +
		"\naws_session_token = FwoGZXIvYXdzEJr//////////wEaDEXAMPLE\nregion = eu-west-1",
		"[default]\naws_access_key_id = [REDACTED]\naws_secret_access_key = [REDACTED]\naws_session_token = [REDACTED]\nregion = eu-west-1"},
	{"aws secret alone, mixed case and colon", "Aws_Secret_Access_Key:  " + awsSecretKey, "Aws_Secret_Access_Key:  [REDACTED]"},
	{"aws secret not base64-shaped", "aws_secret_access_key=short", "aws_secret_access_key=[REDACTED]"},
	{"aws sts json", `{"Credentials": {"AccessKeyId": "ASIAY34FZKBOKMUTVV7A", "SecretAccessKey": "` + awsSecretKey +
		`", "SessionToken": "IQoJb3JpZ2luX2Vj", "Expiration": "2026-01-01T00:00:00Z"}}`,
		`{"Credentials": {"AccessKeyId": "[REDACTED]", "SecretAccessKey": "[REDACTED]", "SessionToken": "[REDACTED]", "Expiration": "2026-01-01T00:00:00Z"}}`},
	{"gcp service account", `{"type": "service_account", "project_id": "demo", "private_key_id": "1a2b3c4d5e6f",` +
		` "private_key": "` + escapedPEM + `", "client_email": "ci@demo.iam.gserviceaccount.com"}`,
		`{"type": "service_account", "project_id": "demo", "private_key_id": "[REDACTED]",` +
			` "private_key": "[REDACTED]", "client_email": "ci@demo.iam.gserviceaccount.com"}`},
	{"docker config", `{"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNzd29yZA=="}, "registry.example.com": {"identitytoken": "abc.def"}}}`,
		`{"auths": {"ghcr.io": {"auth": "[REDACTED]"}, "registry.example.com": {"identitytoken": "[REDACTED]"}}}`},
	{"netrc one line", "machine github.com login bob password ghs_notlongenough", "machine github.com login bob password [REDACTED]"},
	{"netrc several lines", "machine api.heroku.com\n  login me@example.com\n  password 01234567-89ab-cdef\nmachine git.heroku.com",
		"machine api.heroku.com\n  login me@example.com\n  password [REDACTED]\nmachine git.heroku.com"},
	{"netrc without login", "machine ftp.example.com password s3cret", "machine ftp.example.com password [REDACTED]"},
	{"netrc default entry", "default login anonymous password me@example.com", "default login anonymous password [REDACTED]"},
	{"netrc account", "machine h login u account acct password p4ss", "machine h login u account acct password [REDACTED]"},
	{"kubeconfig user", "users:\n- name: dev\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n" +
		"    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQ==\n    token: kube-token-abc\n",
		"users:\n- name: dev\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n" +
			"    client-key-data: [REDACTED]\n    token: [REDACTED]\n"},
	{"npmrc", "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_abcdef\n_auth=dXNlcjpwYXNz\nalways-auth=true",
		"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=[REDACTED]\n_auth=[REDACTED]\nalways-auth=true"},
	{"pypirc", "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJGFiYw\n",
		"[pypi]\nusername = __token__\npassword = [REDACTED]\n"},
}

// benignCases look like the new families but are not credentials; they must survive as-is.
var benignCases = []string{
	"no key id here: " + awsSecretKey,
	"base64 of prose: VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZy4= and SGVsbG8gd29ybGQ=",
	"Enter your password and press enter. The password policy requires 12 characters.",
	"Please login with your password first; machine learning models need no password reset.",
	"password\npassword: \nforgot password?",
	"heyJude and theyJumped; eyJ alone; keyJson",
	"payload eyJhbGciOiJIUzI1NiJ9 is base64 JSON, not a token",
	"versions eyJhbGciOiJIUzI1NiJ9.notjson.sig and eyJ.eyJ.x",
	"put xoxb-your-token-here in SLACK_BOT; sk_live_... and sk_test_xxx are placeholders",
	"see https://hooks.slack.com/services/... for setup; AIzaShort",
	`const header = "-----BEGIN RSA PRIVATE KEY-----"` + "\n" + `const footer = "-----END RSA PRIVATE KEY-----"`,
	"-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
	"A PEM key starts with -----BEGIN PRIVATE KEY----- on its own line.",
	certificatePE,
	"-----BEGIN PUBLIC KEY-----\n" + pemLine1 + "\n-----END PUBLIC KEY-----",
	"oauth: enabled\nuse_auth: true\nauthors: me\nauth_method: token",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
}

// nearKeyIDCases hold an AWS access key ID (always redacted) beside runs that are not its
// secret access key: those must survive.
var nearKeyIDCases = []scrubCase{
	{"git sha", "AKIAIOSFODNN7EXAMPLE\ncommit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD)",
		"[REDACTED]\ncommit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD)"},
	{"upper-case digest", "AKIAIOSFODNN7EXAMPLE digest 9FCEB02D0AE598E95DC970B74767F19372D61AF8",
		"[REDACTED] digest 9FCEB02D0AE598E95DC970B74767F19372D61AF8"},
	{"uuid", "AKIAIOSFODNN7EXAMPLE request 550e8400-e29b-41d4-a716-446655440000",
		"[REDACTED] request 550e8400-e29b-41d4-a716-446655440000"},
	{"long identifier", "AKIAIOSFODNN7EXAMPLE handle_incoming_webhook_for_slack_now",
		"[REDACTED] handle_incoming_webhook_for_slack_now"},
	{"40 chars inside an identifier", "AKIAIOSFODNN7EXAMPLE x_" + awsSecretKey + "_y", "[REDACTED] x_" + awsSecretKey + "_y"},
	{"padded base64", "AKIAIOSFODNN7EXAMPLE SGVsbG8sIHRoaXMgaXMgYSBwbGFpbiBzZW50ZW5jZS4=",
		"[REDACTED] SGVsbG8sIHRoaXMgaXMgYSBwbGFpbiBzZW50ZW5jZS4="},
	{"secret too far away", "AKIAIOSFODNN7EXAMPLE" + strings.Repeat(" ", awsSecretWindow) + awsSecretKey,
		"[REDACTED]" + strings.Repeat(" ", awsSecretWindow) + awsSecretKey},
}

func TestShapes(t *testing.T)          { runCases(t, shapeCases) }
func TestCredentialFiles(t *testing.T) { runCases(t, credentialFileCases) }
func TestNearAWSKeyID(t *testing.T)    { runCases(t, nearKeyIDCases) }

func TestBenignLookalikes(t *testing.T) {
	cases := make([]scrubCase, len(benignCases))
	for i, in := range benignCases {
		cases[i] = scrubCase{name: in[:min(len(in), 32)], in: in, want: in}
	}
	runCases(t, cases)
}

// TestTokenFamilies checks the rules tokenFamily.find relies on to skip ahead safely.
func TestTokenFamilies(t *testing.T) {
	t.Parallel()
	for _, f := range append(tokenFamilies[:], awsKeyIDs[:]...) {
		offset := strings.Index(f.tokens[0].prefix, f.anchor)
		for _, tok := range f.tokens {
			if strings.Index(tok.prefix, f.anchor) != offset || offset < 0 {
				t.Errorf("family %q: anchor not at offset %d of %q", f.anchor, offset, tok.prefix)
			}
			if tok.body != f.tokens[0].body {
				t.Errorf("family %q: %q has another body class", f.anchor, tok.prefix)
			}
			for _, other := range f.tokens {
				if other != tok && strings.HasPrefix(other.prefix, tok.prefix) {
					t.Errorf("family %q: %q is a prefix of %q", f.anchor, tok.prefix, other.prefix)
				}
			}
		}
	}
}

// TestKVKeywordsIndexable checks what endsWithKeyword relies on: keywords end in two
// lower-case letters, so comparing a key's last two bytes, lower-cased, rejects no match.
func TestKVKeywordsIndexable(t *testing.T) {
	t.Parallel()
	isLower := func(b byte) bool { return 'a' <= b && b <= 'z' }
	for _, kw := range append(kvKeywords[:], kvWholeKeys[:]...) {
		if len(kw) < 2 || !isLower(kw[len(kw)-1]) || !isLower(kw[len(kw)-2]) || strings.ToLower(kw) != kw {
			t.Errorf("keyword %q must be lower case and end in two letters", kw)
		}
	}
}
