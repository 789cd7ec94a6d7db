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

func member(name string) teams.Call {
	return teams.Call{Team: "crew", By: teams.Actor{Kind: teams.ActorMember, Name: name}}
}

// waitRequests polls until srv has received n requests.
func waitRequests(t *testing.T, srv *llmtest.Server, n int) []llmtest.Recorded {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if rs := srv.Requests(); len(rs) >= n {
			return rs
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the model got %d requests, want %d", len(srv.Requests()), n)
	return nil
}

func waitUnread(t *testing.T, w *warren.Warren, who string, want int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	n := -1
	for time.Now().Before(deadline) {
		var err error
		if n, err = w.Teams().Unread(context.Background(), member(who)); err == nil && n == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s has %d unread messages, want %d", who, n, want)
}

// TestTeamMessageWakesIdleMember: a message to an idle member starts a
// turn of its own with the message in context ("[Team message from lead
// lead] …"), marks it read for that member only, and leaves the board alone.
func TestTeamMessageWakesIdleMember(t *testing.T) {
	t.Parallel()
	c := newCrew(t, t.TempDir(), map[string]llmtest.Cassette{
		"lead":  {},
		"alice": {Turns: []llmtest.Turn{text("[Team message from lead lead] Please check the logs.", "Checked: all quiet.")}},
		"bob":   {},
	}, []teams.Member{{Agent: "alice", Role: "ops"}, {Agent: "bob", Role: "writer"}}, teams.DefaultSettings())
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	if _, err := c.w.Teams().Send(context.Background(), member("lead"), "alice", "Please check the logs."); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, c.srv["alice"], 1)
	waitUnread(t, c.w, "alice", 0)
	if n := len(c.srv["bob"].Requests()); n != 0 {
		t.Fatalf("bob was woken by a message to alice (%d requests)", n)
	}
	page, err := c.w.Teams().List(context.Background(), teams.Call{Team: "crew", By: teams.User()}, teams.ListFilter{})
	if err != nil || len(page.Tasks) != 0 {
		t.Fatalf("a message made tasks: %+v %v", page.Tasks, err)
	}
}

// TestTeamMessageToLeadAndBroadcast: a member's message reaches the lead in
// a turn of the lead's; a broadcast wakes every other member, and each reads
// it on its own.
func TestTeamMessageToLeadAndBroadcast(t *testing.T) {
	t.Parallel()
	c := newCrew(t, t.TempDir(), map[string]llmtest.Cassette{
		"lead": {Turns: []llmtest.Turn{text("[Team message from alice] The build is red.", "Noted."),
			text("[Team broadcast from the user] Freeze at noon.", "Freezing.")}},
		"alice": {Turns: []llmtest.Turn{text("[Team broadcast from the user] Freeze at noon.", "Understood.")}},
		"bob":   {Turns: []llmtest.Turn{text("[Team broadcast from the user] Freeze at noon.", "Understood.")}},
	}, []teams.Member{{Agent: "alice", Role: "ops"}, {Agent: "bob", Role: "writer"}}, teams.DefaultSettings())
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: 10 * time.Millisecond})
	ctx := context.Background()
	if _, err := c.w.Teams().Send(ctx, member("alice"), "lead", "The build is red."); err != nil {
		t.Fatal(err)
	}
	body := string(waitRequests(t, c.srv["lead"], 1)[0].Body)
	if !strings.Contains(body, "[Team message from alice] The build is red.") {
		t.Fatalf("the lead's turn lacks the message: %.400s", body)
	}
	waitUnread(t, c.w, "lead", 0)
	// The user's broadcast reaches the lead and both members, each on
	// its own.
	if _, err := c.w.Teams().Broadcast(ctx, teams.Call{Team: "crew", By: teams.User()}, "Freeze at noon."); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"alice", "bob"} {
		waitRequests(t, c.srv[a], 1)
		waitUnread(t, c.w, a, 0)
	}
	waitRequests(t, c.srv["lead"], 2)
	waitUnread(t, c.w, "lead", 0)
}

// TestTeamMessageReachesRunningTurn: a message to a member in the middle of
// a task's turn goes into that turn before its next model call, not into a
// second turn beside it.
func TestTeamMessageReachesRunningTurn(t *testing.T) {
	t.Parallel()
	progress := teamCall("p1", map[string]any{"action": "progress", "task_id": "T-1", "percent": 50, "step": "halfway"})
	c := soloCrew(t, llmtest.Cassette{Turns: []llmtest.Turn{
		tool("Task T-1 for you", progress),
		text("Use the staging data.", "Done with staging data."),
	}}, teams.DefaultSettings())
	arrived, release := c.srv["alice"].Hold(1)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: time.Hour})
	task := userTask(t, c.w, "load the data", "alice")
	<-arrived // alice's turn waits on its first model answer
	if _, err := c.w.Teams().Send(context.Background(), teams.Call{Team: "crew", By: teams.User()}, "alice", "Use the staging data."); err != nil {
		t.Fatal(err)
	}
	waitUnread(t, c.w, "alice", 0) // handed to the running turn
	release()
	done := waitTask(t, c.w, "crew", task.ID, func(t teams.Task) bool { return t.State == teams.StateCompleted })
	if done.Result != "Done with staging data." {
		t.Fatalf("completed with %q", done.Result)
	}
	if n := len(c.srv["alice"].Requests()); n != 2 {
		t.Fatalf("alice's model got %d requests, want 2 (one turn)", n)
	}
}

// TestTeamAskReminder: a question the user leaves unanswered is repeated
// after the team's reminder interval.
func TestTeamAskReminder(t *testing.T) {
	t.Parallel()
	st := teams.DefaultSettings()
	st.AskReminderSec = 1
	st.Paused = true // no turns: the test plays alice itself
	c := soloCrew(t, llmtest.Cassette{}, st)
	n := watchNotices(t, c.w, nil)
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: 200 * time.Millisecond, Debounce: time.Hour})
	task := userTask(t, c.w, "pick a colour", "alice")
	ctx := context.Background()
	if _, err := c.w.Teams().Claim(ctx, teams.Call{Team: "crew", Task: task.ID, By: member("alice").By}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.w.Teams().AskUser(ctx, teams.Call{Team: "crew", Task: task.ID, By: member("alice").By}, "Red or blue?"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !n.has(warren.NoticeAskUser, "Reminder: alice still waits for your answer: Red or blue?") {
		if time.Now().After(deadline) {
			t.Fatalf("no reminder; notices: %+v", n.all)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := c.w.Teams().RemindAsk(ctx, "crew", task.ID); err == nil || !strings.Contains(err.Error(), "reminds after 1s") {
		t.Fatalf("a reminder right after the last one: %v", err)
	}
}
