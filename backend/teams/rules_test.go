package teams_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

// board sets up T-1 in progress with bob (50%), T-2 in review with carol,
// T-3 pending and unassigned, T-4 completed by bob, T-5 waiting on bob's
// question to the user.
func board(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "draft the plan", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "write the intro", Assignee: "carol", RequireApproval: true})
	f.create(t, teams.NewTask{Subject: "collect sources"})
	f.create(t, teams.NewTask{Subject: "old work", Assignee: "bob"})
	f.create(t, teams.NewTask{Subject: "ask about scope", Assignee: "bob"})
	for _, step := range []func() (teams.Outcome, error){
		func() (teams.Outcome, error) { return f.st.Claim(ctx, call(bob, "T-1")) },
		func() (teams.Outcome, error) { return f.st.Progress(ctx, call(bob, "T-1"), 50, "reading") },
		func() (teams.Outcome, error) { return f.st.Claim(ctx, call(carol, "T-2")) },
		func() (teams.Outcome, error) { return f.st.Complete(ctx, call(carol, "T-2"), "intro written") },
		func() (teams.Outcome, error) { return f.st.Claim(ctx, call(bob, "T-4")) },
		func() (teams.Outcome, error) { return f.st.Complete(ctx, call(bob, "T-4"), "done") },
		func() (teams.Outcome, error) { return f.st.AskUser(ctx, call(bob, "T-5"), "how long should it be?") },
	} {
		must(step())(t)
	}
	want := map[string]teams.State{"T-1": teams.StateInProgress, "T-2": teams.StateInReview, "T-3": teams.StatePending,
		"T-4": teams.StateCompleted, "T-5": teams.StateBlocked}
	for id, st := range want {
		if got := f.get(t, id); got.State != st {
			t.Fatalf("setup: %s is %s, want %s", id, got.State, st)
		}
	}
	return f
}

// snapshot is the whole board as JSON, to prove refusals change nothing.
func snapshot(t *testing.T, f *fixture) string {
	t.Helper()
	page := must(f.st.List(context.Background(), call(user, ""), teams.ListFilter{Limit: 100}))(t)
	b, _ := json.Marshal(page)
	return string(b)
}

func TestPermissionRules(t *testing.T) {
	t.Parallel()
	f := board(t)
	ctx := context.Background()
	dave := teams.Actor{Kind: teams.ActorMember, Name: "dave"}
	before, published := snapshot(t, f), len(f.published())
	cases := []struct {
		name string
		do   func() error
		code teams.Code
		want string
	}{
		{"member creates", func() error { _, err := f.st.CreateTask(ctx, call(bob, ""), teams.NewTask{Subject: "x"}); return err },
			teams.CodeDenied, "only the lead or the user can create tasks in team 'core' (members can when the team allows requests); you are member 'bob'"},
		{"outsider creates", func() error { _, err := f.st.CreateTask(ctx, call(dave, ""), teams.NewTask{Subject: "x"}); return err },
			teams.CodeDenied, "you are agent 'dave', which is not in it"},
		{"member poses as lead", func() error {
			_, err := f.st.CreateTask(ctx, call(teams.Actor{Kind: teams.ActorLead, Name: "bob"}, ""), teams.NewTask{Subject: "x"})
			return err
		}, teams.CodeDenied, "'bob' is a member of team 'core', not its lead ('alice')"},
		{"unknown actor kind", func() error { _, err := f.st.Claim(ctx, call(teams.Actor{Kind: "boss", Name: "x"}, "T-3")); return err },
			teams.CodeInvalid, "unknown actor kind"},
		{"user claims", func() error { _, err := f.st.Claim(ctx, call(user, "T-3")); return err },
			teams.CodeDenied, "only the team's agents can claim; you are the user"},
		{"non-owner completes", func() error { _, err := f.st.Complete(ctx, call(carol, "T-1"), "r"); return err },
			teams.CodeDenied, "only the lead or the task's owner can complete T-1; you are member 'carol'"},
		{"user completes", func() error { _, err := f.st.Complete(ctx, call(user, "T-1"), "r"); return err },
			teams.CodeDenied, "only the lead or the task's owner can complete T-1; you are the user"},
		{"non-owner reviews", func() error { _, err := f.st.Review(ctx, call(carol, "T-1"), ""); return err },
			teams.CodeDenied, "only the task's owner can send T-1 to review"},
		{"owner approves own work", func() error { _, err := f.st.Approve(ctx, call(carol, "T-2")); return err },
			teams.CodeDenied, "only the lead or the user can approve T-2; you are member 'carol'"},
		{"member rejects", func() error { _, err := f.st.Reject(ctx, call(bob, "T-2"), "no"); return err },
			teams.CodeDenied, "only the lead or the user can reject T-2"},
		{"owner cancels", func() error { _, err := f.st.Cancel(ctx, call(bob, "T-1"), "bored"); return err },
			teams.CodeDenied, "only the lead or the user can cancel T-1; you are member 'bob'"},
		{"non-owner fails", func() error { _, err := f.st.Fail(ctx, call(carol, "T-1"), "x"); return err },
			teams.CodeDenied, "only the lead, the task's owner or Warren can fail T-1"},
		{"member assigns", func() error { _, err := f.st.Assign(ctx, call(bob, "T-3"), "bob"); return err },
			teams.CodeDenied, "only the lead or the user can assign T-3"},
		{"member updates", func() error {
			s := "new"
			_, err := f.st.UpdateTask(ctx, call(carol, "T-3"), teams.TaskUpdate{Subject: &s})
			return err
		}, teams.CodeDenied, "only the lead or the user can update T-3"},
		{"member retries", func() error { _, err := f.st.Retry(ctx, call(bob, "T-4"), teams.RetryOptions{}); return err },
			teams.CodeDenied, "only the lead or the user can retry T-4"},
		{"non-owner blocker", func() error {
			_, err := f.st.Comment(ctx, call(carol, "T-1"), "stuck", teams.CommentBlocker)
			return err
		},
			teams.CodeDenied, "only the task's owner or the lead can raise a blocker on T-1"},
		{"non-owner progress", func() error { _, err := f.st.Progress(ctx, call(carol, "T-1"), 90, ""); return err },
			teams.CodeDenied, "only the task's owner or the lead can report progress on T-1"},
		{"non-owner attaches", func() error { _, err := f.st.Attach(ctx, call(carol, "T-1"), "x.md"); return err },
			teams.CodeDenied, "only the lead, the user or the task's owner can attach files to T-1"},
		{"non-owner asks", func() error { _, err := f.st.AskUser(ctx, call(carol, "T-1"), "q?"); return err },
			teams.CodeDenied, "only the task's owner or the lead can ask the user about T-1"},
		{"non-owner clears question", func() error { _, err := f.st.ClearAskUser(ctx, call(carol, "T-5")); return err },
			teams.CodeDenied, "only the task's owner, the lead or the user can clear the question on T-5"},
		{"lead answers", func() error { _, err := f.st.Answer(ctx, call(lead, "T-5"), "short"); return err },
			teams.CodeDenied, "only the user answers questions asked with ask_user on T-5; you are the lead 'alice'"},
		{"user reads a mailbox", func() error { _, err := f.st.Read(ctx, call(user, "")); return err },
			teams.CodeDenied, "only the team's agents have a mailbox"},
		{"outsider lists", func() error { _, err := f.st.List(ctx, call(dave, ""), teams.ListFilter{}); return err },
			teams.CodeDenied, "not in it"},
		{"outsider searches", func() error { _, err := f.st.Search(ctx, call(dave, ""), "plan", 5); return err },
			teams.CodeDenied, "not in it"},
		{"outsider messages", func() error { _, err := f.st.Send(ctx, call(dave, ""), "bob", "hi"); return err },
			teams.CodeDenied, "not in it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refused(t, c.do(), c.code, c.want) })
	}
	if after := snapshot(t, f); after != before {
		t.Fatalf("refused actions changed the board:\nbefore %s\nafter  %s", before, after)
	}
	if n := len(f.published()); n != published {
		t.Fatalf("refused actions published %d events", n-published)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	f := board(t)
	ctx := context.Background()
	before := snapshot(t, f)
	create := func(in teams.NewTask) func() error {
		return func() error { _, err := f.st.CreateTask(ctx, call(lead, ""), in); return err }
	}
	neg, empty := -1, ""
	cases := []struct {
		name string
		do   func() error
		code teams.Code
		want string
	}{
		{"empty subject", create(teams.NewTask{Subject: "  "}), teams.CodeInvalid, "subject is required"},
		{"long subject", create(teams.NewTask{Subject: strings.Repeat("é", 501)}), teams.CodeInvalid, "subject is 501 characters; the limit is 500"},
		{"priority too high", create(teams.NewTask{Subject: "x", Priority: 4}), teams.CodeInvalid, "priority 4 is out of range"},
		{"unknown assignee", create(teams.NewTask{Subject: "x", Assignee: "zed"}), teams.CodeNotFound, "assignee 'zed' is not in team 'core'"},
		{"assignee outside team", create(teams.NewTask{Subject: "x", Assignee: "dave"}), teams.CodeNotFound, "assignee 'dave' is not in team 'core'"},
		{"blocked_by garbage", create(teams.NewTask{Subject: "x", BlockedBy: []string{"X"}}), teams.CodeInvalid, `blocked_by: task id "X" is not a task id`},
		{"blocked_by missing", create(teams.NewTask{Subject: "x", BlockedBy: []string{"T-99"}}), teams.CodeNotFound, "blocked_by: task T-99 does not exist in team 'core'"},
		{"task id zero", func() error { _, err := f.st.Claim(ctx, call(bob, "T-0")); return err }, teams.CodeInvalid, `"T-0" is not a task id`},
		{"task id words", func() error { _, err := f.st.Claim(ctx, call(bob, "the first one")); return err }, teams.CodeInvalid, "use the form T-12"},
		{"no such task", func() error { _, err := f.st.Claim(ctx, call(bob, "T-42")); return err }, teams.CodeNotFound, "task T-42 does not exist in team 'core'"},
		{"no such team", func() error { _, err := f.st.Claim(ctx, teams.Call{Team: "nope", Task: "T-1", By: bob}); return err }, teams.CodeNotFound, "team 'nope' does not exist"},
		{"claim taken", func() error { _, err := f.st.Claim(ctx, call(carol, "T-1")); return err }, teams.CodeConflict, "T-1 was already claimed by 'bob'"},
		{"claim assigned to other", func() error { _, err := f.st.Claim(ctx, call(carol, "T-5")); return err }, teams.CodeConflict, "T-5 is blocked"},
		{"claim completed", func() error { _, err := f.st.Claim(ctx, call(bob, "T-4")); return err }, teams.CodeConflict, "T-4 is already completed"},
		{"comment type", func() error { _, err := f.st.Comment(ctx, call(bob, "T-1"), "x", "urgent"); return err }, teams.CodeInvalid, `comment type "urgent" is not known`},
		{"empty comment", func() error { _, err := f.st.Comment(ctx, call(bob, "T-1"), " ", teams.CommentNote); return err }, teams.CodeInvalid, "a comment needs text"},
		{"progress over 100", func() error { _, err := f.st.Progress(ctx, call(bob, "T-1"), 101, ""); return err }, teams.CodeInvalid, "percent 101 is out of range"},
		{"progress down", func() error { _, err := f.st.Progress(ctx, call(bob, "T-1"), 40, ""); return err }, teams.CodeInvalid, "progress never goes down: T-1 is at 50%, you sent 40%"},
		{"progress when pending", func() error { _, err := f.st.Progress(ctx, call(lead, "T-3"), 10, ""); return err }, teams.CodeConflict, "progress is reported on a task in progress"},
		{"reject without reason", func() error { _, err := f.st.Reject(ctx, call(lead, "T-2"), ""); return err }, teams.CodeInvalid, "reject needs a reason"},
		{"reject not in review", func() error { _, err := f.st.Reject(ctx, call(lead, "T-1"), "no"); return err }, teams.CodeConflict, "only a task in review can be rejected"},
		{"approve not in review", func() error { _, err := f.st.Approve(ctx, call(user, "T-1")); return err }, teams.CodeConflict, "only a task in review can be approved"},
		{"complete without result", func() error { _, err := f.st.Complete(ctx, call(bob, "T-1"), ""); return err }, teams.CodeInvalid, "complete needs a result"},
		{"complete in review", func() error { _, err := f.st.Complete(ctx, call(lead, "T-2"), "r"); return err }, teams.CodeConflict, "T-2 is waiting for review"},
		{"update nothing", func() error { _, err := f.st.UpdateTask(ctx, call(lead, "T-3"), teams.TaskUpdate{}); return err }, teams.CodeInvalid, "update needs at least one of"},
		{"update bad priority", func() error {
			_, err := f.st.UpdateTask(ctx, call(lead, "T-3"), teams.TaskUpdate{Priority: &neg})
			return err
		}, teams.CodeInvalid, "priority -1 is out of range"},
		{"update empty subject", func() error {
			_, err := f.st.UpdateTask(ctx, call(lead, "T-3"), teams.TaskUpdate{Subject: &empty})
			return err
		}, teams.CodeInvalid, "subject is required"},
		{"unassign running task", func() error {
			_, err := f.st.UpdateTask(ctx, call(lead, "T-1"), teams.TaskUpdate{Assignee: &empty})
			return err
		}, teams.CodeConflict, "reassign or cancel it instead"},
		{"cancel completed", func() error { _, err := f.st.Cancel(ctx, call(lead, "T-4"), ""); return err }, teams.CodeConflict, "T-4 is already completed"},
		{"retry running", func() error { _, err := f.st.Retry(ctx, call(lead, "T-1"), teams.RetryOptions{}); return err }, teams.CodeConflict, "retry is for failed, stale, cancelled or completed tasks"},
		{"retry to outsider", func() error {
			_, err := f.st.Retry(ctx, call(lead, "T-4"), teams.RetryOptions{Assignee: "dave"})
			return err
		}, teams.CodeNotFound, "assignee 'dave' is not in team 'core'"},
		{"assign completed", func() error { _, err := f.st.Assign(ctx, call(lead, "T-4"), "carol"); return err }, teams.CodeConflict, "use retry with an assignee"},
		{"assign nobody", func() error { _, err := f.st.Assign(ctx, call(lead, "T-3"), ""); return err }, teams.CodeInvalid, "assign needs an assignee"},
		{"answer without question", func() error { _, err := f.st.Answer(ctx, call(user, "T-1"), "yes"); return err }, teams.CodeConflict, "T-1 has no open question"},
		{"empty answer", func() error { _, err := f.st.Answer(ctx, call(user, "T-5"), ""); return err }, teams.CodeInvalid, "answer needs text"},
		{"clear without question", func() error { _, err := f.st.ClearAskUser(ctx, call(bob, "T-1")); return err }, teams.CodeConflict, "no open question"},
		{"ask without question", func() error { _, err := f.st.AskUser(ctx, call(bob, "T-1"), ""); return err }, teams.CodeInvalid, "ask_user needs a question"},
		{"fail without reason", func() error { _, err := f.st.Fail(ctx, call(bob, "T-1"), ""); return err }, teams.CodeInvalid, "fail needs a reason"},
		{"list bad status", func() error {
			_, err := f.st.List(ctx, call(bob, ""), teams.ListFilter{States: []teams.State{"done-ish"}})
			return err
		}, teams.CodeInvalid, `status "done-ish" is not a task state`},
		{"list bad order", func() error { _, err := f.st.List(ctx, call(bob, ""), teams.ListFilter{Order: "random"}); return err }, teams.CodeInvalid, `order "random" is not known`},
		{"list negative offset", func() error { _, err := f.st.List(ctx, call(bob, ""), teams.ListFilter{Offset: -1}); return err }, teams.CodeInvalid, "offset"},
		{"search no words", func() error { _, err := f.st.Search(ctx, call(bob, ""), " !! ", 5); return err }, teams.CodeInvalid, "at least one word"},
		{"message outsider", func() error { _, err := f.st.Send(ctx, call(bob, ""), "zed", "hi"); return err }, teams.CodeNotFound, "recipient 'zed' is not in team 'core'"},
		{"message self", func() error { _, err := f.st.Send(ctx, call(bob, ""), "bob", "hi"); return err }, teams.CodeInvalid, "to yourself"},
		{"empty message", func() error { _, err := f.st.Broadcast(ctx, call(bob, ""), " "); return err }, teams.CodeInvalid, "a message needs text"},
		{"events bad id", func() error { _, err := f.st.Events(ctx, call(bob, ""), teams.EventFilter{Task: "x"}); return err }, teams.CodeInvalid, "not a task id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refused(t, c.do(), c.code, c.want) })
	}
	if after := snapshot(t, f); after != before {
		t.Fatalf("bad input changed the board:\nbefore %s\nafter  %s", before, after)
	}
	// The id forms a model may write all name the same task.
	for _, id := range []string{"T-3", "t-3", "3", "#3", " T-3 "} {
		if got := f.get(t, id); got.ID != "T-3" {
			t.Fatalf("%q read %s", id, got.ID)
		}
	}
}
