package scrub

import "testing"

type scrubCase struct {
	name, in, want string
}

// Fake credentials in the real shapes; none of them is live.
const (
	openAIKey    = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	openAIProj   = "sk-proj-Ab3_dE-fGh1jKlMnOpQrStUvWxYz0123456789_-abc"
	anthropicKey = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz-ABCDEFG_1234567890"
	ghClassic    = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	ghFineGrain  = "github_pat_11ABCDEFG0abcdefghijklmn_opqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZab"
	awsKeyID     = "AKIAIOSFODNN7EXAMPLE"
	hex64        = "4f3c2b1a09e8d7c6b5a4f3c2b1a09e8d7c6b5a4f3c2b1a09e8d7c6b5a4f3c2b1"
)

var tokenCases = []scrubCase{
	{"openai classic", "key " + openAIKey + " end", "key [REDACTED] end"},
	{"openai whole string", openAIKey, "[REDACTED]"},
	{"openai project key", "using " + openAIProj + ".", "using [REDACTED]."},
	{"openai service account", "sk-svcacct-AbCdEf_GhIjKl-MnOpQrStUv12", "[REDACTED]"},
	{"openai dashed key at word start", "use sk-None-Abc123def456ghi789jkl now", "use [REDACTED] now"},
	{"openai glued to a word", "x" + openAIKey + "y", "x[REDACTED]"},
	{"openai in parens and quotes", `f("` + openAIKey + `")`, `f("[REDACTED]")`},
	{"anthropic", anthropicKey, "[REDACTED]"},
	{"anthropic in json", `{"k":"` + anthropicKey + `"}`, `{"k":"[REDACTED]"}`},
	{"anthropic seed shape", "sk-ant-abcdefghij-klmnopqrstuv", "[REDACTED]"},
	{"github classic", "token " + ghClassic, "token [REDACTED]"},
	{"github oauth", "gho_" + ghClassic[4:], "[REDACTED]"},
	{"github user-to-server", "(ghu_" + ghClassic[4:] + ")", "([REDACTED])"},
	{"github server", "ghs_" + ghClassic[4:] + "\n", "[REDACTED]\n"},
	{"github refresh", "ghr_" + ghClassic[4:] + ",", "[REDACTED],"},
	{"github prefix repeated", "ghp_" + ghClassic, "ghp_[REDACTED]"},
	{"github tokens back to back", ghClassic + ghClassic, "[REDACTED]"},
	{"github fine-grained", "GH=" + ghFineGrain, "GH=[REDACTED]"},
	{"github token in clone url", "https://x-access-token:ghs_" + ghClassic[4:] + "@github.com/o/r",
		"https://x-access-token:[REDACTED]@github.com/o/r"},
	{"aws key id", "aws_access_key_id = " + awsKeyID, "aws_access_key_id = [REDACTED]"},
	{"aws key id in json", `{"AccessKeyId":"` + awsKeyID + `"}`, `{"AccessKeyId":"[REDACTED]"}`},
	{"aws temporary key id", "ASIAY34FZKBOKMUTVV7A", "[REDACTED]"},
	{"long hex", "key=" + hex64, "key=[REDACTED]"},
	{"long hex digest", "sha256:" + hex64 + hex64, "sha256:[REDACTED]"},
	{"bearer anywhere", "sent Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln to api", "sent Bearer [REDACTED] to api"},
	{"adjacent secrets", awsKeyID + openAIKey + hex64, "[REDACTED]"},
	{"secrets on many lines", ghClassic + "\n" + awsKeyID + "\n", "[REDACTED]\n[REDACTED]\n"},
}

var keyValueCases = []scrubCase{
	{"password equals", "password=hunter2 user=bob", "password=[REDACTED] user=bob"},
	{"password json", `{"password":"hunter2","user":"bob"}`, `{"password":"[REDACTED]","user":"bob"}`},
	{"api_key json spaced", `{"api_key": "abc123"}`, `{"api_key": "[REDACTED]"}`},
	{"apikey", "apikey: abc123", "apikey: [REDACTED]"},
	{"api-key header", "x-api-key: abcd1234", "x-api-key: [REDACTED]"},
	{"token in query", "GET /v1?access_token=abc123&format=json", "GET /v1?access_token=[REDACTED]&format=json"},
	{"secret yaml single quoted", "client_secret: 'p@ss w0rd'", "client_secret: '[REDACTED]'"},
	{"passwd", "DB_PASSWD=abc", "DB_PASSWD=[REDACTED]"},
	{"bearer field", "bearer: abc", "bearer: [REDACTED]"},
	{"case insensitive key", "PassWord = s3cret;", "PassWord = [REDACTED];"},
	{"cli flag", "--password=hunter2 --user=bob", "--password=[REDACTED] --user=bob"},
	{"log fields", "token=abc,user=bob", "token=[REDACTED],user=bob"},
	{"go assignment literal", `secret := "abc123"`, `secret := "[REDACTED]"`},
	{"php array", `'password' => 'abc'`, `'password' => '[REDACTED]'`},
	{"escaped json", `{\"api_key\":\"abc\"}`, `{\"api_key\":\"[REDACTED]\"}`},
	{"json with escaped quote", `{"password":"a\"b","u":1}`, `{"password":"[REDACTED]","u":1}`},
	{"unterminated quote ends at line end", "password=\"abc\nnext", "password=\"[REDACTED]\nnext"},
	{"authorization bearer", "Authorization: Bearer abc.def", "Authorization: Bearer [REDACTED]"},
	{"authorization basic in json", `{"Authorization":"Basic dXNlcjpwYXNz"}`, `{"Authorization":"Basic [REDACTED]"}`},
	{"curl header", "curl -H 'Authorization: Bearer abc123' https://api", "curl -H 'Authorization: Bearer [REDACTED]' https://api"},
	{"authorization without scheme", "authorization=abc123", "authorization=[REDACTED]"},
}

var envCases = []scrubCase{
	{"aws secret", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY=[REDACTED]"},
	{"dsn with url", "export DATABASE_DSN=postgres://u:p@h/db", "export DATABASE_DSN=[REDACTED]"},
	{"virtual token", "VIRTUAL_ENV_TOKEN=abc", "VIRTUAL_ENV_TOKEN=[REDACTED]"},
	{"virtual prefix", "VIRTUAL_HOST=example.internal", "VIRTUAL_HOST=[REDACTED]"},
	{"credential", "GOOGLE_APPLICATION_CREDENTIALS=/etc/key.json x", "GOOGLE_APPLICATION_CREDENTIALS=[REDACTED] x"},
	{"quoted", "STRIPE_KEY='sk_live_abc'", "STRIPE_KEY='[REDACTED]'"},
	{"shell value keeps punctuation", "MY_SECRET=a,b;c d", "MY_SECRET=[REDACTED] d"},
	{"json env name", `{"DB_PASSWORD": "x1"}`, `{"DB_PASSWORD": "[REDACTED]"}`},
	{"compose env", "  GITHUB_TOKEN: abc123", "  GITHUB_TOKEN: [REDACTED]"},
}

var urlCases = []scrubCase{
	{"postgres", "postgres://app:s3cret@db:5432/app", "postgres://app:[REDACTED]@db:5432/app"},
	{"postgresql", "dsn postgresql://app:s3cret@db/app?sslmode=disable", "dsn postgresql://app:[REDACTED]@db/app?sslmode=disable"},
	{"jdbc postgresql", "jdbc:postgresql://app:pw@db/app", "jdbc:postgresql://app:[REDACTED]@db/app"},
	{"mysql", "mysql://root:pw@localhost:3306/db", "mysql://root:[REDACTED]@localhost:3306/db"},
	{"mongodb", "mongodb://admin:pw@mongo:27017", "mongodb://admin:[REDACTED]@mongo:27017"},
	{"mongodb srv", "mongodb+srv://admin:pa%40ss@cluster0.mongodb.net/test?retryWrites=true",
		"mongodb+srv://admin:[REDACTED]@cluster0.mongodb.net/test?retryWrites=true"},
	{"redis empty user", "redis://:s3cret@localhost:6379/0", "redis://:[REDACTED]@localhost:6379/0"},
	{"rediss", "rediss://default:pw@cache:6380", "rediss://default:[REDACTED]@cache:6380"},
	{"amqp", "amqp://guest:guest@rabbit:5672/", "amqp://guest:[REDACTED]@rabbit:5672/"},
	{"unescaped password", "postgres://u:p@ss/w0rd@host/db", "postgres://u:[REDACTED]@host/db"},
	{"url in json", `{"dsn":"postgres://u:pw@h/db"}`, `{"dsn":"postgres://u:[REDACTED]@h/db"}`},
	{"https userinfo", "git clone https://bob:tok3n@git.example.com/r.git", "git clone https://bob:[REDACTED]@git.example.com/r.git"},
}

var negativeCases = []string{
	"The task-runner will ask-for a risk-free desk-lamp and a kiosk-mode screen.",
	"sk-1 sk-learn sk-abc sk-",
	"task-2024-01-15-migration-notes risk-assessment-for-the-quarterly-report",
	"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Jane <jane@example.com>",
	"id 550e8400-e29b-41d4-a716-446655440000 and deadbeef",
	"maxTokens := cfg.MaxTokens\nif token == \"\" {\n\treturn nil\n}",
	"tokenizer.Encode(text)\nfor _, tok := range tokens {}\nfunc (c *Client) Token() string {",
	`let t = Token::new(); x != y; a <= b; token == other`,
	`{"max_tokens": 4096, "tokens": 12, "secretary": "Jane", "password_hash": "x"}`,
	"max_tokens: 4096\ntoken_count=12",
	"postgres://db:5432/app redis://localhost:6379/0 https://example.com/a@b",
	"https://registry.npmjs.org/@types/node mailto:bob@example.com",
	"Bearer authentication is described in RFC 6750; the bearer of bad news.",
	"PATH=/usr/bin:/bin HOME=/home/me LANG=en_US.UTF-8",
	"ghp_short AKIA short AKIAlowercase github_pat_short",
	"| Name | Value |\n|------|-------|\n| a    | 1     |",
	"sha1 " + hex64[:40] + " " + hex64[:63],
	"func main() {\n\tfmt.Println(\"hello, world\")\n}",
	"Password:\nToken:",
}

func runCases(t *testing.T, cases []scrubCase) {
	t.Helper()
	s := New()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := s.Scrub(tc.in)
			if got != tc.want {
				t.Errorf("Scrub(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if again := s.Scrub(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestTokens(t *testing.T)      { runCases(t, tokenCases) }
func TestKeyValues(t *testing.T)   { runCases(t, keyValueCases) }
func TestEnvVars(t *testing.T)     { runCases(t, envCases) }
func TestConnStrings(t *testing.T) { runCases(t, urlCases) }

func TestNegatives(t *testing.T) {
	cases := make([]scrubCase, len(negativeCases))
	for i, in := range negativeCases {
		cases[i] = scrubCase{name: in[:min(len(in), 24)], in: in, want: in}
	}
	runCases(t, cases)
}
