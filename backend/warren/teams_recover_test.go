package warren_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

func soloCrew(t *testing.T, alice llmtest.Cassette, st teams.Settings) *crew {
	t.Helper()
	return newCrew(t, t.TempDir(), map[string]llmtest.Cassette{"lead": {}, "alice": alice},
		[]teams.Member{{Agent: "alice", Role: "researcher"}}, st)
}

func userTask(t *testing.T, w *warren.Warren, subject, assignee string) teams.Task {
	t.Helper()
	out, err := w.Teams().CreateTask(context.Background(), teams.Call{Team: "crew", By: teams.User()},
		teams.NewTask{Subject: subject, Assignee: assignee})
	if err != nil {
		t.Fatal(err)
	}
	return out.Task
}

// TestTeamMemberFinalReplyCompletesTask: a member that never calls complete
// gets its task completed from its final reply, and the member's prompt
// carries its team section.
func TestTeamMemberFinalReplyCompletesTask(t *testing.T) {
	t.Parallel()
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{text("T-1 for you", "The answer is 42.")}}, teams.DefaultSettings())
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	task := userTask(t, c.w, "find the answer", "alice")
	done := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateCompleted })
	if done.Result != "The answer is 42." || done.DispatchCount != 1 {
		t.Fatalf("completed %+v", done)
	}
	body := string(c.srv["alice"].Requests()[0].Body)
	if !strings.Contains(body, "member of team crew") || !strings.Contains(body, "researcher") {
		t.Fatalf("member prompt lacks its team section: %.600s", body)
	}
}

// TestTeamRunErrorFailsTask: a member turn that fails fails its task with
// the reason.
func TestTeamRunErrorFailsTask(t *testing.T) {
	t.Parallel()
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 400, Body: `{"error":{"message":"model not loaded"}}`}},
		Chunks: []string{"never"}, FinishReason: "stop"}}}, teams.DefaultSettings())
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	task := userTask(t, c.w, "find the answer", "alice")
	failed := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateFailed })
	if !strings.Contains(failed.Reason, "turn failed") || !strings.Contains(failed.Reason, "model not loaded") {
		t.Fatalf("failed with %q", failed.Reason)
	}
}

// TestTeamRestartRecovery: a task left in progress by a process that died
// is dispatched again once its heartbeat is older than one interval; one
// dispatched more than max_dispatches times fails with the reason.
func TestTeamRestartRecovery(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.MaxDispatches = 2
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{text("T-1 for you", "Recovered.")}}, st)
	ctx := context.Background()
	t1 := userTask(t, c.w, "survive a crash", "alice")
	t2 := userTask(t, c.w, "crash too often", "alice")
	// The dead process had dispatched T-1 once and T-2 twice.
	for _, id := range []string{t1.ID, t2.ID, t2.ID} {
		if _, err := c.w.Teams().MarkDispatched(ctx, "crew", id); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond) // older than one heartbeat interval
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: 200 * time.Millisecond, Debounce: time.Hour})
	done := waitTask(t, c.w, "crew", t1.ID, func(t teams.Task) bool { return t.State == teams.StateCompleted })
	if done.DispatchCount != 2 || done.Result != "Recovered." {
		t.Fatalf("recovered %+v", done)
	}
	failed := waitTask(t, c.w, "crew", t2.ID, func(t teams.Task) bool { return t.State == teams.StateFailed })
	if !strings.Contains(failed.Reason, "dispatched 2 times") {
		t.Fatalf("over the limit: %q", failed.Reason)
	}
}

// TestTeamCancelEndsTurn: the user cancels a task while its member works;
// the member's turn stops and the task stays cancelled.
func TestTeamCancelEndsTurn(t *testing.T) {
	t.Parallel()
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "T-1 for you", Faults: []llmtest.Fault{{Status: 503, RetryAfter: 30}}, Chunks: []string{"late"}, FinishReason: "stop"},
	}}, teams.DefaultSettings())
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	task := userTask(t, c.w, "take forever", "alice")
	waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateInProgress })
	deadline := time.Now().Add(5 * time.Second)
	for len(c.srv["alice"].Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := c.w.Teams().Cancel(context.Background(), teams.Call{Team: "crew", Task: task.ID, By: teams.User()}, "not needed"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	got := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateCancelled })
	if got.Result != "" {
		t.Fatalf("a cancelled turn completed the task: %+v", got)
	}
}

// TestTeamTimeout: a task in progress past the team's timeout fails with
// the reason, and its turn stops.
func TestTeamTimeout(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.TaskTimeoutSec = 1
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "T-1 for you", Faults: []llmtest.Fault{{Status: 503, RetryAfter: 30}}, Chunks: []string{"late"}, FinishReason: "stop"},
	}}, st)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: 200 * time.Millisecond, Debounce: time.Hour})
	slow := userTask(t, c.w, "take forever", "alice")
	failed := waitTask(t, c.w, "crew", slow.ID, func(t teams.Task) bool { return t.State == teams.StateFailed })
	if !strings.Contains(failed.Reason, "timed out") {
		t.Fatalf("timeout reason %q", failed.Reason)
	}
}

// TestTeamStale: a task nobody can take (the team has no members) goes
// stale after the threshold, and lead and user are told.
func TestTeamStale(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.StalePendingSec = 1
	c := newCrew(t, t.TempDir(), map[string]llmtest.Cassette{"lead": {Turns: []llmtest.Turn{
		text("is stale", "I will reassign it."),
	}}}, nil, st)
	ns := watchNotices(t, c.w, nil)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: 200 * time.Millisecond, Debounce: 50 * time.Millisecond})
	task := userTask(t, c.w, "nobody takes this", "")
	waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateStale })
	deadline := time.Now().Add(10 * time.Second)
	for c.srv["lead"].Remaining() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if c.srv["lead"].Remaining() != 0 || !ns.has(warren.NoticeStale, "pending") {
		t.Fatalf("lead turns left %d, notices %+v", c.srv["lead"].Remaining(), ns.all)
	}
}

// TestTeamBlockerToUserAndAutoAssign: with blocker escalation off, a
// member's blocker goes to the user, not the lead; an unassigned task goes
// to the idle member.
func TestTeamBlockerToUserAndAutoAssign(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.BlockerEscalation = false
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{
		tool("T-1 for you", teamCall("b1", map[string]any{"action": "comment", "task_id": "T-1", "type": "blocker", "text": "need a key"})),
	}}, st)
	ns := watchNotices(t, c.w, nil)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: 20 * time.Millisecond})
	task := userTask(t, c.w, "open the vault", "")
	got := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.Hold == teams.HoldBlocker })
	if got.Owner != "alice" || got.EscalateTo != teams.EscalateUser {
		t.Fatalf("blocked %+v", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !ns.has(warren.NoticeBlocker, "need a key") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !ns.has(warren.NoticeBlocker, "need a key") {
		t.Fatal("the user was not told about the blocker")
	}
	if n := len(c.srv["lead"].Requests()); n != 0 {
		t.Fatalf("the lead was called %d times for a blocker meant for the user", n)
	}
}

// TestTeamLeadFailureReachesUser: when the lead's model fails on a
// blocker, the user gets the blocker instead.
func TestTeamLeadFailureReachesUser(t *testing.T) {
	t.Parallel()
	c := newCrew(t, t.TempDir(), map[string]llmtest.Cassette{
		"lead": {Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 400}}, Chunks: []string{"never"}}}},
		"alice": {Turns: []llmtest.Turn{
			tool("T-1 for you", teamCall("b1", map[string]any{"action": "comment", "task_id": "T-1", "type": "blocker", "text": "disk full"})),
		}},
	}, []teams.Member{{Agent: "alice"}}, teams.DefaultSettings())
	ns := watchNotices(t, c.w, nil)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: 20 * time.Millisecond})
	userTask(t, c.w, "clean up", "alice")
	deadline := time.Now().Add(10 * time.Second)
	for !ns.has(warren.NoticeLeadFailed, "disk full") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !ns.has(warren.NoticeLeadFailed, "disk full") {
		t.Fatal("the blocker did not reach the user when the lead failed")
	}
}

// TestTeamTwoLoopsRunEachTaskOnce: the window and `warren teams run` may
// both run a team loop on one database; each task still runs once.
func TestTeamTwoLoopsRunEachTaskOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cas := map[string]llmtest.Cassette{"lead": {}}
	var members []teams.Member
	for _, m := range []string{"ann", "ben", "cat", "dan"} {
		cas[m] = llmtest.Cassette{Turns: []llmtest.Turn{text("T-", "done by "+m)}}
		members = append(members, teams.Member{Agent: m})
	}
	c := newCrew(t, dir, cas, members, teams.DefaultSettings())
	other := open(t, dir)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	startLoop(t, other, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	var ids []string
	for i, m := range members {
		ids = append(ids, userTask(t, []*warren.Warren{c.w, other}[i%2], "work for "+m.Agent, m.Agent).ID)
	}
	for _, id := range ids {
		got := waitTask(t, c.w, "crew", id, func(t teams.Task) bool { return t.State == teams.StateCompleted })
		if got.DispatchCount > 2 {
			t.Errorf("%s dispatched %d times", id, got.DispatchCount)
		}
	}
	time.Sleep(200 * time.Millisecond)
	for _, m := range members {
		if n := len(c.srv[m.Agent].Requests()); n != 1 {
			t.Errorf("%s's model was called %d times", m.Agent, n)
		}
	}
}

// TestTeamPausedStartsNothing: a paused team's tasks wait; unpaused, they run.
func TestTeamPausedStartsNothing(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.Paused = true
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{text("T-1 for you", "Done after the pause.")}}, st)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	task := userTask(t, c.w, "wait for the go", "alice")
	// A negative check needs a wait: the loop has seen the task by then.
	time.Sleep(500 * time.Millisecond)
	ctx := context.Background()
	got, err := c.w.Teams().Get(ctx, teams.Call{Team: "crew", Task: task.ID, By: teams.User()})
	if err != nil {
		t.Fatal(err)
	}
	if got.Task.State != teams.StatePending || got.Task.DispatchCount != 0 || len(c.srv["alice"].Requests()) != 0 {
		t.Fatalf("a paused team started %+v (%d model requests)", got.Task, len(c.srv["alice"].Requests()))
	}
	tm, err := c.w.Teams().GetTeam(ctx, "crew")
	if err != nil {
		t.Fatal(err)
	}
	tm.Settings.Paused = false
	if _, err := c.w.Teams().UpdateTeam(ctx, teams.User(), tm); err != nil {
		t.Fatal(err)
	}
	done := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateCompleted })
	if done.Result != "Done after the pause." {
		t.Fatalf("completed %+v", done)
	}
}
