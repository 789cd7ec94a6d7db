package warren_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
)

func toolAllowed(t *testing.T, w *warren.Warren, agent, tool string) bool {
	t.Helper()
	inv, err := w.Inventory(context.Background(), warren.InventoryRequest{Agent: agent})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range inv {
		if ti.Name == tool {
			return ti.Allowed
		}
	}
	t.Fatalf("no tool %s", tool)
	return false
}

// "Allow for this agent" under a profile that leaves the tool out: only
// that agent gets it, in its runs and in the inventory, and it can be undone.
func TestAllowToolForAgentOverProfile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if _, err := w.SaveAgent(ctx, store.Agent{Key: "other", Name: "Other"}); err != nil {
		t.Fatal(err)
	}
	if err := w.SetActiveProfile(ctx, "minimal"); err != nil {
		t.Fatal(err)
	}
	x, err := w.ExplainTool(ctx, "exec", "", "default")
	if err != nil || x.Allowed || x.Summary != "exec is blocked because the profile “minimal” does not include the runtime group." {
		t.Fatalf("before: %+v %v", x, err)
	}
	x, err = w.AllowToolForAgent(ctx, "default", "exec")
	if err != nil || !x.Allowed || x.Summary != "exec is allowed: agent “default”'s also-allow list adds it back." {
		t.Fatalf("allow: %+v %v", x, err)
	}
	if !toolAllowed(t, w, "default", "exec") || toolAllowed(t, w, "other", "exec") {
		t.Fatal("the allowance did not apply to exactly the one agent")
	}
	if w.ActiveProfile() != "minimal" {
		t.Fatal("the global profile changed")
	}
	// Again: already allowed, nothing changes.
	before := w.PolicyConfig()
	if x, err := w.AllowToolForAgent(ctx, "default", "exec"); err != nil || !x.Allowed {
		t.Fatalf("again: %+v %v", x, err)
	}
	if got := w.PolicyConfig().Agents["default"].AlsoAllow; len(got) != 1 || len(before.Agents["default"].AlsoAllow) != 1 {
		t.Fatalf("also-allow %v", got)
	}
	// It survives a restart (stored), and can be undone.
	x, err = w.StopAllowingToolForAgent(ctx, "default", "exec")
	if err != nil || x.Allowed || toolAllowed(t, w, "default", "exec") {
		t.Fatalf("undo: %+v %v", x, err)
	}
	if _, ok := w.PolicyConfig().Agents["default"]; ok {
		t.Fatal("an empty agent entry was left in the policy")
	}
}

func TestAllowToolForAgentLiftsItsOwnDeny(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if _, err := w.SaveAgent(ctx, store.Agent{Key: "coder", Deny: []string{"exec", "sessions_send"}}); err != nil {
		t.Fatal(err)
	}
	x, err := w.ExplainTool(ctx, "exec", "", "coder")
	if err != nil || x.Summary != "exec is blocked because agent “coder”'s deny list denies it (entry “exec”)." {
		t.Fatalf("before: %+v %v", x, err)
	}
	if x, err = w.AllowToolForAgent(ctx, "coder", "exec"); err != nil || !x.Allowed {
		t.Fatalf("allow: %+v %v", x, err)
	}
	a, _ := w.Store().GetAgent(ctx, "coder")
	if strings.Join(a.Deny, ",") != "sessions_send" {
		t.Fatalf("deny list %v", a.Deny)
	}
	if _, ok := w.PolicyConfig().Agents["coder"]; ok {
		t.Fatal("coding includes exec: no also-allow entry was needed")
	}
	if !toolAllowed(t, w, "coder", "exec") || toolAllowed(t, w, "coder", "sessions_send") {
		t.Fatal("inventory after the change")
	}
}

func TestAllowToolForAgentRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if _, err := w.SaveAgent(ctx, store.Agent{Key: "coder", Deny: []string{"group:runtime"}}); err != nil {
		t.Fatal(err)
	}
	cfg := w.PolicyConfig()
	cfg.Deny = []string{"cron"}
	if err := w.SetPolicy(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		agent, tool, want string
	}{
		{"coder", "exec", `exec is denied to agent "coder" by its deny entry "group:runtime", which covers other tools too`},
		{"default", "cron", "cron is on the global deny list (entry “cron”), which applies to every agent"},
	}
	for _, c := range cases {
		_, err := w.AllowToolForAgent(ctx, c.agent, c.tool)
		var ce *warren.CannotAllowError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s/%s: %v", c.agent, c.tool, err)
		}
	}
	if a, _ := w.Store().GetAgent(ctx, "coder"); strings.Join(a.Deny, ",") != "group:runtime" {
		t.Fatalf("a refusal changed the deny list: %v", a.Deny)
	}
	if got := w.PolicyConfig(); len(got.Agents) != 0 {
		t.Fatalf("a refusal changed the policy: %+v", got.Agents)
	}
	if _, err := w.AllowToolForAgent(ctx, "nobody", "exec"); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
	if _, err := w.AllowToolForAgent(ctx, "default", "no_such_tool"); !errors.Is(err, policy.ErrUnknownTool) {
		t.Fatalf("unknown tool: %v", err)
	}
}
