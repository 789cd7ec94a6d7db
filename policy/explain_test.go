package policy

import (
	"encoding/json"
	"strings"
	"testing"
)

// wantStep is an expected line of a trace: outcome plus a detail fragment.
type wantStep struct {
	step    Step
	outcome Outcome
	detail  string
}

func TestExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     Config
		req     Request
		tool    string
		allowed bool
		steps   []wantStep
	}{
		{name: "profile removes, alsoAllow re-adds", cfg: Config{Profile: "coding", AlsoAllow: []string{"group:automation"}},
			tool: "cron", allowed: true, steps: []wantStep{
				{StepGlobalProfile, OutcomeRemoved, "global profile coding does not include cron (groups: automation, warren)"},
				{StepProviderProfile, OutcomeSkipped, `no profile override for provider ""`},
				{StepGlobalAllow, OutcomeSkipped, "global allow list is empty"},
				{StepGlobalAlsoAllow, OutcomeAdded, "re-added by global also_allow entry group:automation"},
				{StepRequestAllow, OutcomeSkipped, "no per-request allow list"},
			}},
		{name: "deny wins over alsoAllow", cfg: Config{Deny: []string{"group:runtime"}, AlsoAllow: []string{"exec"}},
			tool: "exec", allowed: false, steps: []wantStep{
				{StepGlobalProfile, OutcomeKept, "default profile full allows every registered tool"},
				{StepGlobalDeny, OutcomeRemoved, "denied by global deny entry group:runtime"},
				{StepAgentDeny, OutcomeSkipped, `no deny list for agent ""`},
				{StepGlobalAlsoAllow, OutcomeUnchanged, "global also_allow entry exec cannot override global deny entry group:runtime"},
			}},
		{name: "provider profile re-adds", cfg: Config{Profile: "minimal", ByProvider: map[string]ProviderPolicy{"openai": {Profile: "coding"}}},
			req: Request{Provider: "openai"}, tool: "exec", allowed: true, steps: []wantStep{
				{StepGlobalProfile, OutcomeRemoved, "global profile minimal does not include exec"},
				{StepProviderProfile, OutcomeAdded, "provider profile coding includes exec (entry group:runtime); it replaces the global profile"},
			}},
		{name: "request profile named as source", cfg: Config{Profile: "coding"}, req: Request{Profile: "minimal"},
			tool: "session_status", allowed: true, steps: []wantStep{
				{StepGlobalProfile, OutcomeKept, "request profile minimal includes session_status (entry session_status)"},
			}},
		{name: "allow lists", cfg: Config{
			Allow:      []string{"group:web", "exec"},
			ByProvider: map[string]ProviderPolicy{"openai": {Allow: []string{"group:web"}}},
			Agents:     map[string]AgentPolicy{"a": {Allow: []string{"web_fetch"}, ByProvider: map[string]ProviderAllow{"openai": {Allow: []string{"*"}}}}},
			ChatGroups: map[string]GroupPolicy{"g": {Allow: []string{"message"}}},
		}, req: Request{Provider: "openai", Agent: "a", ChatGroup: "g"}, tool: "web_fetch", allowed: false, steps: []wantStep{
			{StepGlobalAllow, OutcomeKept, "allowed by global allow entry group:web"},
			{StepProviderAllow, OutcomeKept, `allowed by provider "openai" allow entry group:web`},
			{StepAgentAllow, OutcomeKept, `allowed by agent "a" allow entry web_fetch`},
			{StepAgentProviderAllow, OutcomeKept, `allowed by agent "a" allow for provider "openai" entry *`},
			{StepChatGroupAllow, OutcomeRemoved, `chat group "g" allow list does not include web_fetch`},
		}},
		{name: "agent deny", cfg: Config{Agents: map[string]AgentPolicy{"a": {Deny: []string{"group:mcp:github"}}}},
			req: Request{Agent: "a"}, tool: "github_list_prs", allowed: false, steps: []wantStep{
				{StepGlobalDeny, OutcomeSkipped, "global deny list is empty"},
				{StepAgentDeny, OutcomeRemoved, `denied by agent "a" deny entry group:mcp:github`},
			}},
		{name: "subagent deny", req: Request{SubagentDepth: 1, MaxSpawnDepth: 2}, tool: "cron", allowed: false, steps: []wantStep{
			{StepSubagentDeny, OutcomeRemoved, "denied by subagent deny entry cron"},
			{StepLeafDeny, OutcomeSkipped, "depth 1 is below max spawn depth 2"},
		}},
		{name: "leaf deny", req: Request{SubagentDepth: 2, MaxSpawnDepth: 2}, tool: "spawn", allowed: false, steps: []wantStep{
			{StepSubagentDeny, OutcomeKept, "subagent deny list does not match it"},
			{StepLeafDeny, OutcomeRemoved, "denied by leaf deny entry spawn"},
		}},
		{name: "request allow", req: Request{RequestAllow: []string{"read_file"}}, tool: "exec", allowed: false, steps: []wantStep{
			{StepSubagentDeny, OutcomeSkipped, "not a subagent (depth 0)"},
			{StepLeafDeny, OutcomeSkipped, "not a subagent (depth 0)"},
			{StepRequestAllow, OutcomeRemoved, "request allow list does not include exec"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x, err := mustEngine(t, tc.cfg).Explain(tc.tool, testTools(), tc.req)
			if err != nil {
				t.Fatalf("Explain: %v", err)
			}
			if x.Allowed != tc.allowed {
				t.Fatalf("Allowed = %v, want %v\n%s", x.Allowed, tc.allowed, x)
			}
			for i, s := range x.Steps {
				if s.Step != Step(i+1) {
					t.Fatalf("step %d is %s, want pipeline order\n%s", i, s.Step, x)
				}
			}
			for _, w := range tc.steps {
				got := x.Steps[w.step-1]
				if got.Outcome != w.outcome || !strings.Contains(got.Detail, w.detail) {
					t.Errorf("%s = %s %q, want %s containing %q", w.step, got.Outcome, got.Detail, w.outcome, w.detail)
				}
			}
		})
	}
}

func TestExplainUnknownTool(t *testing.T) {
	t.Parallel()
	_, err := mustEngine(t, Config{}).Explain("ghost", testTools(), Request{})
	checkErr(t, err, ErrUnknownTool, `"ghost"`)
}

func TestExplanationRendering(t *testing.T) {
	t.Parallel()
	x, err := mustEngine(t, Config{Deny: []string{"exec"}}).Explain("exec", testTools(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	text := x.String()
	for _, want := range []string{"exec: denied (groups: runtime, warren)", " 8. global_deny", "removed", "denied by global deny entry exec", "14. request_allow"} {
		if !strings.Contains(text, want) {
			t.Errorf("String() lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n"); n != 15 {
		t.Errorf("String() has %d lines, want 15:\n%s", n, text)
	}
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"tool":"exec"`, `"allowed":false`, `"step":"global_deny"`, `"outcome":"removed"`, `"groups":["runtime","warren"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
	var back Explanation
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.String() != text {
		t.Fatalf("JSON round trip changed the report:\n%s\nvs\n%s", back, text)
	}
}

func TestEnumNames(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for s := StepGlobalProfile; s <= StepRequestAllow; s++ {
		name := s.String()
		if seen[name] || strings.HasPrefix(name, "Step(") {
			t.Fatalf("step %d has bad or duplicate name %q", s, name)
		}
		seen[name] = true
	}
	if Step(0).String() != "Step(0)" || Outcome(99).String() != "Outcome(99)" {
		t.Fatal("invalid enums must not look valid")
	}
	var s Step
	if err := s.UnmarshalText([]byte("bogus")); err == nil {
		t.Fatal("Step accepted bogus")
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("bogus")); err == nil {
		t.Fatal("Outcome accepted bogus")
	}
}
