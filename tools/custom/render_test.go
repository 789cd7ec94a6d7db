package custom

import (
	"encoding/json"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// words parses a rendered command and returns its words as the shell would
// pass them to the program (quotes removed).
func words(t testing.TB, script string) []string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatalf("rendered command does not parse: %v\n%s", err, script)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("rendered command has %d statements: %q", len(f.Stmts), script)
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(f.Stmts[0].Redirs) != 0 || f.Stmts[0].Background {
		t.Fatalf("rendered command is not one simple command: %q", script)
	}
	// Fields does the shell's quote removal; with no environment, any
	// expansion that slipped out of quotes would change the result.
	out, err := expand.Fields(&expand.Config{}, call.Args...)
	if err != nil {
		t.Fatalf("expand %q: %v", script, err)
	}
	return out
}

func TestRender(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"plain", map[string]any{"domain": "example.com", "record_type": "MX"}, []string{"dig", "+short", "MX", "example.com"}},
		{"injection", map[string]any{"domain": "x; rm -rf ~", "record_type": "$(reboot)"}, []string{"dig", "+short", "$(reboot)", "x; rm -rf ~"}},
		{"quotes", map[string]any{"domain": `it's "q" \ ` + "`id`", "record_type": "A"}, []string{"dig", "+short", "A", `it's "q" \ ` + "`id`"}},
		{"missing optional", map[string]any{"domain": "a.b"}, []string{"dig", "+short", "", "a.b"}},
		{"number and bool", map[string]any{"domain": json.Number("42"), "record_type": true}, []string{"dig", "+short", "true", "42"}},
		{"newline", map[string]any{"domain": "a\nreboot", "record_type": "A"}, []string{"dig", "+short", "A", "a\nreboot"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, err := Render("dig +short {{.record_type}} {{ .domain }}", c.args)
			if err != nil {
				t.Fatal(err)
			}
			got := words(t, out)
			if strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
				t.Fatalf("words %q, want %q (rendered %s)", got, c.want, out)
			}
		})
	}
	if _, err := Render("echo {{.x}}", map[string]any{"x": "a\x00b"}); err == nil {
		t.Fatal("NUL accepted")
	}
}

// FuzzRender: whatever the argument, it arrives as exactly one word with
// exactly its value — it can never add commands, words or expansions.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "a b", "'", `'\''`, "$(id)", "`id`", "a;b", "\n", "$HOME", "*", "\\", `"`, "{{.x}}", "'$(x)'\"", "\t\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsRune(v, 0) {
			if _, err := Render("printf %s {{.v}}", map[string]any{"v": v}); err == nil {
				t.Fatal("NUL accepted")
			}
			return
		}
		out, err := Render("printf %s {{.v}} end", map[string]any{"v": v})
		if err != nil {
			t.Fatal(err)
		}
		got := words(t, out)
		if len(got) != 4 || got[2] != v || got[3] != "end" {
			t.Fatalf("value %q became words %q", v, got)
		}
	})
}

func TestValidate(t *testing.T) {
	t.Parallel()
	good := Definition{
		Name: "dns_lookup", Description: "Look up DNS records", Command: "dig +short {{.record_type}} {{.domain}}",
		Parameters: json.RawMessage(`{"type":"object","properties":{"domain":{"type":"string"},"record_type":{"type":"string","enum":["A","MX"]}},"required":["domain"]}`),
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := func(mut func(*Definition), want string) {
		t.Helper()
		d := good
		mut(&d)
		err := d.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want error containing %q, got %v", want, err)
		}
	}
	bad(func(d *Definition) { d.Name = "Bad-Name" }, "name")
	bad(func(d *Definition) { d.Description = " " }, "description")
	bad(func(d *Definition) { d.Command = "echo {{.nope}}" }, "do not define nope")
	bad(func(d *Definition) { d.Command = "echo {{range .x}}" }, "only {{.name}} placeholders")
	bad(func(d *Definition) { d.Parameters = json.RawMessage(`[1]`) }, "not a JSON schema")
	bad(func(d *Definition) { d.Parameters = json.RawMessage(`{"type":"string"}`) }, `"type": "object"`)
	bad(func(d *Definition) { d.TimeoutSeconds = 99999 }, "timeout_seconds")
	bad(func(d *Definition) { d.Env = map[string]string{"BAD-NAME": "x"} }, "env name")
}
