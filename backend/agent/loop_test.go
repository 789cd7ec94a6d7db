package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

// rig is a loop over a real SQLite session store and a real registry.
type rig struct {
	loop     *agent.Loop
	sessions sessions.Store
	inbox    *agent.Inbox
	reg      *tools.Registry
	allowed  map[string]bool
}

func newRig(t *testing.T) *rig {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	r := &rig{sessions: sessions.NewSQLStore(db.SQL()), inbox: agent.NewInbox(),
		reg: tools.NewRegistry(tools.Options{}), allowed: map[string]bool{}}
	r.loop = agent.New(agent.Deps{
		Registry:     func(context.Context, string) (*tools.Registry, error) { return r.reg, nil },
		Allowed:      func(context.Context, string, int) (map[string]bool, error) { return r.allowed, nil },
		SystemPrompt: func(context.Context, string, string) (string, error) { return "You are a test agent.", nil },
		Sessions:     r.sessions,
		Inbox:        r.inbox,
	})
	return r
}

type pokeParams struct {
	Note string `json:"note,omitempty" description:"anything"`
}

// addTool registers a real tool whose body is fn.
func (r *rig) addTool(t *testing.T, name string, fn func(ctx context.Context) string) {
	t.Helper()
	tool, err := tools.New(tools.Spec{Name: name, Group: "test", Description: "test tool"},
		func(ctx context.Context, _ pokeParams) (tools.Result, error) { return tools.Text(fn(ctx)), nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := r.reg.Register(tool); err != nil {
		t.Fatal(err)
	}
	r.allowed[name] = true
}

func scripted(t *testing.T, turns ...llmtest.Turn) (*llmtest.Server, llm.Provider) {
	t.Helper()
	srv := llmtest.NewServer(t, llmtest.Cassette{Name: t.Name(), Turns: turns})
	return srv, llm.NewOpenAI(llm.OpenAIOptions{Name: "scripted", BaseURL: srv.URL + "/v1"})
}

func call(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: []string{args}}
}

// TestInjectIntoRunningTurn: subagent results delivered while a turn runs
// reach the model before its next call, both after a tool call and while
// the model is writing what would have been its final answer.
func TestInjectIntoRunningTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRig(t)
	r.addTool(t, "poke", func(ctx context.Context) string {
		if !r.inbox.Deliver(tools.SandboxKeyFrom(ctx), "[Subagent results] sub-1 (counter): completed, 42") {
			t.Error("no running turn to deliver to")
		}
		return "poked"
	})
	srv, prov := scripted(t,
		llmtest.Turn{Expect: "start", ToolCalls: []llmtest.ToolCall{call("c1", "poke", `{}`)}},
		llmtest.Turn{Expect: "sub-1 (counter)", Chunks: []string{"Noted 42."}},
		llmtest.Turn{Expect: "sub-2 (news)", Chunks: []string{"Both done."}},
	)
	var mu sync.Mutex
	var kinds []agent.EventKind
	var sid string
	second := sync.OnceFunc(func() {
		if !r.inbox.Deliver(sid, "[Subagent results] sub-2 (news): completed, sunny") {
			t.Error("turn closed while the model was answering")
		}
	})
	res, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Prompt: "start", Provider: prov, Model: "m"}, func(ev agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		kinds = append(kinds, ev.Kind)
		if ev.Kind == agent.EventSession {
			sid = ev.Session
		}
		if ev.Kind == agent.EventText && ev.Text == "Noted 42." {
			second()
		}
	})
	if err != nil || res.Text != "Both done." || res.Iterations != 3 {
		t.Fatalf("run: %+v %v", res, err)
	}
	if srv.Remaining() != 0 {
		t.Fatalf("%d turns not served", srv.Remaining())
	}
	if n := countKind(kinds, agent.EventInjected); n != 2 {
		t.Fatalf("%d injected events in %v", n, kinds)
	}
	if r.inbox.Deliver(res.Session, "late") {
		t.Fatal("an ended turn still accepts messages")
	}
	h, err := r.sessions.History(ctx, res.Session, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, m := range h {
		stored = append(stored, m.Role+"/"+m.Kind)
	}
	want := "user/,assistant/,tool/,user/subagent_results,assistant/,user/subagent_results,assistant/"
	if got := strings.Join(stored, ","); got != want {
		t.Fatalf("history %s, want %s", got, want)
	}
}

// TestUndeliveredResultsAreKept: results reaching a turn that then stops
// (here at its iteration limit) are stored for the next turn.
func TestUndeliveredResultsAreKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRig(t)
	r.addTool(t, "poke", func(ctx context.Context) string {
		r.inbox.Deliver(tools.SandboxKeyFrom(ctx), "[Subagent results] sub-7: completed")
		return "poked"
	})
	_, prov := scripted(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{call("c1", "poke", `{}`)}})
	res, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Prompt: "go", Provider: prov, Model: "m", MaxIterations: 1}, nil)
	if !errors.Is(err, agent.ErrMaxIterations) {
		t.Fatalf("err %v", err)
	}
	h, _ := r.sessions.History(ctx, res.Session, 0)
	last := h[len(h)-1]
	if last.Kind != sessions.KindSubagentResults || !strings.Contains(last.Content, "sub-7") {
		t.Fatalf("last stored message %+v", last)
	}
}

func countKind(kinds []agent.EventKind, k agent.EventKind) int {
	n := 0
	for _, x := range kinds {
		if x == k {
			n++
		}
	}
	return n
}

// requestMessages decodes the messages of an OpenAI request body.
func requestMessages(t *testing.T, body []byte) []llm.Message {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		out[i] = llm.Message{Role: llm.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			out[i].ToolCalls = append(out[i].ToolCalls, llm.ToolCall{ID: tc.ID})
		}
	}
	return out
}

// TestNotificationsStayOutOfTheModelView: what the message tool delivered
// is in the history for the user, but the model already has the tool call.
func TestNotificationsStayOutOfTheModelView(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRig(t)
	s, _ := r.sessions.Create(ctx, sessions.Session{Agent: "default"})
	if err := r.sessions.Append(ctx, s.ID,
		sessions.Message{Role: "user", Content: "tell me when done"},
		sessions.Message{Role: "assistant", ToolCalls: []sessions.ToolCall{{ID: "c1", Name: "message", Arguments: `{"text":"Done!"}`}}},
		sessions.Message{Role: "assistant", Name: "message", Content: "Done!", Kind: sessions.KindNotification},
		sessions.Message{Role: "tool", ToolCallID: "c1", Name: "message", Content: "Message delivered"},
		sessions.Message{Role: "assistant", Content: "I told you."},
	); err != nil {
		t.Fatal(err)
	}
	srv, prov := scripted(t, llmtest.Turn{Expect: "thanks", Chunks: []string{"You're welcome."}})
	if _, err := r.loop.Run(ctx, agent.RunRequest{Agent: "default", Session: s.ID, Prompt: "thanks", Provider: prov, Model: "m"}, nil); err != nil {
		t.Fatal(err)
	}
	sent := requestMessages(t, srv.Requests()[0].Body)
	var roles []string
	for _, m := range sent {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,tool,assistant,user" {
		t.Fatalf("sent %s", got)
	}
}
