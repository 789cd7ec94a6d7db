package warren

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/sessions"
)

// TestIdleParentAnswersSubagentResults: a background subagent of a parent
// whose turn has ended is announced by a new parent turn (same model as the
// parent's run), and the bus shows started, done, announced and that turn.
func TestIdleParentAnswersSubagentResults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, err := Open(ctx, Options{DataDir: t.TempDir(), AnnounceDebounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "hello", Chunks: []string{"Hi."}},
		{Expect: "count the files", Chunks: []string{"There are 3 files."}},
		{Expect: "[Subagent results]", Chunks: []string{"Your subagent counted 3 files."}},
	}})
	parent, err := w.RunAgent(ctx, RunRequest{BaseURL: srv.URL + "/v1", Model: "m", Prompt: "hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bus, unsubscribe := w.Bus().Subscribe(256)
	defer unsubscribe()
	// What the spawn tool does for a background subagent of that (now idle) run.
	prov := llm.NewOpenAI(llm.OpenAIOptions{Name: "scripted", BaseURL: srv.URL + "/v1"})
	if _, err := w.subagents.Start(ctx, agent.Spawn{Parent: parent.Session, Agent: "default", Depth: 1,
		Task: "count the files", Label: "counter", Runner: w.childRunner(taskRun{agent: "default", provider: prov, model: "m"})}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	var run string
events:
	for ev := range bus {
		switch p := ev.Payload.(type) {
		case agent.Task:
			seen = append(seen, string(ev.Topic)+":"+p.Status)
		case Announcement:
			seen = append(seen, string(ev.Topic))
			if p.Session != parent.Session || len(p.Tasks) != 1 || p.Run == "" {
				t.Fatalf("announcement %+v", p)
			}
			run = p.Run
		case RunEvent:
			if p.Kind == agent.EventError {
				t.Fatalf("announcement turn failed: %s", p.Error)
			}
			if p.Kind == agent.EventDone && p.Run == run {
				seen = append(seen, string(ev.Topic)+":"+string(p.Kind))
				break events
			}
		}
	}
	if got := strings.Join(seen, ","); got != "subagent.started:running,subagent.done:completed,subagent.announced,run.event:done" {
		t.Fatalf("bus: %s", got)
	}
	h, err := w.Sessions().History(ctx, parent.Session, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 4 {
		t.Fatalf("parent history has %d messages", len(h))
	}
	ann, reply := h[2], h[3]
	if ann.Kind != sessions.KindSubagentResults || !strings.Contains(ann.Content, "sub-1 (counter): completed") ||
		!strings.Contains(ann.Content, "There are 3 files.") || reply.Content != "Your subagent counted 3 files." {
		t.Fatalf("announcement %+v, reply %+v", ann, reply)
	}
	if srv.Remaining() != 0 {
		t.Fatalf("%d turns not served", srv.Remaining())
	}
}

// TestWhatIsAnnounced: only background subagents that completed or failed
// are announced; the parent already has a synchronous run's result, and a
// cancel came from the parent or the user.
func TestWhatIsAnnounced(t *testing.T) {
	t.Parallel()
	cases := []struct {
		task agent.Task
		want bool
	}{
		{agent.Task{Background: true, Status: agent.TaskCompleted}, true},
		{agent.Task{Background: true, Status: agent.TaskFailed}, true},
		{agent.Task{Background: true, Status: agent.TaskCancelled}, false},
		{agent.Task{Background: false, Status: agent.TaskCompleted}, false},
	}
	for _, tc := range cases {
		if got := announceable(tc.task); got != tc.want {
			t.Errorf("announceable(%+v) = %v", tc.task, got)
		}
	}
}
