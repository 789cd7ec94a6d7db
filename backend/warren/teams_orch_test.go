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

func create(id, subject, assignee string, blockedBy ...string) llmtest.ToolCall {
	args := map[string]any{"action": "create", "subject": subject, "assignee": assignee}
	if len(blockedBy) > 0 {
		args["blocked_by"] = blockedBy
	}
	return teamCall(id, args)
}

// TestTeamScenario is issue 11's scenario: the lead builds a 4-task graph
// with blocked_by; members work in parallel; bob raises a blocker the lead
// resolves with retry; carol asks the user, who answers; alice forgets to
// call complete; the lead writes the synthesis into the request's chat.
func TestTeamScenario(t *testing.T) {
	t.Parallel()
	lead := llmtest.Cassette{Concurrent: true, Turns: []llmtest.Turn{
		tool("report on the moon", create("c1", "gather moon facts", "alice")),
		tool("created T-1", create("c2", "outline the report", "bob")),
		tool("created T-2", create("c3", "check the sources", "carol", "T-1")),
		tool("created T-3", create("c4", "write the report", "bob", "T-2", "T-3")),
		text("created T-4", "The team is on it."),
		tool("blocker raised by bob", teamCall("r1", map[string]any{"action": "retry", "task_id": "T-2", "text": "audience: engineers"})),
		text("retried T-2", "Retried T-2 with the audience."),
		text("Every task of this request has finished", "SYNTHESIS: the moon report is done."),
		text("[Team crew update]", "Noted."),
		text("[Team crew update]", "Noted."),
		text("[Team crew update]", "Noted."),
		text("[Team crew update]", "Noted."),
	}}
	alice := llmtest.Cassette{Turns: []llmtest.Turn{text("T-1 for you", "Facts: the moon is 384,400 km away.")}}
	bob := llmtest.Cassette{Turns: []llmtest.Turn{
		tool("T-2 for you", teamCall("b1", map[string]any{"action": "comment", "task_id": "T-2", "type": "blocker", "text": "who is the audience?"})),
		text("audience: engineers", "Outline: distance, orbit, tides."),
		text("Result of T-3", "Report: the moon is far and checked."),
	}}
	carol := llmtest.Cassette{Turns: []llmtest.Turn{
		tool("384,400", teamCall("k1", map[string]any{"action": "ask_user", "task_id": "T-3", "text": "Which source do you trust?"})),
		tool("The user answered: NASA", teamCall("k2", map[string]any{"action": "complete", "task_id": "T-3", "result": "Checked against NASA."})),
		text("completed T-3", "Done."),
	}}
	c := newCrew(t, t.TempDir(), map[string]llmtest.Cassette{"lead": lead, "alice": alice, "bob": bob, "carol": carol},
		[]teams.Member{{Agent: "alice", Role: "researcher"}, {Agent: "bob", Role: "writer"}, {Agent: "carol", Role: "checker"}},
		teams.DefaultSettings())
	ctx := context.Background()
	ns := watchNotices(t, c.w, func(n warren.TeamNotice) {
		if n.Kind == warren.NoticeAskUser {
			go func() {
				if _, err := c.w.Teams().Answer(ctx, teams.Call{Team: n.Team, Task: n.Task, By: teams.User()}, "NASA"); err != nil {
					t.Errorf("answer: %v", err)
				}
			}()
		}
	})
	startLoop(t, c.w, warren.TeamLoopOptions{Heartbeat: time.Second, Debounce: 100 * time.Millisecond})
	res, err := c.w.RunTeamRequest(ctx, warren.TeamRequest{Team: "crew", Prompt: "Write a report on the moon."}, nil)
	if err != nil {
		t.Fatalf("first lead turn: %+v %v", res, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := c.w.WaitTeamRequest(wctx, res.Session)
	if err != nil {
		t.Fatalf("wait: %v", err)
	}
	if len(out.Tasks) != 4 || len(out.Failed) != 0 {
		t.Fatalf("request result %+v", out)
	}
	for _, id := range []string{"T-1", "T-2", "T-3", "T-4"} {
		task := waitTask(t, c.w, "crew", id, func(t teams.Task) bool { return t.State == teams.StateCompleted })
		if task.Result == "" {
			t.Errorf("%s has no result", id)
		}
	}
	if !ns.has(warren.NoticeAskUser, "Which source") || !ns.has(warren.NoticeRequestDone, "4 task") {
		t.Errorf("notices %+v", ns.all)
	}
	hist, err := c.w.Sessions().History(ctx, res.Session, 0)
	if err != nil {
		t.Fatal(err)
	}
	if last := hist[len(hist)-1]; last.Role != "assistant" || !strings.Contains(last.Content, "SYNTHESIS") {
		for _, m := range hist {
			t.Logf("%s: %.300s", m.Role, m.Content)
		}
		t.Fatalf("the chat does not end with the synthesis: %+v", last)
	}
	body := string(c.srv["lead"].Requests()[0].Body)
	if !strings.Contains(body, "TEAM.md") || !strings.Contains(body, "bob — writer (model: m-bob)") || !strings.Contains(body, "blocked_by") {
		t.Errorf("the lead's system prompt lacks TEAM.md: %.800s", body)
	}
	for _, m := range []string{"alice", "bob", "carol"} {
		if n := c.srv[m].Remaining(); n != 0 {
			t.Errorf("%s has %d turns left", m, n)
		}
	}
}
