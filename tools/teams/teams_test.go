package teams_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	board "github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools"
	teamtools "github.com/warren-dev/warren/tools/teams"
)

type env struct {
	st       *board.SQLStore
	tasks    tools.Tool
	message  tools.Tool
	mu       sync.Mutex
	outcomes []board.Outcome
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	known := map[string]bool{"alice": true, "bob": true, "carol": true, "dave": true}
	e := &env{st: board.New(db, board.Config{AgentExists: func(_ context.Context, k string) (bool, error) { return known[k], nil }})}
	ts, err := teamtools.Tools(teamtools.Deps{Store: e.st, OnOutcome: func(_ context.Context, _ string, out board.Outcome) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.outcomes = append(e.outcomes, out)
	}})
	if err != nil {
		t.Fatal(err)
	}
	e.tasks, e.message = ts[0], ts[1]
	_, err = e.st.CreateTeam(context.Background(), board.User(), board.Team{Key: "core", Lead: "alice",
		Settings: board.DefaultSettings(), Members: []board.Member{{Agent: "bob", Role: "research"}, {Agent: "carol", Role: "writing"}}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// run calls a tool as agent and returns its result.
func run(t *testing.T, tool tools.Tool, agent, args string) tools.Result {
	t.Helper()
	ctx := tools.WithCallContext(context.Background(), tools.CallContext{Agent: agent})
	r, err := tool.Execute(ctx, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: Go error %v", tool.Info().Name, args, err)
	}
	return r
}

func ok(t *testing.T, r tools.Result, want ...string) {
	t.Helper()
	if r.IsError {
		t.Fatalf("error result: %s", r.ForLLM)
	}
	for _, w := range want {
		if !strings.Contains(r.ForLLM, w) {
			t.Fatalf("result %q lacks %q", r.ForLLM, w)
		}
	}
}

func refused(t *testing.T, r tools.Result, code tools.ErrorCode, want string) {
	t.Helper()
	if !r.IsError || r.Code() != code || !strings.Contains(r.ForLLM, want) {
		t.Fatalf("want %s containing %q, got %+v", code, want, r)
	}
}

func TestSchemaUsesTheSeedNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	raw, err := json.Marshal(e.tasks.Info().Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"action", "task_id", "subject", "description", "assignee", "priority", "blocked_by",
		"require_approval", "result", "text", "type", "percent", "path", "query", "status"} {
		if !strings.Contains(string(raw), `"`+name+`"`) {
			t.Fatalf("team_tasks schema lacks %s: %s", name, raw)
		}
	}
	if g := e.tasks.Info().Group; g != "teams" || e.message.Info().Group != "teams" || e.tasks.Info().LongDescription == "" {
		t.Fatalf("group %q", g)
	}
}

func TestBoardThroughTheTool(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok(t, run(t, e.tasks, "alice", `{"action":"create","subject":"collect sources","assignee":"bob","priority":2}`), "created T-1", "@bob")
	ok(t, run(t, e.tasks, "alice", `{"action":"create","subject":"write summary","blocked_by":["T-1"]}`), "T-2 [blocked]", "waiting for T-1")
	refused(t, run(t, e.tasks, "bob", `{"action":"create","subject":"x"}`), tools.CodePermission,
		"only the lead or the user can create tasks in team 'core'")
	refused(t, run(t, e.tasks, "alice", `{"action":"update","task_id":"T-1","blocked_by":["T-2"]}`), tools.CodeValidation,
		"blocked_by would make a cycle: T-1 → T-2 → T-1")
	ok(t, run(t, e.tasks, "carol", `{"action":"list"}`), "2 of 2 tasks", "T-1 [pending] p2 @bob")
	ok(t, run(t, e.tasks, "bob", `{"action":"claim","task_id":"T-1"}`), "claimed T-1")
	refused(t, run(t, e.tasks, "carol", `{"action":"claim","task_id":"T-1"}`), tools.CodeExecution, "already claimed by 'bob'")
	ok(t, run(t, e.tasks, "bob", `{"action":"progress","task_id":"T-1","percent":60,"text":"reading"}`), "60%")
	refused(t, run(t, e.tasks, "bob", `{"action":"progress","task_id":"T-1","percent":10}`), tools.CodeValidation, "never goes down")
	refused(t, run(t, e.tasks, "bob", `{"action":"progress","task_id":"T-1"}`), tools.CodeValidation, "progress needs percent")
	ok(t, run(t, e.tasks, "bob", `{"action":"complete","task_id":"T-1","result":"12 sources in sources.md"}`),
		"completed T-1", "Ready to start now: T-2 (unassigned: any member can claim it)")
	ok(t, run(t, e.tasks, "carol", `{"action":"search","query":"sources"}`), "T-1 [completed]", "best first")
	ok(t, run(t, e.tasks, "carol", `{"action":"get","task_id":"t-1"}`), "result: 12 sources", "history", "completed by bob")
	ok(t, run(t, e.tasks, "carol", `{"action":"claim","task_id":"T-2"}`))
	ok(t, run(t, e.tasks, "carol", `{"action":"comment","task_id":"T-2","text":"sources.md is empty","type":"blocker"}`),
		"The lead has been told", "Stop working on T-2 now")
	ok(t, run(t, e.tasks, "alice", `{"action":"retry","task_id":"T-2","assignee":"bob","text":"bob fixes the sources"}`),
		"retried T-2", "Ready to start now: T-2 (assigned to bob)")
	ok(t, run(t, e.tasks, "alice", `{"action":"update","task_id":"T-2","blocked_by":[]}`), "updated T-2")
	ok(t, run(t, e.tasks, "alice", `{"action":"list","status":"done"}`), "1 of 1 tasks", "T-1 [completed]")
	refused(t, run(t, e.tasks, "alice", `{"action":"list","status":"finished"}`), tools.CodeValidation, `status "finished" is not known`)
	refused(t, run(t, e.tasks, "alice", `{"action":"claim"}`), tools.CodeValidation, "claim needs task_id")
	refused(t, run(t, e.tasks, "alice", `{"action":"fly","task_id":"T-1"}`), tools.CodeValidation, "unknown action")
	refused(t, run(t, e.tasks, "alice", `{"action":"get","task_id":"T-9"}`), tools.CodeNotFound, "T-9 does not exist")
	e.mu.Lock()
	n := len(e.outcomes)
	e.mu.Unlock()
	// create ×2, claim ×2, progress, complete, comment, retry, update; refusals report nothing.
	if n != 9 {
		t.Fatalf("OnOutcome called %d times, want 9", n)
	}
}

func TestTeamResolution(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refused(t, run(t, e.tasks, "dave", `{"action":"list"}`), tools.CodePermission, "agent 'dave' is not on any team")
	refused(t, run(t, e.tasks, "", `{"action":"list"}`), tools.CodeValidation, "agent context")
	if _, err := e.st.CreateTeam(context.Background(), board.User(), board.Team{Key: "side", Lead: "dave",
		Settings: board.DefaultSettings(), Members: []board.Member{{Agent: "bob"}}}); err != nil {
		t.Fatal(err)
	}
	refused(t, run(t, e.tasks, "bob", `{"action":"list"}`), tools.CodeValidation, "several teams (core, side): pass team")
	ok(t, run(t, e.tasks, "bob", `{"action":"list","team":"side"}`), "no tasks match")
	refused(t, run(t, e.tasks, "carol", `{"action":"list","team":"side"}`), tools.CodePermission, "not in it")
}

func TestMailboxThroughTheTool(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok(t, run(t, e.message, "alice", `{"action":"broadcast","text":"kick-off at 10"}`), "to bob, carol")
	ok(t, run(t, e.message, "bob", `{"action":"send","to":"carol","text":"I take T-1"}`), "to carol")
	ok(t, run(t, e.message, "carol", `{"action":"read"}`), "2 unread", "[Team broadcast from agent alice", "[Team message from agent bob")
	ok(t, run(t, e.message, "carol", `{"action":"read"}`), "no unread messages")
	ok(t, run(t, e.message, "bob", `{"action":"read"}`), "1 unread", "kick-off at 10")
	refused(t, run(t, e.message, "bob", `{"action":"send","text":"hi"}`), tools.CodeValidation, "send needs to")
	refused(t, run(t, e.message, "bob", `{"action":"send","to":"zed","text":"hi"}`), tools.CodeNotFound, "recipient 'zed'")
	refused(t, run(t, e.message, "bob", `{"action":"shout"}`), tools.CodeValidation, "unknown action")
}
