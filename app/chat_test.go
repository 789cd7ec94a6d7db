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
