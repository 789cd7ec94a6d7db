package automation

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

// scripted is the LLM stand-in: it replays replies in order and records prompts.
type scripted struct {
	mu      sync.Mutex
	replies []string
	users   []string
}

func (s *scripted) Complete(_ context.Context, _, user string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = append(s.users, user)
	if len(s.replies) == 0 {
		return "", errors.New("no scripted reply left")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r, nil
}

func registry(t *testing.T, d Deps) *tools.Registry {
	t.Helper()
	ts, err := Tools(d)
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{Approver: func(context.Context, tools.Info, json.RawMessage) (bool, string, error) {
		return true, "", nil
	}})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func call(t *testing.T, r *tools.Registry, name, args string) tools.Result {
	t.Helper()
	res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: name, Args: json.RawMessage(args),
		Context: tools.CallContext{Agent: "coder"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCronTool(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := cron.NewStore(db.SQL())
	st.Now = func() time.Time { return time.Date(2026, 3, 23, 10, 0, 0, 0, time.UTC) }
	changes := 0
	r := registry(t, Deps{Cron: st, OnCronChange: func() { changes++ }})
	if info := mustInfo(t, r, "cron"); info.Danger != tools.DangerWarning || info.Class != tools.ClassStatic {
		t.Fatalf("cron info = %+v", info)
	}

	bad := call(t, r, "cron", `{"action":"add","schedule":"0 25 * * *","prompt":"p"}`)
	if bad.Code() != tools.CodeValidation || !strings.Contains(bad.ForLLM, "hour field") {
		t.Fatalf("bad schedule: %s", bad.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"add","schedule":"* * * * *"}`); res.Code() != tools.CodeValidation {
		t.Fatalf("missing prompt: %s", res.ForLLM)
	}
	added := call(t, r, "cron", `{"action":"add","name":"standup","schedule":"0 9 * * mon-fri","prompt":"summarise yesterday"}`)
	if added.IsError || !strings.Contains(added.ForLLM, "standup") {
		t.Fatalf("add: %s", added.ForLLM)
	}
	jobs, _ := st.List(context.Background(), "coder")
	if len(jobs) != 1 || jobs[0].Agent != "coder" {
		t.Fatalf("jobs = %+v", jobs)
	}
	id := jobs[0].ID
	if res := call(t, r, "cron", `{"action":"list"}`); !strings.Contains(res.ForLLM, id) {
		t.Fatalf("list: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"disable","id":"`+id+`"}`); !strings.Contains(res.ForLLM, "enabled=false") {
		t.Fatalf("disable: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"enable","id":"`+id+`"}`); !strings.Contains(res.ForLLM, "enabled=true") {
		t.Fatalf("enable: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"remove","id":"nope"}`); res.Code() != tools.CodeNotFound {
		t.Fatalf("remove unknown: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"remove"}`); res.Code() != tools.CodeValidation {
		t.Fatalf("remove without id: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"remove","id":"`+id+`"}`); res.IsError {
		t.Fatalf("remove: %s", res.ForLLM)
	}
	if res := call(t, r, "cron", `{"action":"list"}`); res.ForLLM != "no scheduled jobs" {
		t.Fatalf("list after remove: %s", res.ForLLM)
	}
	if changes != 4 {
		t.Fatalf("OnCronChange called %d times, want 4", changes)
	}
}

func mustInfo(t *testing.T, r *tools.Registry, name string) tools.Info {
	t.Helper()
	tool, ok := r.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tool.Info()
}

func TestPlanCreate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, args string
		replies    []string
		code       tools.ErrorCode
		want       []string
		steps      int
	}{
		{"valid", `{"task":"ship v1"}`, []string{`{"steps":[{"title":"Write tests","detail":"cover parser"},{"title":"Release"}]}`}, "", []string{`"task": "ship v1"`, "Write tests"}, 2},
		{"fenced", `{"task":"x","style":"terse"}`, []string{"```json\n{\"steps\":[{\"title\":\"A\"}]}\n```"}, "", []string{`"A"`}, 1},
		{"repaired", `{"task":"x"}`, []string{"Sure! Here is a plan.", `{"steps":[{"title":"B"}]}`}, "", []string{"plan_repaired"}, 1},
		{"truncated", `{"task":"x","max_steps":2}`, []string{`{"steps":[{"title":"1"},{"title":"2"},{"title":"3"}]}`}, "", []string{"plan_truncated_to_2_steps"}, 2},
		{"invalid twice", `{"task":"x"}`, []string{`{"steps":[]}`, `{"steps":[{"detail":"no title"}]}`}, tools.CodeExecution, []string{"invalid plan twice", "no title"}, 0},
		{"no task", `{"task":"  "}`, nil, tools.CodeValidation, []string{"task is required"}, 0},
		{"model error", `{"task":"x"}`, nil, tools.CodeExecution, []string{"model call failed"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			llm := &scripted{replies: c.replies}
			r := registry(t, Deps{Completer: llm})
			res := call(t, r, "plan_create", c.args)
			if res.Code() != c.code {
				t.Fatalf("code = %q, want %q: %s", res.Code(), c.code, res.ForLLM)
			}
			for _, w := range c.want {
				if !strings.Contains(res.ForLLM, w) {
					t.Fatalf("result %s lacks %q", res.ForLLM, w)
				}
			}
			if c.code == "" {
				var p Plan
				if err := json.Unmarshal([]byte(res.ForLLM), &p); err != nil || len(p.Steps) != c.steps {
					t.Fatalf("plan = %+v (%v)", p, err)
				}
			}
		})
	}
	r := registry(t, Deps{})
	if res := call(t, r, "plan_create", `{"task":"x"}`); !strings.Contains(res.ForLLM, "plan_create unavailable (missing llm client)") {
		t.Fatalf("no completer: %s", res.ForLLM)
	}
	if info := mustInfo(t, r, "plan_create"); info.Class != tools.ClassRuntime {
		t.Fatalf("class = %s", info.Class)
	}
}

func todoResult(t *testing.T, res tools.Result) UpdateResult {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error: %s", res.ForLLM)
	}
	var u UpdateResult
	if err := json.Unmarshal([]byte(res.ForLLM), &u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestTodoUpdateSubstring(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Date(2026, 3, 23, 13, 51, 0, 0, time.UTC)
	r := registry(t, Deps{StateDir: dir, Now: func() time.Time { return now }})

	for _, c := range []struct{ args, want string }{
		{`{}`, "action is required"},
		{`{"action":"add"}`, "content is required"},
		{`{"action":"remove","content":"x"}`, "invalid action: "},
		{`{"action":"complete","content":"x"}`, "no matching todo item in TODO.md"},
	} {
		if res := call(t, r, "todo_update", c.args); !res.IsError || !strings.Contains(res.ForLLM, c.want) {
			t.Fatalf("%s: %s, want %q", c.args, res.ForLLM, c.want)
		}
	}
	u := todoResult(t, call(t, r, "todo_update", `{"action":"add","content":"Send the invoice to ACME","people":["alice","bob"]}`))
	if !u.OK || u.Action != "add" || u.Changed.WIPAdded != 1 || u.UpdatedCounts.Open != 1 ||
		u.Entry.Content != "Send the invoice to ACME (people: alice, bob)" || u.Entry.CreatedAt != "2026-03-23 13:51" {
		t.Fatalf("add = %+v", u)
	}
	todoResult(t, call(t, r, "todo_update", `{"action":"add","content":"Review the invoice template"}`))
	dup := todoResult(t, call(t, r, "todo_update", `{"action":"add","content":"review the invoice   template"}`))
	if dup.Changed.WIPAdded != 0 || len(dup.Warnings) == 0 || dup.UpdatedCounts.Open != 2 {
		t.Fatalf("duplicate = %+v", dup)
	}
	if res := call(t, r, "todo_update", `{"action":"complete","content":"INVOICE"}`); res.Code() != tools.CodeValidation ||
		!strings.Contains(res.ForLLM, "ambiguous todo item match") {
		t.Fatalf("ambiguous: %s", res.ForLLM)
	}
	now = now.Add(time.Hour)
	u = todoResult(t, call(t, r, "todo_update", `{"action":"complete","content":"acme"}`))
	if u.Changed != (TodoChange{WIPRemoved: 1, DoneAdded: 1}) || u.UpdatedCounts != (TodoCounts{Open: 1, Done: 1}) ||
		u.Entry.DoneAt != "2026-03-23 14:51" || u.Entry.CreatedAt != "2026-03-23 13:51" {
		t.Fatalf("complete = %+v", u)
	}
	open, _ := os.ReadFile(filepath.Join(dir, TodoFile))
	done, _ := os.ReadFile(filepath.Join(dir, TodoDoneFile))
	if string(open) != "# TODO\n\n- [ ] 2026-03-23 13:51 | Review the invoice template\n" {
		t.Fatalf("TODO.md = %q", open)
	}
	if string(done) != "# DONE\n\n- [x] 2026-03-23 13:51 | done 2026-03-23 14:51 | Send the invoice to ACME (people: alice, bob)\n" {
		t.Fatalf("TODO.DONE.md = %q", done)
	}
	// Re-reading the files round-trips.
	es, err := readTodo(filepath.Join(dir, TodoDoneFile))
	if err != nil || len(es) != 1 || es[0].DoneAt != "2026-03-23 14:51" || es[0].Content != "Send the invoice to ACME (people: alice, bob)" {
		t.Fatalf("round trip = %+v %v", es, err)
	}
}

func TestTodoUpdateSemantic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	llm := &scripted{}
	r := registry(t, Deps{StateDir: dir, Completer: llm, Now: time.Now})
	todoResult(t, call(t, r, "todo_update", `{"action":"add","content":"Book flights to Lisbon"}`))
	todoResult(t, call(t, r, "todo_update", `{"action":"add","content":"Renew passport"}`))

	llm.replies = []string{`nonsense`, `{"matches":[1,2]}`, `{"matches":[]}`, `{"matches":[7]}`, `{"matches":[2]}`}
	for _, want := range []string{"invalid semantic_match response", "ambiguous todo item match", "no matching todo item in TODO.md", "invalid semantic_match response"} {
		if res := call(t, r, "todo_update", `{"action":"complete","content":"travel papers"}`); !strings.Contains(res.ForLLM, want) {
			t.Fatalf("%s, want %q", res.ForLLM, want)
		}
	}
	u := todoResult(t, call(t, r, "todo_update", `{"action":"complete","content":"travel papers"}`))
	if u.Entry.Content != "Renew passport" || u.UpdatedCounts.Open != 1 {
		t.Fatalf("semantic complete = %+v", u)
	}
	if !strings.Contains(llm.users[len(llm.users)-1], "2. Renew passport") {
		t.Fatalf("prompt = %q", llm.users[len(llm.users)-1])
	}
}

func TestRuntimeToolsClasses(t *testing.T) {
	t.Parallel()
	rt, err := RuntimeTools(Deps{StateDir: t.TempDir()})
	if err != nil || len(rt) != 2 {
		t.Fatalf("runtime tools = %d, %v", len(rt), err)
	}
	base := tools.NewRegistry(tools.Options{})
	if _, err := base.WithTools(rt...); err != nil {
		t.Fatalf("inject runtime tools: %v", err)
	}
	if st, _ := StaticTools(Deps{}); len(st) != 0 {
		t.Fatalf("static tools without store = %d", len(st))
	}
}
