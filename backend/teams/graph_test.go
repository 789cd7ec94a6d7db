package teams_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func blockedBy(ids ...string) *[]string { return &ids }

func TestCycleRefusedWithTheCycleNamed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "one"})
	f.create(t, teams.NewTask{Subject: "two", BlockedBy: []string{"T-1"}})
	f.create(t, teams.NewTask{Subject: "three", BlockedBy: []string{"T-1", "T-2"}})
	f.create(t, teams.NewTask{Subject: "four", BlockedBy: []string{"T-3"}})
	cases := []struct {
		task  string
		to    []string
		cycle string
	}{
		{"T-1", []string{"T-1"}, "T-1 → T-1"},
		{"T-1", []string{"T-3"}, "T-1 → T-3 → T-1"},
		{"T-1", []string{"T-4"}, "T-1 → T-4 → T-3 → T-1"},
		{"T-2", []string{"t-4"}, "T-2 → T-4 → T-3 → T-2"},
	}
	for _, c := range cases {
		_, err := f.st.UpdateTask(ctx, call(lead, c.task), teams.TaskUpdate{BlockedBy: &c.to})
		refused(t, err, teams.CodeInvalid, "blocked_by would make a cycle: "+c.cycle)
	}
	if got := f.get(t, "T-1"); len(got.BlockedBy) != 0 || got.State != teams.StatePending {
		t.Fatalf("refused cycle left T-1 %+v", got)
	}
	// A diamond is not a cycle.
	out := must(f.st.UpdateTask(ctx, call(lead, "T-4"), teams.TaskUpdate{BlockedBy: blockedBy("T-3", "T-2", "T-2")}))(t)
	if !slices.Equal(out.Task.BlockedBy, []string{"T-2", "T-3"}) || out.Task.State != teams.StateBlocked {
		t.Fatalf("diamond: %+v", out.Task)
	}
}

func TestCompletionReadiesDependents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "research", Assignee: "bob"})
	two := must(f.st.CreateTask(ctx, call(lead, ""), teams.NewTask{Subject: "outline", Assignee: "carol", BlockedBy: []string{"T-1"}}))(t)
	if two.Task.State != teams.StateBlocked || !strings.Contains(two.Task.Reason, "waiting for T-1 (pending)") || len(two.Ready) != 0 {
		t.Fatalf("T-2 on create: %+v ready %v", two.Task, ids(two.Ready))
	}
	f.create(t, teams.NewTask{Subject: "draft", BlockedBy: []string{"T-1", "T-2"}})
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	out := must(f.st.Complete(ctx, call(bob, "T-1"), "found 12 papers"))(t)
	if out.Task.State != teams.StateCompleted || out.Task.Progress != 100 || !slices.Equal(ids(out.Ready), []string{"T-2"}) {
		t.Fatalf("complete T-1: %s ready %v", out.Task.State, ids(out.Ready))
	}
	if out.Ready[0].Owner != "carol" {
		t.Fatalf("ready task lost its assignee: %+v", out.Ready[0])
	}
	if three := f.get(t, "T-3"); three.State != teams.StateBlocked || three.Reason != "waiting for T-2 (pending)" {
		t.Fatalf("T-3 after T-1: %s %q", three.State, three.Reason)
	}
	must(f.st.Claim(ctx, call(carol, "T-2")))(t)
	out = must(f.st.Complete(ctx, call(lead, "T-2"), "outline ready"))(t)
	if !slices.Equal(ids(out.Ready), []string{"T-3"}) {
		t.Fatalf("complete T-2 readied %v", ids(out.Ready))
	}
	ev := must(f.st.Events(ctx, call(user, ""), teams.EventFilter{Task: "T-3"}))(t)
	if last := ev[len(ev)-1]; last.Type != teams.EventReady || last.ActorKind != teams.RecordSystem || !strings.Contains(string(last.Data), "T-2") {
		t.Fatalf("T-3's last event: %+v", last)
	}
	// Retrying a completed blocker sends its waiting dependents back to blocked.
	out = must(f.st.Retry(ctx, call(user, "T-2"), teams.RetryOptions{Note: "add a conclusion"}))(t)
	if out.Task.State != teams.StatePending || out.Task.Result != "outline ready" || !slices.Equal(ids(out.Ready), []string{"T-2"}) {
		t.Fatalf("retry completed T-2: %+v ready %v", out.Task, ids(out.Ready))
	}
	if three := f.get(t, "T-3"); three.State != teams.StateBlocked {
		t.Fatalf("T-3 after retrying T-2: %s", three.State)
	}
}

func TestFailedOrCancelledBlockerKeepsDependentsBlocked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "fetch data", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "analyse", BlockedBy: []string{"T-1"}})
	f.create(t, teams.NewTask{Subject: "chart", BlockedBy: []string{"T-2"}})
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	out := must(f.st.Fail(ctx, call(sys, "T-1"), "disk full"))(t)
	if out.Task.State != teams.StateFailed || out.Task.Reason != "disk full" || out.EndTurn != "bob" {
		t.Fatalf("fail: %+v end %q", out.Task, out.EndTurn)
	}
	if !slices.Equal(ids(out.Stuck), []string{"T-2"}) || len(out.Ready) != 0 {
		t.Fatalf("stuck %v ready %v", ids(out.Stuck), ids(out.Ready))
	}
	two := f.get(t, "T-2")
	for _, want := range []string{"waiting for T-1 (failed: disk full)", "retry it", "blocked_by", "cancel this task"} {
		if two.State != teams.StateBlocked || !strings.Contains(two.Reason, want) {
			t.Fatalf("T-2 %s %q lacks %q", two.State, two.Reason, want)
		}
	}
	if three := f.get(t, "T-3"); three.State != teams.StateBlocked || three.Reason != "waiting for T-2 (blocked)" {
		t.Fatalf("T-3: %s %q", three.State, three.Reason)
	}
	// Retry clears the stuck reason; completion then readies T-2.
	out = must(f.st.Retry(ctx, call(lead, "T-1"), teams.RetryOptions{Assignee: "carol", Note: "use the mirror"}))(t)
	if out.Task.Owner != "carol" || out.Task.DispatchCount != 0 || !slices.Equal(ids(out.Ready), []string{"T-1"}) {
		t.Fatalf("retry: %+v", out.Task)
	}
	if two := f.get(t, "T-2"); two.Reason != "waiting for T-1 (pending)" {
		t.Fatalf("T-2 after retry: %q", two.Reason)
	}
	must(f.st.Claim(ctx, call(carol, "T-1")))(t)
	out = must(f.st.Complete(ctx, call(carol, "T-1"), "fetched"))(t)
	if !slices.Equal(ids(out.Ready), []string{"T-2"}) {
		t.Fatalf("ready after retry+complete: %v", ids(out.Ready))
	}
	// Cancelling a blocker strands its dependents the same way.
	out = must(f.st.Cancel(ctx, call(user, "T-2"), "not needed"))(t)
	if !slices.Equal(ids(out.Stuck), []string{"T-3"}) || !strings.Contains(f.get(t, "T-3").Reason, "T-2 (cancelled: not needed)") {
		t.Fatalf("cancel: stuck %v, T-3 %q", ids(out.Stuck), f.get(t, "T-3").Reason)
	}
	// Dropping the dead blocker readies the dependent at once.
	out = must(f.st.UpdateTask(ctx, call(lead, "T-3"), teams.TaskUpdate{BlockedBy: blockedBy()}))(t)
	if out.Task.State != teams.StatePending || !slices.Equal(ids(out.Ready), []string{"T-3"}) {
		t.Fatalf("update blocked_by: %+v ready %v", out.Task, ids(out.Ready))
	}
}

func TestBlockedByStaysInTeam(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	must(f.st.CreateTeam(ctx, user, teams.Team{Key: "side", Lead: "dave", Settings: teams.DefaultSettings()}))(t)
	dave := teams.Actor{Kind: teams.ActorLead, Name: "dave"}
	for range 3 {
		must(f.st.CreateTask(ctx, teams.Call{Team: "side", By: dave}, teams.NewTask{Subject: "side work"}))(t)
	}
	f.create(t, teams.NewTask{Subject: "core work"})
	// T-3 exists only in "side": "core" cannot wait for it.
	_, err := f.st.CreateTask(ctx, call(lead, ""), teams.NewTask{Subject: "x", BlockedBy: []string{"T-3"}})
	refused(t, err, teams.CodeNotFound, "blocked_by: task T-3 does not exist in team 'core'")
	// Ids are per team: the next core task is T-2.
	if id := f.create(t, teams.NewTask{Subject: "y", BlockedBy: []string{"T-1"}}); id != "T-2" {
		t.Fatalf("next core id %s", id)
	}
	// A running task cannot start waiting for unfinished work.
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	f.create(t, teams.NewTask{Subject: "z"})
	_, err = f.st.UpdateTask(ctx, call(lead, "T-1"), teams.TaskUpdate{BlockedBy: blockedBy("T-3")})
	refused(t, err, teams.CodeConflict, "T-1 is in_progress; it cannot start waiting for T-3 (pending)")
}
