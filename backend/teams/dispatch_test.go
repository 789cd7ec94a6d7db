package teams_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/teams"
)

func TestDispatchCountFailsPastTheLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "flaky", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "after", BlockedBy: []string{"T-1"}})
	f.create(t, teams.NewTask{Subject: "nobody's"})
	_, err := f.st.MarkDispatched(ctx, "core", "T-3")
	refused(t, err, teams.CodeConflict, "T-3 has no owner")
	for i := 1; i <= 3; i++ {
		out := must(f.st.MarkDispatched(ctx, "core", "T-1"))(t)
		if out.Task.State != teams.StateInProgress || out.Task.DispatchCount != i || out.Task.DispatchedAt.IsZero() {
			t.Fatalf("dispatch %d: %+v", i, out.Task)
		}
	}
	out := must(f.st.MarkDispatched(ctx, "core", "T-1"))(t)
	if out.Task.State != teams.StateFailed || out.Task.DispatchCount != 3 ||
		!strings.Contains(out.Task.Reason, "dispatched 3 times without finishing (the team allows 3)") {
		t.Fatalf("fourth dispatch: %+v", out.Task)
	}
	if !slices.Equal(ids(out.Stuck), []string{"T-2"}) {
		t.Fatalf("stuck %v", ids(out.Stuck))
	}
	_, err = f.st.MarkDispatched(ctx, "core", "T-1")
	refused(t, err, teams.CodeConflict, "T-1 is failed")
	// Retry starts a fresh dispatch budget.
	must(f.st.Retry(ctx, call(lead, "T-1"), teams.RetryOptions{}))(t)
	if out := must(f.st.MarkDispatched(ctx, "core", "T-1"))(t); out.Task.DispatchCount != 1 {
		t.Fatalf("after retry: %+v", out.Task)
	}
	ev := must(f.st.Events(ctx, call(user, ""), teams.EventFilter{Task: "T-1"}))(t)
	var dispatched int
	for _, e := range ev {
		if e.Type == teams.EventDispatched {
			dispatched++
			if e.ActorKind != teams.RecordSystem {
				t.Fatalf("dispatch recorded as %s", e.ActorKind)
			}
		}
	}
	if dispatched != 4 {
		t.Fatalf("%d dispatch events", dispatched)
	}
}

func TestOrphansAndOverdue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "a", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "b", Assignee: "carol"})
	must(f.st.MarkDispatched(ctx, "core", "T-1"))(t)
	must(f.st.MarkDispatched(ctx, "core", "T-2"))(t)
	f.clock.Advance(20 * time.Second)
	if err := f.st.Heartbeat(ctx, "core", "T-2"); err != nil {
		t.Fatal(err)
	}
	orphans := must(f.st.Orphans(ctx, 15*time.Second))(t)
	if !slices.Equal(ids(orphans), []string{"T-1"}) {
		t.Fatalf("orphans %v", ids(orphans))
	}
	refused(t, f.st.Heartbeat(ctx, "core", "T-9"), teams.CodeConflict, "T-9 in team 'core' is not in progress")
	if over := must(f.st.Overdue(ctx))(t); len(over) != 0 {
		t.Fatalf("overdue too early: %v", ids(over))
	}
	f.clock.Advance(30 * time.Minute)
	if over := must(f.st.Overdue(ctx))(t); !slices.Equal(ids(over), []string{"T-1", "T-2"}) {
		t.Fatalf("overdue %v", ids(over))
	}
	// A re-dispatch restarts the timeout.
	must(f.st.MarkDispatched(ctx, "core", "T-2"))(t)
	if over := must(f.st.Overdue(ctx))(t); !slices.Equal(ids(over), []string{"T-1"}) {
		t.Fatalf("overdue after re-dispatch %v", ids(over))
	}
}

func TestStaleDetection(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "waits forever"})
	f.create(t, teams.NewTask{Subject: "needs approval", Assignee: "bob", RequireApproval: true})
	f.create(t, teams.NewTask{Subject: "depends", BlockedBy: []string{"T-1"}})
	must(f.st.Claim(ctx, call(bob, "T-2")))(t)
	must(f.st.Complete(ctx, call(bob, "T-2"), "done, please check"))(t)
	_, err := f.st.MarkStale(ctx, "core", "T-1")
	refused(t, err, teams.CodeConflict, "T-1 is not stale")
	f.clock.Advance(23 * time.Hour)
	if c := must(f.st.StaleCandidates(ctx))(t); len(c) != 0 {
		t.Fatalf("stale after 23h: %v", ids(c))
	}
	f.clock.Advance(2 * time.Hour)
	cands := must(f.st.StaleCandidates(ctx))(t)
	if !slices.Equal(ids(cands), []string{"T-1", "T-2"}) {
		t.Fatalf("candidates %v", ids(cands))
	}
	out := must(f.st.MarkStale(ctx, "core", "T-1"))(t)
	if out.Task.State != teams.StateStale || !strings.Contains(out.Task.Reason, "pending without being started for 25h0m0s") ||
		!slices.Equal(ids(out.Stuck), []string{"T-3"}) {
		t.Fatalf("stale T-1: %+v stuck %v", out.Task, ids(out.Stuck))
	}
	out = must(f.st.MarkStale(ctx, "core", "T-2"))(t)
	if out.Task.State != teams.StateStale || !strings.Contains(out.Task.Reason, "in review") {
		t.Fatalf("stale T-2: %+v", out.Task)
	}
	_, err = f.st.MarkStale(ctx, "core", "T-3")
	refused(t, err, teams.CodeConflict, "only pending or in-review tasks go stale")
	// Stale tasks are retried or reassigned, not claimed.
	_, err = f.st.Claim(ctx, call(bob, "T-1"))
	refused(t, err, teams.CodeConflict, "T-1 is stale")
	out = must(f.st.Assign(ctx, call(lead, "T-1"), "carol"))(t)
	if out.Task.State != teams.StatePending || out.Task.Owner != "carol" {
		t.Fatalf("assign stale: %+v", out.Task)
	}
	// Thresholds of 0 turn detection off.
	tm := must(f.st.GetTeam(ctx, "core"))(t)
	tm.Settings.StalePendingSec, tm.Settings.StaleReviewSec = 0, 0
	must(f.st.UpdateTeam(ctx, user, tm))(t)
	f.clock.Advance(100 * time.Hour)
	if c := must(f.st.StaleCandidates(ctx))(t); len(c) != 0 {
		t.Fatalf("stale with detection off: %v", ids(c))
	}
}
