package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/teams"
)

// teamAgents adds agents with the full profile (which has the teams
// group), each served by its cassette (nil: no provider).
func teamAgents(t *testing.T, dir string, cassettes map[string]*llmtest.Cassette) {
	t.Helper()
	for key, c := range cassettes {
		args := []string{"agents", "add", key, "--profile", "full", "--sandbox", "off"}
		if c != nil {
			srv := llmtest.NewServer(t, *c)
			if r := warren(t, dir, "providers", "add", "p-"+key, "--base-url", srv.URL+"/v1", "--model", "m-"+key); r.code != 0 {
				t.Fatalf("provider %s: %+v", key, r)
			}
			args = append(args, "--provider", "p-"+key)
		}
		if r := warren(t, dir, args...); r.code != 0 {
			t.Fatalf("agent %s: %+v", key, r)
		}
	}
}

func mustRun(t *testing.T, dir string, args ...string) run {
	t.Helper()
	r := warren(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("warren %s: %+v", strings.Join(args, " "), r)
	}
	return r
}

// TestTeamsLifecycle: add, list, show, edit and remove a team.
func TestTeamsLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": nil, "ann": nil, "ben": nil})
	r := mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann=finds facts", "--member", "ben",
		"--set", "max_working=2", "--set", "blocker_escalation=false")
	if !strings.Contains(r.stdout, "added team crew (lead boss, 2 member(s))") {
		t.Fatalf("add: %+v", r)
	}
	if r := mustRun(t, dir, "teams", "list"); !strings.Contains(r.stdout, "crew") || !strings.Contains(r.stdout, "ann, ben") {
		t.Fatalf("list: %+v", r)
	}
	var tm teams.Team
	if err := json.Unmarshal([]byte(mustRun(t, dir, "teams", "show", "crew", "--json").stdout), &tm); err != nil {
		t.Fatal(err)
	}
	if tm.Settings.MaxWorking != 2 || tm.Settings.BlockerEscalation || tm.Members[0].Role != "finds facts" {
		t.Fatalf("stored %+v", tm)
	}
	mustRun(t, dir, "teams", "edit", "crew", "--member", "ben=writes", "--set", "task_timeout_sec=60")
	if r := mustRun(t, dir, "teams", "show", "crew"); !strings.Contains(r.stdout, "ben — writes") || strings.Contains(r.stdout, "ann") ||
		!strings.Contains(r.stdout, "task_timeout_sec=60") || !strings.Contains(r.stdout, "max_working=2") {
		t.Fatalf("after edit: %+v", r)
	}
	mustRun(t, dir, "teams", "remove", "crew")
	if r := mustRun(t, dir, "teams", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("after remove: %+v", r)
	}
}

// TestTeamsBadInput: every subcommand names what was wrong, with exit 2.
func TestTeamsBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": nil, "ann": nil})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann")
	for _, tc := range []struct {
		args []string
		want string
		code int // 0 means 2, the usage code
	}{
		{[]string{"teams"}, "name a subcommand", 0},
		{[]string{"teams", "fly"}, "unknown subcommand", 0},
		{[]string{"teams", "add", "x"}, "needs --lead", 0},
		{[]string{"teams", "add", "x", "--lead", "ghost"}, "agent 'ghost' does not exist", 0},
		{[]string{"teams", "add", "x", "--lead", "boss", "--set", "speed=3"}, "unknown setting \"speed\"", 0},
		{[]string{"teams", "add", "x", "--lead", "boss", "--set", "max_working=lots"}, "not a whole number", 0},
		{[]string{"teams", "add", "x", "--lead", "boss", "--member", "=role"}, "name an agent", 0},
		{[]string{"teams", "add", "crew", "--lead", "boss"}, "already exists", 1}, // a conflict, not a typo
		{[]string{"teams", "show"}, "one team name", 0},
		{[]string{"teams", "show", "nope"}, "team 'nope' does not exist", 0},
		{[]string{"teams", "edit", "nope", "--lead", "boss"}, "does not exist", 0},
		{[]string{"teams", "remove", "nope"}, "does not exist", 0},
		{[]string{"teams", "tasks", "crew", "--state", "sleeping"}, "not a task state", 0},
		{[]string{"teams", "task", "crew"}, "TEAM ID", 0},
		{[]string{"teams", "task", "crew", "T-9"}, "T-9", 0},
		{[]string{"teams", "task", "add", "crew"}, "needs --subject", 0},
		{[]string{"teams", "task", "add", "crew", "--subject", "s", "--priority", "7"}, "priority 7 is out of range", 0},
		{[]string{"teams", "task", "add", "crew", "--subject", "s", "--blocked-by", "T-99"}, "T-99", 0},
		{[]string{"teams", "task", "add", "crew", "--subject", "s", "--assignee", "zed"}, "zed", 0},
		{[]string{"teams", "task", "reject", "crew", "T-1"}, "needs a reason", 0},
		{[]string{"teams", "task", "assign", "crew", "T-1"}, "needs one member", 0},
		{[]string{"teams", "task", "comment", "crew", "T-1"}, "needs text", 0},
		{[]string{"teams", "task", "cancel", "crew"}, "needs TEAM ID", 0},
		{[]string{"teams", "answer", "crew", "T-1"}, "TEAM ID TEXT", 0},
		{[]string{"teams", "events"}, "one team name", 0},
		{[]string{"teams", "run", "crew"}, "needs TEAM and a request", 0},
		{[]string{"teams", "run", "nope", "hello"}, "team 'nope' does not exist", 0},
		{[]string{"teams", "run", "crew", "hi", "--approve", "maybe"}, "--approve", 0},
	} {
		if tc.code == 0 {
			tc.code = 2
		}
		r := warren(t, dir, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: want exit %d with %q, got %d\n%s", tc.args, tc.code, tc.want, r.code, r.stderr)
		}
	}
}

// TestTeamsTaskCommands: add tasks, act on them as the user and read the
// board and its audit trail.
func TestTeamsTaskCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": nil, "ann": nil, "ben": nil})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann", "--member", "ben")
	if r := mustRun(t, dir, "teams", "task", "add", "crew", "--subject", "gather", "--assignee", "ann", "--priority", "2"); strings.TrimSpace(r.stdout) != "T-1" {
		t.Fatalf("add: %+v", r)
	}
	var t2 teams.Task
	r := mustRun(t, dir, "teams", "task", "add", "crew", "--subject", "write", "--blocked-by", "T-1", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &t2); err != nil || t2.ID != "T-2" || t2.State != teams.StateBlocked {
		t.Fatalf("add --json: %v %+v", err, t2)
	}
	if r := mustRun(t, dir, "teams", "tasks", "crew"); !strings.Contains(r.stdout, "T-1") || !strings.Contains(r.stdout, "blocked") {
		t.Fatalf("tasks: %+v", r)
	}
	if r := mustRun(t, dir, "teams", "tasks", "crew", "--state", "blocked", "--json"); strings.Contains(r.stdout, `"id": "T-1"`) || !strings.Contains(r.stdout, `"id": "T-2"`) {
		t.Fatalf("tasks --state: %+v", r)
	}
	mustRun(t, dir, "teams", "task", "assign", "crew", "T-2", "ben")
	mustRun(t, dir, "teams", "task", "comment", "crew", "T-1", "look", "at", "NASA")
	if r := mustRun(t, dir, "teams", "task", "comment", "crew", "T-1", "--blocker", "no access"); !strings.Contains(r.stdout, "T-1 is blocked") {
		t.Fatalf("blocker: %+v", r)
	}
	if r := mustRun(t, dir, "teams", "task", "retry", "crew", "T-1", "--note", "try the mirror"); !strings.Contains(r.stdout, "T-1 is pending") {
		t.Fatalf("retry: %+v", r)
	}
	if r := mustRun(t, dir, "teams", "task", "cancel", "crew", "T-1", "--reason", "not needed"); !strings.Contains(r.stdout, "T-1 is cancelled") {
		t.Fatalf("cancel: %+v", r)
	}
	if r := warren(t, dir, "teams", "task", "approve", "crew", "T-1"); r.code != 1 || !strings.Contains(r.stderr, "cancelled") {
		t.Fatalf("approve a cancelled task: %+v", r)
	}
	if r := warren(t, dir, "teams", "answer", "crew", "T-2", "yes"); r.code != 1 || !strings.Contains(r.stderr, "no open question") {
		t.Fatalf("answer without a question: %+v", r)
	}
	r = mustRun(t, dir, "teams", "task", "crew", "T-1")
	for _, want := range []string{"state:    cancelled", "look at NASA", "[blocker] user: no access", "try the mirror"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("task lacks %q:\n%s", want, r.stdout)
		}
	}
	var d teams.TaskDetail
	if err := json.Unmarshal([]byte(mustRun(t, dir, "teams", "task", "crew", "T-2", "--json").stdout), &d); err != nil || d.Task.Owner != "ben" {
		t.Fatalf("task --json: %v %+v", err, d.Task)
	}
	r = mustRun(t, dir, "teams", "events", "crew")
	for _, want := range []string{"created", "assigned", "blocker", "retried", "cancelled", "user:user"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("events lack %q:\n%s", want, r.stdout)
		}
	}
	var evs []teams.Event
	if err := json.Unmarshal([]byte(mustRun(t, dir, "teams", "events", "crew", "--task", "T-2", "--json").stdout), &evs); err != nil || len(evs) == 0 {
		t.Fatalf("events --json: %v %d", err, len(evs))
	}
}

// TestTeamToolCallAsAgent: `warren tool call team_tasks … --agent A` acts
// as A inside its team.
func TestTeamToolCallAsAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": nil, "ann": nil})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann")
	if r := mustRun(t, dir, "tool", "call", "team_tasks", `{"action":"create","subject":"gather","assignee":"ann"}`, "--agent", "boss"); !strings.Contains(r.stdout, "created T-1") {
		t.Fatalf("lead create: %+v", r)
	}
	if r := warren(t, dir, "tool", "call", "team_tasks", `{"action":"create","subject":"more"}`, "--agent", "ann"); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "only the lead or the user can create") {
		t.Fatalf("member create: %+v", r)
	}
}

func leadRunCassette(final string) *llmtest.Cassette {
	return &llmtest.Cassette{Concurrent: true, Turns: []llmtest.Turn{
		{Expect: "find the thing", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "team_tasks",
			Arguments: []string{`{"action":"create","subject":"find it","assignee":"ann"}`}}}},
		{Expect: "created T-1", Chunks: []string{"On it."}, FinishReason: "stop"},
		{Expect: "Every task of this request has finished", Chunks: []string{final}, FinishReason: "stop"},
	}}
}

// TestTeamsRun: `teams run` streams the lead's answers, runs the member
// and waits until the request's task finished.
func TestTeamsRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": leadRunCassette("ANSWER: it is found."),
		"ann": {Turns: []llmtest.Turn{{Expect: "T-1 for you", Chunks: []string{"Found it under the sofa."}, FinishReason: "stop"}}}})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann")
	r := mustRun(t, dir, "teams", "run", "crew", "find the thing")
	if !strings.Contains(r.stdout, "On it.") || !strings.Contains(r.stdout, "ANSWER: it is found.") {
		t.Fatalf("stdout: %q\nstderr: %s", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "T-1 completed") || !strings.Contains(r.stderr, "1 task(s) finished") {
		t.Fatalf("stderr: %s", r.stderr)
	}
	if r := mustRun(t, dir, "teams", "task", "crew", "T-1"); !strings.Contains(r.stdout, "under the sofa") {
		t.Fatalf("task: %s", r.stdout)
	}
}

// TestTeamsRunFailedTask: a task that fails makes `teams run` exit 1
// naming it, after the lead answered.
func TestTeamsRunFailedTask(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": leadRunCassette("ANSWER: it could not be found."),
		"ann": {Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 400}}, Chunks: []string{"never"}}}}})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss", "--member", "ann")
	r := warren(t, dir, "teams", "run", "crew", "find the thing")
	if r.code != 1 || !strings.Contains(r.stderr, "did not complete: T-1") || !strings.Contains(r.stdout, "could not be found") {
		t.Fatalf("run: %+v", r)
	}
}

// TestTeamsRunNoWait: --no-wait exits after the lead's first turn.
func TestTeamsRunNoWait(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	teamAgents(t, dir, map[string]*llmtest.Cassette{"boss": {Turns: []llmtest.Turn{
		{Expect: "plan a trip", Chunks: []string{"Nothing to hand out."}, FinishReason: "stop"},
	}}})
	mustRun(t, dir, "teams", "add", "crew", "--lead", "boss")
	r := mustRun(t, dir, "teams", "run", "crew", "plan a trip", "--no-wait")
	if !strings.Contains(r.stdout, "Nothing to hand out.") || !strings.Contains(r.stderr, "session s-") {
		t.Fatalf("run: %+v", r)
	}
}
