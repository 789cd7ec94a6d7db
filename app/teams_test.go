package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// TestTeamBindings drives the Teams tab's calls against a real board: a team
// from existing agents, a task graph with blocked_by, the user's actions and
// the board's refusals as sentences.
func TestTeamBindings(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := app.New(core, app.Options{})
	for _, k := range []string{"lead", "writer"} {
		if err := a.SaveAgent(store.Agent{Key: k, Name: k, Type: store.AgentOpen}); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := a.CreateTeam(teams.Team{Key: "crew", Lead: "lead", Members: []teams.Member{{Agent: "ghost"}}}); err == nil ||
		!strings.Contains(err.Error(), "ghost") {
		t.Fatalf("a team with an unknown agent: %v", err)
	}
	tm, err := a.CreateTeam(teams.Team{Key: "crew", Name: "Crew", Lead: "lead",
		Members: []teams.Member{{Agent: "writer", Role: "writes"}}, Settings: a.DefaultTeamSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := a.Teams(); len(list) != 1 || list[0].Key != tm.Key {
		t.Fatalf("teams: %+v", list)
	}

	first, err := a.CreateTeamTask("crew", app.TeamTaskInput{Subject: "Gather", Assignee: "writer"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.CreateTeamTask("crew", app.TeamTaskInput{Subject: "Summarise", BlockedBy: []string{first.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if second.State != teams.StateBlocked {
		t.Fatalf("a task after an unfinished one is %s, want blocked", second.State)
	}
	if _, err := a.ApproveTeamTask("crew", first.ID); err == nil {
		t.Fatal("approving a task not in review should be refused")
	}
	if _, err := a.CommentTeamTask("crew", first.ID, "Use the 2025 data"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AssignTeamTask("crew", second.ID, "writer"); err != nil {
		t.Fatal(err)
	}
	got, err := a.CancelTeamTask("crew", first.ID, "not needed")
	if err != nil || got.State != teams.StateCancelled {
		t.Fatalf("cancel: %+v %v", got, err)
	}
	if got, err = a.RetryTeamTask("crew", first.ID, "", "try again"); err != nil || got.State.Finished() {
		t.Fatalf("retry: %+v %v", got, err)
	}
	all, err := a.TeamTasks("crew")
	if err != nil || len(all) != 2 {
		t.Fatalf("tasks: %+v %v", all, err)
	}
	d, err := a.TeamTask("crew", first.ID)
	if err != nil || len(d.Comments) != 2 || len(d.Events) == 0 {
		t.Fatalf("detail: %+v %v", d, err)
	}
	evs, err := a.TeamEvents("crew", 0, 0)
	if err != nil || len(evs) == 0 {
		t.Fatalf("events: %d %v", len(evs), err)
	}
	if _, err := a.TeamTasks("nope"); err == nil {
		t.Fatal("an unknown team should be refused")
	}
	if _, err := a.TalkToTeamLead("crew", "", "  "); err == nil {
		t.Fatal("an empty message should be refused")
	}
	if err := a.DeleteTeam("crew"); err != nil {
		t.Fatal(err)
	}
}
