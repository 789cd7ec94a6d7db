package teams_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func TestTeamValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	good := func() teams.Team {
		return teams.Team{Key: "docs", Lead: "alice", Settings: teams.DefaultSettings(), Members: []teams.Member{{Agent: "bob"}}}
	}
	cases := []struct {
		name string
		by   teams.Actor
		edit func(*teams.Team)
		code teams.Code
		want string
	}{
		{"bad key", user, func(tm *teams.Team) { tm.Key = "Docs Team" }, teams.CodeInvalid, "team key"},
		{"no lead", user, func(tm *teams.Team) { tm.Lead = " " }, teams.CodeInvalid, "needs a lead"},
		{"unknown lead", user, func(tm *teams.Team) { tm.Lead = "zed" }, teams.CodeNotFound, "agent 'zed' does not exist"},
		{"unknown member", user, func(tm *teams.Team) { tm.Members = append(tm.Members, teams.Member{Agent: "yan"}) }, teams.CodeNotFound, "agent 'yan' does not exist"},
		{"lead as member", user, func(tm *teams.Team) { tm.Members = append(tm.Members, teams.Member{Agent: "alice"}) }, teams.CodeInvalid, "is the lead"},
		{"member twice", user, func(tm *teams.Team) { tm.Members = append(tm.Members, teams.Member{Agent: "bob"}) }, teams.CodeInvalid, "listed twice"},
		{"two-line role", user, func(tm *teams.Team) { tm.Members[0].Role = "a\nb" }, teams.CodeInvalid, "one line"},
		{"zero dispatches", user, func(tm *teams.Team) { tm.Settings.MaxDispatches = 0 }, teams.CodeInvalid, "max_dispatches"},
		{"negative timeout", user, func(tm *teams.Team) { tm.Settings.TaskTimeoutSec = -1 }, teams.CodeInvalid, "cannot be negative"},
		{"relative workspace", user, func(tm *teams.Team) { tm.Workspace = "rel/dir" }, teams.CodeInvalid, "absolute"},
		{"agent creates", lead, func(*teams.Team) {}, teams.CodeDenied, "only the user can create or edit teams"},
		{"exists", user, func(tm *teams.Team) { tm.Key = "core" }, teams.CodeConflict, "already exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := good()
			c.edit(&tm)
			_, err := f.st.CreateTeam(ctx, c.by, tm)
			refused(t, err, c.code, c.want)
		})
	}
	if _, err := f.st.GetTeam(ctx, "docs"); teams.CodeOf(err) != teams.CodeNotFound {
		t.Fatalf("a refused team was stored: %v", err)
	}
	_, err := f.st.UpdateTeam(ctx, user, teams.Team{Key: "nope", Lead: "alice", Settings: teams.DefaultSettings()})
	refused(t, err, teams.CodeNotFound, "team 'nope' does not exist")
}

func TestTeamCRUD(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("agent-%02d", i))
	}
	st, db := openStore(t, t.TempDir(), teams.Config{AgentExists: knownAgents(names...), WorkspaceRoot: "/srv/teams"})
	// No caps: many members, many teams.
	big := teams.Team{Key: "big", Name: "Big team", Lead: "alice", Settings: teams.DefaultSettings()}
	for _, n := range names {
		big.Members = append(big.Members, teams.Member{Agent: n, Role: "role of " + n})
	}
	got := must(st.CreateTeam(ctx, user, big))(t)
	if len(got.Members) != 40 || got.Members[39].Agent != "agent-39" || got.Workspace != "/srv/teams/big" || got.Name != "Big team" {
		t.Fatalf("created team: %d members, workspace %q", len(got.Members), got.Workspace)
	}
	for i := range 12 {
		must(st.CreateTeam(ctx, user, teams.Team{Key: fmt.Sprintf("t%02d", i), Lead: "bob", Settings: teams.DefaultSettings(),
			Members: []teams.Member{{Agent: "agent-01"}}}))(t)
	}
	if all := must(st.ListTeams(ctx))(t); len(all) != 13 || all[0].Key != "big" {
		t.Fatalf("list: %d teams", len(all))
	}
	if of := must(st.TeamsOf(ctx, "agent-01"))(t); len(of) != 13 {
		t.Fatalf("agent-01 is in %d teams, want 13", len(of))
	}
	if a := must(st.ActorFor(ctx, "big", "alice"))(t); a.Kind != teams.ActorLead {
		t.Fatalf("alice in big: %+v", a)
	}
	if a := must(st.ActorFor(ctx, "big", "agent-07"))(t); a.Kind != teams.ActorMember {
		t.Fatalf("agent-07 in big: %+v", a)
	}
	_, err := st.ActorFor(ctx, "big", "carol")
	refused(t, err, teams.CodeDenied, "not in it")

	got.Lead, got.LeadRole = "carol", "runs it"
	got.Members = got.Members[:2]
	got.Settings.BlockerEscalation = false
	upd := must(st.UpdateTeam(ctx, user, got))(t)
	if upd.Lead != "carol" || len(upd.Members) != 2 || upd.Settings.BlockerEscalation || upd.LeadRole != "runs it" {
		t.Fatalf("updated: %+v", upd)
	}
	must(st.CreateTask(ctx, teams.Call{Team: "big", By: teams.Actor{Kind: teams.ActorLead, Name: "carol"}}, teams.NewTask{Subject: "x"}))(t)
	if err := st.DeleteTeam(ctx, user, "big"); err != nil {
		t.Fatal(err)
	}
	refused(t, st.DeleteTeam(ctx, user, "big"), teams.CodeNotFound, "does not exist")
	// The cascade reaches the search index too.
	var indexed int
	if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM team_tasks_fts").Scan(&indexed); err != nil || indexed != 0 {
		t.Fatalf("search index after delete: %d rows, %v", indexed, err)
	}
	_, err = st.List(ctx, teams.Call{Team: "big", By: user}, teams.ListFilter{})
	refused(t, err, teams.CodeNotFound, "team 'big' does not exist")
	refused(t, st.DeleteTeam(ctx, teams.Actor{Kind: teams.ActorLead, Name: "bob"}, "t01"), teams.CodeDenied, "only the user")
}

func TestTeamNeedsAgentDirectory(t *testing.T) {
	t.Parallel()
	st, _ := openStore(t, t.TempDir(), teams.Config{})
	_, err := st.CreateTeam(context.Background(), user, teams.Team{Key: "x", Lead: "alice", Settings: teams.DefaultSettings()})
	if err == nil || !strings.Contains(err.Error(), "no agent directory") {
		t.Fatalf("team created without an agent check: %v", err)
	}
}
