package app_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools/messaging"
)

// wireEvents records what reaches the UI as JSON, the way Wails sends it.
type wireEvents struct {
	mu  sync.Mutex
	got []wireEvent
	ch  chan wireEvent
}

type wireEvent struct {
	Name    string
	Topic   string
	Payload map[string]any
	// Raw is the whole value sent, decoded.
	Raw map[string]any
}

func newWireEvents() *wireEvents { return &wireEvents{ch: make(chan wireEvent, 64)} }

func (w *wireEvents) emit(ctx context.Context, name string, data ...any) {
	raw, err := json.Marshal(data[0])
	if err != nil {
		panic(err)
	}
	var ev struct {
		Topic   string         `json:"topic"`
		Payload map[string]any `json:"payload"`
	}
	_ = json.Unmarshal(raw, &ev)
	we := wireEvent{Name: name, Topic: ev.Topic, Payload: ev.Payload}
	_ = json.Unmarshal(raw, &we.Raw)
	w.mu.Lock()
	w.got = append(w.got, we)
	w.mu.Unlock()
	select { // Shutdown cancels ctx and waits for forwarding to stop
	case w.ch <- we:
	case <-ctx.Done():
	}
}

// next waits for the next event under name, skipping others.
func (w *wireEvents) next(t *testing.T, name string) wireEvent {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-w.ch:
			if ev.Name == name {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s event", name)
		}
	}
}

func TestDispatchRoutesTopicsToUIEvents(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	rec := newWireEvents()
	a := app.New(core, app.Options{Emit: rec.emit})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx)
	defer a.Shutdown(ctx)

	started := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	bus := core.Bus()
	bus.Publish(events.Event{Topic: "subagent.started", Payload: agent.Task{ID: "sub-1", Label: "research", Task: "Find X",
		Parent: "sess-1", Agent: "default", Depth: 1, Status: agent.TaskRunning, Started: started}})
	bus.Publish(events.Event{Topic: messaging.TopicUserMessage, Payload: messaging.Message{ID: "msg-1", Agent: "default", Session: "sess-1",
		Title: "Backup finished", Text: "All 3 folders copied.", Level: "success", At: started}})
	bus.Publish(events.Event{Topic: events.TopicToolStart, Payload: map[string]any{"tool": "read_file"}})
	bus.Publish(events.Event{Topic: "subagent.done", Payload: agent.Task{ID: "sub-1", Parent: "sess-1", Status: agent.TaskCompleted,
		Result: "X is 42", Started: started, Ended: started.Add(3 * time.Second)}})
	bus.Publish(events.Event{Topic: warren.TopicSubagentAnnounced, Payload: warren.Announcement{Session: "sess-1",
		Tasks: []agent.Task{{ID: "sub-1", Parent: "sess-1", Status: agent.TaskCompleted}}, Run: "run-7"}})
	bus.Publish(events.Event{Topic: warren.TopicRunEvent, Payload: warren.RunEvent{Run: "run-7",
		Event: agent.Event{Kind: agent.EventText, Session: "sess-1", Text: "All done."}}})

	want := []struct{ name, topic string }{
		{app.EventSubagent, "subagent.started"},
		{app.EventMessage, "message.user"},
		{app.EventTool, "tool.start"},
		{app.EventSubagent, "subagent.done"},
		{app.EventSubagent, "subagent.announced"},
		{app.EventAgent, ""}, // sent as the run event itself, like SendMessage's
	}
	for i, w := range want {
		ev := <-rec.ch
		if ev.Name != w.name || ev.Topic != w.topic {
			t.Fatalf("event %d: %s %s, want %s %s", i, ev.Name, ev.Topic, w.name, w.topic)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	sub, msg, done := rec.got[0].Payload, rec.got[1].Payload, rec.got[3].Payload
	if sub["parent_session"] != "sess-1" || sub["status"] != "running" || sub["label"] != "research" || sub["started"] != "2026-03-02T09:00:00Z" {
		t.Fatalf("subagent payload %v", sub)
	}
	if _, ok := sub["ended"]; ok {
		t.Fatalf("a running task has no end time on the wire: %v", sub)
	}
	if done["status"] != "completed" || done["result"] != "X is 42" || done["ended"] != "2026-03-02T09:00:03Z" {
		t.Fatalf("done payload %v", done)
	}
	if ann := rec.got[4].Payload; ann["session"] != "sess-1" || ann["run_id"] != "run-7" || len(ann["tasks"].([]any)) != 1 {
		t.Fatalf("announcement %v", ann)
	}
	if run := rec.got[5].Raw; run["run_id"] != "run-7" || run["kind"] != "text" || run["session"] != "sess-1" || run["text"] != "All done." {
		t.Fatalf("run event %v", run)
	}
	for k, v := range map[string]any{"id": "msg-1", "session": "sess-1", "title": "Backup finished", "level": "success", "at": "2026-03-02T09:00:00Z"} {
		if msg[k] != v {
			t.Fatalf("message payload %s = %v, want %v (%v)", k, msg[k], v, msg)
		}
	}
}

// TestSubagentsOfAChatRun: a real spawn from a chat turn reaches the UI as
// "subagent:event" events and is listed for the parent session.
func TestSubagentsOfAChatRun(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{Expect: "Split the work", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "spawn",
			Arguments: []string{`{"action":"run","label":"counter","task":"Count to three"}`}}}},
		{Expect: "Count to three", Chunks: []string{"1, 2, 3"}},
		{Expect: "result: 1, 2, 3", Chunks: []string{"The subagent counted."}},
	}})
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	rec := newWireEvents()
	a := app.New(core, app.Options{Emit: rec.emit})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx)
	defer a.Shutdown(ctx)
	if err := a.SaveModelProvider(store.Provider{Name: "local", Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	agents, _ := a.Agents()
	agents[0].Provider = "local"
	if err := a.SaveAgent(agents[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SendMessage("default", "", "Split the work"); err != nil {
		t.Fatal(err)
	}
	var session string
	started := false
	for session == "" {
		ev := rec.next(t, app.EventSubagent)
		started = started || (ev.Topic == "subagent.started" && ev.Payload["status"] == agent.TaskRunning)
		if ev.Topic == "subagent.done" {
			if ev.Payload["status"] != agent.TaskCompleted || ev.Payload["result"] != "1, 2, 3" || ev.Payload["label"] != "counter" {
				t.Fatalf("done %v", ev.Payload)
			}
			session, _ = ev.Payload["parent_session"].(string)
		}
	}
	if !started {
		t.Fatal("no subagent.started event before subagent.done")
	}
	tasks := a.Subagents(session)
	if len(tasks) != 1 || tasks[0].Status != agent.TaskCompleted || tasks[0].Session == "" || tasks[0].Session == session {
		t.Fatalf("tasks of %s: %+v", session, tasks)
	}
	if stopped, err := a.CancelSubagent(session, tasks[0].ID); err != nil || stopped {
		t.Fatalf("cancel a finished subagent: %v %v", stopped, err)
	}
	if _, err := a.CancelSubagent(session, "sub-999"); err == nil {
		t.Fatal("cancel an unknown subagent")
	}
	if got := a.Subagents(""); got == nil || len(got) != 0 {
		t.Fatalf("no session: %#v", got)
	}
}
