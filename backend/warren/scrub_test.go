package warren_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

type leakParams struct {
	Text string `json:"text" description:"text to leak"`
	Fail bool   `json:"fail,omitempty"`
}

// TestEverySeedPatternIsScrubbedEverywhere pushes one sample of every seed
// §12 pattern through the real registry and checks ForLLM, ForUser and the
// error message.
func TestEverySeedPatternIsScrubbedEverywhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if err := w.SetActiveProfile(ctx, "full"); err != nil {
		t.Fatal(err)
	}
	leak, err := tools.New(tools.Spec{Name: "leak", Group: "test", Description: "echoes"},
		func(_ context.Context, p leakParams) (tools.Result, error) {
			if p.Fail {
				return tools.Errorf(tools.CodeIO, "failed near %s", p.Text), nil
			}
			return tools.TextFor("llm: "+p.Text, "user: "+p.Text), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Registry().Register(leak); err != nil {
		t.Fatal(err)
	}
	w.AddScrubValues("10.20.30.40")
	secrets := map[string]struct{ text, secret string }{
		"openai":     {"key sk-abcdefghijklmnopqrstuvwxyz0123 here", "sk-abcdefghijklmnopqrstuvwxyz0123"},
		"anthropic":  {"sk-ant-api03-abcdefghijklmnopqrstuvwxyz-0123", "abcdefghijklmnopqrstuvwxyz-0123"},
		"github pat": {"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
		"gho":        {"gho_abcdefghijklmnopqrstuvwxyz0123456789", "gho_abcdefghijklmnopqrstuvwxyz0123456789"},
		"ghu":        {"ghu_abcdefghijklmnopqrstuvwxyz0123456789", "ghu_abcdefghijklmnopqrstuvwxyz0123456789"},
		"ghs":        {"ghs_abcdefghijklmnopqrstuvwxyz0123456789", "ghs_abcdefghijklmnopqrstuvwxyz0123456789"},
		"ghr":        {"ghr_abcdefghijklmnopqrstuvwxyz0123456789", "ghr_abcdefghijklmnopqrstuvwxyz0123456789"},
		"aws":        {"id=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
		"api_key":    {"api_key: s3cr3tvalue99", "s3cr3tvalue99"},
		"token":      {"token=abc123tokenvalue", "abc123tokenvalue"},
		"secret":     {`"secret": "hush-hush-value"`, "hush-hush-value"},
		"password":   {"password=correcthorse", "correcthorse"},
		"bearer":     {"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "eyJhbGciOiJIUzI1NiJ9"},
		"postgres":   {"postgres://app:pgpass123@db:5432/app", "pgpass123"},
		"mysql":      {"mysql://root:mypass456@localhost/db", "mypass456"},
		"mongodb":    {"mongodb://u:mongopass789@cluster/db", "mongopass789"},
		"redis":      {"redis://:redispass000@cache:6379", "redispass000"},
		"env key":    {"STRIPE_KEY=rk_live_abcdef", "rk_live_abcdef"},
		"env secret": {"CLIENT_SECRET=clientsecretval", "clientsecretval"},
		"env cred":   {"GOOGLE_CREDENTIAL=credval12345", "credval12345"},
		"env dsn":    {"SENTRY_DSN=https://abc@sentry.example/1", "https://abc@sentry.example/1"},
		"virtual":    {"VIRTUAL_HOST_KEY=virtval999", "virtval999"},
		"long hex":   {"key " + strings.Repeat("deadbeef", 8), strings.Repeat("deadbeef", 8)},
		"dynamic":    {"server at 10.20.30.40:8080", "10.20.30.40"},
	}
	for name, c := range secrets {
		for _, fail := range []bool{false, true} {
			args := []byte(`{"text":` + quote(c.text) + `,"fail":` + map[bool]string{true: "true", false: "false"}[fail] + `}`)
			res, err := w.CallTool(ctx, warren.CallRequest{Name: "leak", Args: args, Session: name})
			if err != nil {
				t.Fatal(err)
			}
			all := res.ForLLM + "\n" + res.ForUser
			if res.Error != nil {
				all += "\n" + res.Error.Message
			}
			if strings.Contains(all, c.secret) || !strings.Contains(all, "[REDACTED]") {
				t.Errorf("%s (fail=%v): secret survived: %q", name, fail, all)
			}
		}
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
