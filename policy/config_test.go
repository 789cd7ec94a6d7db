package policy

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func checkErr(t *testing.T, err, want error, quote string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %v", want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want errors.Is %v", err, want)
	}
	if !strings.Contains(err.Error(), quote) {
		t.Fatalf("err = %q, want it to name %s", err, quote)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cfg   Config
		want  error // nil: valid
		quote string
	}{
		{name: "zero config", cfg: Config{}},
		{name: "every field valid", cfg: Config{
			Profile: "coding", Allow: []string{"*"}, Deny: []string{"group:mcp:github"}, AlsoAllow: []string{"cron"},
			ByProvider: map[string]ProviderPolicy{"openai": {Profile: "minimal", Allow: []string{"group:fs"}}},
			Agents: map[string]AgentPolicy{"coder": {Allow: []string{"exec"}, Deny: []string{"web-fetch.v2"},
				ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"group:warren"}}}}},
			ChatGroups: map[string]GroupPolicy{"g": {Allow: []string{"message"}}},
			Subagents:  SubagentPolicy{Deny: []string{"exec"}, LeafDeny: []string{"spawn"}},
		}},
		{name: "unknown global profile", cfg: Config{Profile: "codng"}, want: ErrUnknownProfile, quote: `profile: unknown profile "codng"`},
		{name: "profile names are exact", cfg: Config{Profile: "Coding"}, want: ErrUnknownProfile, quote: `"Coding"`},
		{name: "unknown provider profile", cfg: Config{ByProvider: map[string]ProviderPolicy{"openai": {Profile: "max"}}},
			want: ErrUnknownProfile, quote: `by_provider["openai"].profile: unknown profile "max"`},
		{name: "empty entry", cfg: Config{Allow: []string{"exec", ""}}, want: ErrInvalidEntry, quote: `allow[1]: malformed entry "": empty entry`},
		{name: "empty group", cfg: Config{Deny: []string{"group:"}}, want: ErrInvalidEntry, quote: `deny[0]`},
		{name: "empty mcp server", cfg: Config{Deny: []string{"group:mcp:"}}, want: ErrInvalidEntry, quote: `"group:mcp:"`},
		{name: "glob", cfg: Config{AlsoAllow: []string{"web_*"}}, want: ErrInvalidEntry, quote: `also_allow[0]: malformed entry "web_*"`},
		{name: "group glob", cfg: Config{Allow: []string{"group:mcp:*"}}, want: ErrInvalidEntry, quote: `"group:mcp:*"`},
		{name: "missing group prefix", cfg: Config{Deny: []string{"mcp:github"}}, want: ErrInvalidEntry, quote: `did you mean "group:mcp:github"`},
		{name: "whitespace", cfg: Config{Allow: []string{" exec"}}, want: ErrInvalidEntry, quote: `" exec"`},
		{name: "bad character", cfg: Config{Allow: []string{"rm -rf"}}, want: ErrInvalidEntry, quote: `"rm -rf"`},
		{name: "agent deny", cfg: Config{Agents: map[string]AgentPolicy{"coder": {Deny: []string{"a b"}}}},
			want: ErrInvalidEntry, quote: `agents["coder"].deny[0]`},
		{name: "agent provider allow", cfg: Config{Agents: map[string]AgentPolicy{"coder": {
			ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"x*"}}}}}},
			want: ErrInvalidEntry, quote: `agents["coder"].by_provider["openai"].allow[0]`},
		{name: "chat group allow", cfg: Config{ChatGroups: map[string]GroupPolicy{"g": {Allow: []string{"group:"}}}},
			want: ErrInvalidEntry, quote: `chat_groups["g"].allow[0]`},
		{name: "subagent leaf deny", cfg: Config{Subagents: SubagentPolicy{LeafDeny: []string{"*x"}}},
			want: ErrInvalidEntry, quote: `subagents.leaf_deny[0]`},
		{name: "empty agent key", cfg: Config{Agents: map[string]AgentPolicy{"": {}}}, want: ErrInvalidConfig, quote: "empty agent name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.cfg.Validate()
			_, engErr := NewEngine(tc.cfg)
			if tc.want == nil {
				if err != nil || engErr != nil {
					t.Fatalf("Validate = %v, NewEngine = %v, want nil", err, engErr)
				}
				return
			}
			checkErr(t, err, tc.want, tc.quote)
			checkErr(t, engErr, tc.want, tc.quote)
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	err := Config{Profile: "nope", Allow: []string{""}, Deny: []string{"a b"}}.Validate()
	if err == nil {
		t.Fatal("Validate = nil")
	}
	for _, want := range []string{`"nope"`, "allow[0]", "deny[0]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, missing %s", err, want)
		}
	}
	if !errors.Is(err, ErrUnknownProfile) || !errors.Is(err, ErrInvalidEntry) {
		t.Errorf("err = %v, want both kinds", err)
	}
}

func TestConfigJSON(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Profile:    "coding",
		ByProvider: map[string]ProviderPolicy{"openai": {Profile: "minimal", Allow: []string{"exec"}}},
		Deny:       []string{"group:runtime"},
		AlsoAllow:  []string{"cron"},
		Agents:     map[string]AgentPolicy{"coder": {ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"exec"}}}}},
		ChatGroups: map[string]GroupPolicy{"g": {Allow: []string{"message"}}},
		Subagents:  SubagentPolicy{LeafDeny: []string{"spawn"}},
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"by_provider"`, `"also_allow"`, `"chat_groups"`, `"leaf_deny"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, cfg) {
		t.Fatalf("round trip = %+v, want %+v", back, cfg)
	}
	if b, _ := json.Marshal(Config{}); string(b) != "{}" {
		t.Fatalf("zero config = %s, want {} (omitempty/omitzero)", b)
	}
}

func TestRequestAllowJSONKeepsEmptyList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      Request
		wantNil bool
	}{{Request{}, true}, {Request{RequestAllow: []string{}}, false}} {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		var back Request
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if (back.RequestAllow == nil) != tc.wantNil {
			t.Fatalf("%s decoded RequestAllow = %#v, want nil=%v", b, back.RequestAllow, tc.wantNil)
		}
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Allow:  []string{"*", "exec", "exce", "group:fs", "group:mcp:offline", "group:nope", "bad entry"},
		Agents: map[string]AgentPolicy{"a": {Deny: []string{"ghost"}}},
	}
	got := cfg.Warnings(testTools())
	want := []string{
		`allow[2]: "exce" matches no registered tool (did you mean exec?)`,
		`allow[5]: unknown group "nope"`,
		`agents["a"].deny[0]: "ghost" matches no registered tool`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Warnings =\n%q\nwant\n%q", got, want)
	}
}

func TestDefaultSubagentListsAreCopies(t *testing.T) {
	t.Parallel()
	DefaultSubagentDeny()[0] = "mutated"
	DefaultLeafDeny()[0] = "mutated"
	if DefaultSubagentDeny()[0] != "gateway" || DefaultLeafDeny()[0] != "sessions_list" {
		t.Fatal("default lists share state")
	}
}
