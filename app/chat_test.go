package app_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

func TestChatRun(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{{Expect: "hello", Chunks: []string{"Hi ", "there."}}}})
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	var mu sync.Mutex
	var got []app.AgentEvent
	done := make(chan struct{})
	emit := func(_ context.Context, name string, data ...any) {
		if name != app.EventAgent {
			return
		}
		ev := data[0].(app.AgentEvent)
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
		if ev.Kind == agent.EventDone || ev.Kind == agent.EventError {
			close(done)
		}
	}
	a := app.New(core, app.Options{Emit: emit})
	if err := a.SaveModelProvider(store.Provider{Name: "local", Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	if models, err := a.TestModelProvider("local"); err != nil || len(models) != 1 {
		t.Fatalf("test provider: %v %v", models, err)
	}
	agents, _ := a.Agents()
	def := agents[0]
	def.Provider = "local"
	if err := a.SaveAgent(def); err != nil {
		t.Fatal(err)
	}
	id, err := a.SendMessage("default", "", "hello")
	if err != nil || id == "" {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no done event")
	}
	mu.Lock()
	defer mu.Unlock()
	var text strings.Builder
	for i, ev := range got {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
		if ev.RunID != id {
			t.Fatalf("event of another run: %+v", ev)
		}
		if ev.Kind == agent.EventText {
			text.WriteString(ev.Text)
		}
	}
	if text.String() != "Hi there." || got[len(got)-1].Kind != agent.EventDone {
		t.Fatalf("events: %+v", got)
	}
	ss, err := a.Sessions("default")
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions %v %v", ss, err)
	}
	h, err := a.SessionHistory(ss[0].ID)
	if err != nil || len(h) != 2 || h[1].Content != "Hi there." {
		t.Fatalf("history %+v %v", h, err)
	}
	if a.StopRun(id) {
		t.Fatal("stopped a finished run")
	}
	if err := a.DeleteAgent("default"); err == nil {
		t.Fatal("default agent deleted")
	}
}

// TestChatOptions: the chat's own bindings — a send with a model and a
// resend that replaces a message, search, attachments and links.
func TestChatOptions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1", "m2"}, Turns: []llmtest.Turn{
		{Expect: "plant carrots", Chunks: []string{"In spring."}},
		{Expect: "plant beans", Chunks: []string{"In May."}},
	}})
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	ended := make(chan agent.Event, 4)
	var opened []string
	emit := func(_ context.Context, name string, data ...any) {
		if ev, ok := data[0].(app.AgentEvent); ok && name == app.EventAgent && (ev.Kind == agent.EventDone || ev.Kind == agent.EventError) {
			ended <- ev.Event
		}
	}
	a := app.New(core, app.Options{Emit: emit, OpenURL: func(_ context.Context, u string) { opened = append(opened, u) }})
	if err := a.SaveModelProvider(store.Provider{Name: "local", Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	agents, _ := a.Agents()
	def := agents[0]
	def.Provider = "local"
	if err := a.SaveAgent(def); err != nil {
		t.Fatal(err)
	}
	if m, err := a.AgentModels("default"); err != nil || m.Default != "m1" || len(m.Models) != 2 {
		t.Fatalf("models %+v %v", m, err)
	}
	wait := func() agent.Event {
		select {
		case ev := <-ended:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("the run did not end")
		}
		return agent.Event{}
	}
	if _, err := a.SendChatMessage(app.ChatRequest{Agent: "default", Prompt: "When do I plant carrots?", Model: "m2"}); err != nil {
		t.Fatal(err)
	}
	done := wait()
	if done.Kind != agent.EventDone {
		t.Fatalf("first turn: %+v", done)
	}
	h, _ := a.SessionHistory(done.Session)
	if _, err := a.SendChatMessage(app.ChatRequest{Agent: "default", Session: done.Session, Prompt: "When do I plant beans?", ReplaceFrom: h[0].ID}); err != nil {
		t.Fatal(err)
	}
	wait()
	h, _ = a.SessionHistory(done.Session)
	if len(h) != 2 || h[0].Content != "When do I plant beans?" || h[1].Model != "m2" {
		t.Fatalf("after the edit: %+v", h)
	}
	if _, err := a.SendChatMessage(app.ChatRequest{Agent: "default", Prompt: "x", ReplaceFrom: 1}); err == nil {
		t.Fatal("a replace without a session was accepted")
	}
	if _, err := a.SendChatMessage(app.ChatRequest{Agent: "default", Prompt: "  "}); err == nil {
		t.Fatal("a blank message was accepted")
	}

	hits, err := a.SearchSessions("default", "beans")
	if err != nil || len(hits) != 1 || hits[0].Session.ID != done.Session {
		t.Fatalf("search %+v %v", hits, err)
	}
	if hits, _ := a.SearchSessions("default", "spring"); len(hits) != 0 {
		t.Fatalf("the replaced reply is still found: %+v", hits)
	}

	att, err := a.AttachFile("default", "../notes.txt", "aGVsbG8=")
	if err != nil || att.Path != "attachments/notes.txt" || att.Size != 5 {
		t.Fatalf("attach %+v %v", att, err)
	}
	if _, err := a.AttachFile("default", "x.bin", "!!!"); err == nil {
		t.Fatal("garbled base64 accepted")
	}

	for _, bad := range []string{"javascript:alert(1)", "file:///etc/passwd", "data:text/html,<b>x</b>", "https://", "vbscript:x", "/relative", "mailto:"} {
		if err := a.OpenURL(bad); err == nil {
			t.Errorf("OpenURL(%q) accepted", bad)
		}
	}
	for _, good := range []string{"https://example.org/a?b=c", "http://localhost:8080/", "mailto:me@example.org"} {
		if err := a.OpenURL(good); err != nil {
			t.Errorf("OpenURL(%q): %v", good, err)
		}
	}
	if len(opened) != 3 {
		t.Fatalf("opened %v", opened)
	}
	if err := app.New(core, app.Options{}).OpenURL("https://example.org"); err == nil {
		t.Fatal("opened a link without a browser")
	}
}
