package teams_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func TestReviewFlow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	// require_approval reviews after the work: the task starts pending.
	out := must(f.st.CreateTask(ctx, call(lead, ""), teams.NewTask{Subject: "write report", Assignee: "bob", RequireApproval: true, Priority: 2}))(t)
	if out.Task.State != teams.StatePending || !slices.Equal(ids(out.Ready), []string{"T-1"}) {
		t.Fatalf("create: %+v ready %v", out.Task, ids(out.Ready))
	}
	_, err := f.st.Claim(ctx, call(carol, "T-1"))
	refused(t, err, teams.CodeConflict, "T-1 is assigned to 'bob'; only 'bob' can claim it")
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	again := must(f.st.Claim(ctx, call(bob, "T-1")))(t) // claiming your own running task is a no-op
	if again.Task.State != teams.StateInProgress {
		t.Fatalf("re-claim: %+v", again.Task)
	}
	must(f.st.Progress(ctx, call(bob, "T-1"), 30, "outline"))(t)
	must(f.st.Progress(ctx, call(bob, "T-1"), 30, "sections"))(t) // equal is fine
	out = must(f.st.Complete(ctx, call(bob, "T-1"), "report.md written"))(t)
	if out.Task.State != teams.StateInReview || out.Task.Result != "report.md written" || out.Task.Step != "sections" {
		t.Fatalf("complete with approval: %+v", out.Task)
	}
	out = must(f.st.Reject(ctx, call(lead, "T-1"), "cite the sources"))(t)
	if out.Task.State != teams.StatePending || out.Task.Owner != "bob" || !strings.Contains(out.Task.Reason, "cite the sources") ||
		!slices.Equal(ids(out.Ready), []string{"T-1"}) || out.Task.Comments != 1 {
		t.Fatalf("reject: %+v ready %v", out.Task, ids(out.Ready))
	}
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	out = must(f.st.Review(ctx, call(bob, "T-1"), "report.md with sources"))(t)
	if out.Task.State != teams.StateInReview {
		t.Fatalf("review: %s", out.Task.State)
	}
	out = must(f.st.Approve(ctx, call(user, "T-1")))(t)
	if out.Task.State != teams.StateCompleted || out.Task.Finished.IsZero() {
		t.Fatalf("approve: %+v", out.Task)
	}
	d := must(f.st.Get(ctx, call(carol, "T-1")))(t)
	var types []teams.EventType
	for _, e := range d.Events {
		types = append(types, e.Type)
	}
	want := []teams.EventType{teams.EventCreated, teams.EventClaimed, teams.EventProgress, teams.EventProgress,
		teams.EventReviewAsked, teams.EventRejected, teams.EventClaimed, teams.EventReviewAsked, teams.EventApproved}
	if !slices.Equal(types, want) {
		t.Fatalf("history %v\nwant    %v", types, want)
	}
	if e := d.Events[len(d.Events)-1]; e.ActorKind != teams.RecordUser || e.Actor != "user" {
		t.Fatalf("approve recorded as %s %s", e.ActorKind, e.Actor)
	}
	if e := d.Events[1]; e.ActorKind != teams.RecordAgent || e.Actor != "bob" {
		t.Fatalf("claim recorded as %s %s", e.ActorKind, e.Actor)
	}
	if len(d.Comments) != 1 || d.Comments[0].Text != "Rejected: cite the sources" || d.Comments[0].Author != "alice" {
		t.Fatalf("comments %+v", d.Comments)
	}
	// Every stored event was published after its commit, in order.
	var pub []teams.EventType
	for _, e := range f.published() {
		if e.Task == "T-1" {
			pub = append(pub, e.Type)
		}
	}
	if !slices.Equal(pub, want) {
		t.Fatalf("published %v", pub)
	}
}

func TestBlockerPausesAndEscalates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "fetch", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "build", Assignee: "carol", BlockedBy: []string{"T-1"}})
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	out := must(f.st.Comment(ctx, call(bob, "T-1"), "the API needs a key I do not have", teams.CommentBlocker))(t)
	tk := out.Task
	if tk.State != teams.StateBlocked || tk.Hold != teams.HoldBlocker || tk.EscalateTo != teams.EscalateLead || out.EndTurn != "bob" ||
		!strings.Contains(tk.Reason, "blocker from member 'bob': the API needs a key") {
		t.Fatalf("blocker: %+v end %q", tk, out.EndTurn)
	}
	// A paused task cannot be claimed; the lead resumes it with retry.
	_, err := f.st.Claim(ctx, call(bob, "T-1"))
	refused(t, err, teams.CodeConflict, "T-1 is blocked: blocker from member 'bob'")
	out = must(f.st.Retry(ctx, call(lead, "T-1"), teams.RetryOptions{Note: "key is in the vault now"}))(t)
	if out.Task.State != teams.StatePending || out.Task.Hold != teams.HoldNone || out.Task.Owner != "bob" || out.Task.Comments != 2 {
		t.Fatalf("retry after blocker: %+v", out.Task)
	}
	// A blocker the lead raises goes to the user; so does any blocker when escalation is off.
	out = must(f.st.Comment(ctx, call(lead, "T-1"), "needs a budget decision", teams.CommentBlocker))(t)
	if out.Task.EscalateTo != teams.EscalateUser || out.EndTurn != "" {
		t.Fatalf("lead blocker: %+v", out.Task)
	}
	tm := must(f.st.GetTeam(ctx, "core"))(t)
	tm.Settings.BlockerEscalation = false
	must(f.st.UpdateTeam(ctx, user, tm))(t)
	out = must(f.st.Assign(ctx, call(lead, "T-1"), "carol"))(t) // assigning lifts a blocker too
	if out.Task.State != teams.StatePending || out.Task.Owner != "carol" || !slices.Equal(ids(out.Ready), []string{"T-1"}) {
		t.Fatalf("assign after blocker: %+v", out.Task)
	}
	must(f.st.Claim(ctx, call(carol, "T-1")))(t)
	out = must(f.st.Comment(ctx, call(carol, "T-1"), "still no key", teams.CommentBlocker))(t)
	if out.Task.EscalateTo != teams.EscalateUser {
		t.Fatalf("blocker with escalation off went to %q", out.Task.EscalateTo)
	}
	// A note changes nothing but the comments.
	out = must(f.st.Comment(ctx, call(carol, "T-2"), "waiting on T-1", ""))(t)
	if out.Task.State != teams.StateBlocked || out.Task.Hold != teams.HoldNone || out.Task.Comments != 1 {
		t.Fatalf("note: %+v", out.Task)
	}
}

func TestAskUserAndAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "pick a colour", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "paint", BlockedBy: []string{"T-1"}})
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	out := must(f.st.AskUser(ctx, call(bob, "T-1"), "blue or green?"))(t)
	if out.Task.State != teams.StateBlocked || out.Task.Hold != teams.HoldAskUser || out.Task.EscalateTo != teams.EscalateUser ||
		out.EndTurn != "bob" || out.Task.Question != "blue or green?" {
		t.Fatalf("ask: %+v", out.Task)
	}
	out = must(f.st.Answer(ctx, call(user, "T-1"), "green"))(t)
	if out.Task.State != teams.StatePending || out.Task.Answer != "green" || out.Task.Question != "blue or green?" ||
		!slices.Equal(ids(out.Ready), []string{"T-1"}) {
		t.Fatalf("answer: %+v ready %v", out.Task, ids(out.Ready))
	}
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)
	must(f.st.AskUser(ctx, call(bob, "T-1"), "matte?"))(t)
	out = must(f.st.ClearAskUser(ctx, call(bob, "T-1")))(t)
	if out.Task.State != teams.StatePending || out.Task.Question != "" || out.Task.Hold != teams.HoldNone {
		t.Fatalf("clear: %+v", out.Task)
	}
	// A question on a task that also waits for blockers resumes to blocked.
	must(f.st.AskUser(ctx, call(lead, "T-2"), "which wall?"))(t)
	out = must(f.st.Answer(ctx, call(user, "T-2"), "north"))(t)
	if out.Task.State != teams.StateBlocked || out.Task.Reason != "waiting for T-1 (pending)" || len(out.Ready) != 0 {
		t.Fatalf("answer with blockers: %+v", out.Task)
	}
}

func TestMemberRequestsAndReassign(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	tm := must(f.st.GetTeam(ctx, "core"))(t)
	tm.Settings.AllowMemberRequests = true
	must(f.st.UpdateTeam(ctx, user, tm))(t)
	out := must(f.st.CreateTask(ctx, call(bob, ""), teams.NewTask{Subject: "please review my sources"}))(t)
	if out.Task.CreatedBy != "bob" || out.Task.CreatedByKind != teams.RecordAgent {
		t.Fatalf("member request: %+v", out.Task)
	}
	must(f.st.Claim(ctx, call(carol, "T-1")))(t)
	out = must(f.st.Assign(ctx, call(user, "T-1"), "alice"))(t) // the lead can take work too
	if out.Task.State != teams.StatePending || out.Task.Owner != "alice" || out.EndTurn != "carol" {
		t.Fatalf("reassign running: %+v end %q", out.Task, out.EndTurn)
	}
	prio := 3
	subj := "review sources (urgent)"
	out = must(f.st.UpdateTask(ctx, call(lead, "T-1"), teams.TaskUpdate{Priority: &prio, Subject: &subj}))(t)
	if out.Task.Priority != 3 || out.Task.Subject != subj {
		t.Fatalf("update: %+v", out.Task)
	}
}
