package warren_test

import (
	"context"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// An agent on a team gets team_tasks and team_message whatever its profile;
// its own deny list still wins, and agents on no team do not get them.
func TestTeamAgentsGetTheTeamTools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	for _, a := range []store.Agent{
		{Key: "lead", Type: store.AgentOpen},
		{Key: "member", Type: store.AgentOpen},
		{Key: "refuser", Type: store.AgentOpen, Deny: []string{"team_message"}},
		{Key: "loner", Type: store.AgentOpen},
	} {
		if err := w.Store().PutAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	allowed := func(agent, tool string) bool {
		t.Helper()
		inv, err := w.Inventory(ctx, warren.InventoryRequest{Agent: agent})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range inv {
			if e.Name == tool {
				return e.Allowed
			}
		}
		t.Fatalf("%s not in the inventory", tool)
		return false
	}
	if allowed("member", "team_tasks") {
		t.Fatal("the coding profile offers team_tasks to an agent on no team")
	}
	if _, err := w.Teams().CreateTeam(ctx, teams.User(), teams.Team{Key: "crew", Lead: "lead",
		Members: []teams.Member{{Agent: "member", Role: "writes"}, {Agent: "refuser", Role: "checks"}}, Settings: teams.DefaultSettings()}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent, tool string
		want        bool
	}{
		{"lead", "team_tasks", true},
		{"member", "team_tasks", true},
		{"member", "team_message", true},
		{"refuser", "team_tasks", true},
		{"refuser", "team_message", false},
		{"loner", "team_tasks", false},
	} {
		if got := allowed(c.agent, c.tool); got != c.want {
			t.Errorf("%s may use %s: %v, want %v", c.agent, c.tool, got, c.want)
		}
	}
}
