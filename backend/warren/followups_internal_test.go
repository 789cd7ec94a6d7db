package warren

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/sessions"
)

// openQuick opens a Warren whose announcements wait only 10 ms.
func openQuick(t *testing.T) *Warren {
	t.Helper()
	w, err := Open(context.Background(), Options{DataDir: t.TempDir(), AnnounceDebounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// idleParent runs one parent turn to its end against srv and returns its
// session, with a runner for subagents that uses the same model and waits
// for release before it starts.
func idleParent(t *testing.T, w *Warren, srv *llmtest.Server, release <-chan struct{}) (string, agent.ChildRunner) {
	t.Helper()
	parent, err := w.RunAgent(context.Background(), RunRequest{BaseURL: srv.URL + "/v1", Model: "m", Prompt: "hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	prov := llm.NewOpenAI(llm.OpenAIOptions{Name: "scripted", BaseURL: srv.URL + "/v1"})
	run := w.childRunner(taskRun{agent: "default", provider: prov, model: "m"})
	return parent.Session, func(ctx context.Context, s agent.Spawn) (agent.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return agent.Result{}, ctx.Err()
		}
		return run(ctx, s)
	}
}

// TestWaitSessionQuietStreamsFollowUpTurn: waiting on an idle parent with a
// background subagent reports what it waits for, the subagent ending, the
// announcement and every event of the turn that answers it, then returns
// once that turn is over.
func TestWaitSessionQuietStreamsFollowUpTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := openQuick(t)
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "hello", Chunks: []string{"Hi."}},
		{Expect: "count the files", Chunks: []string{"There are 3 files."}},
		{Expect: "[Subagent results]", Chunks: []string{"Your subagent ", "counted 3 files."}},
	}})
	release := make(chan struct{})
	parent, run := idleParent(t, w, srv, release)
	if err := w.WaitSessionQuiet(ctx, parent, func(ev events.Event) { t.Errorf("quiet session reported %v", ev.Topic) }); err != nil {
		t.Fatalf("quiet session: %v", err)
	}
	if _, err := w.subagents.Start(ctx, agent.Spawn{Parent: parent, Agent: "default", Depth: 1, Task: "count the files", Label: "counter", Runner: run}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	var text strings.Builder
	err := w.WaitSessionQuiet(ctx, parent, func(ev events.Event) {
		switch p := ev.Payload.(type) {
		case SessionWaiting:
			if len(p.Running) != 1 || p.Running[0].ID != "sub-1" {
				t.Errorf("waiting for %+v", p.Running)
			}
			seen = append(seen, string(ev.Topic))
			close(release)
		case agent.Task:
			seen = append(seen, string(ev.Topic)+":"+p.Status)
		case Announcement:
			if p.Run == "" {
				t.Errorf("announcement handed to no turn: %+v", p)
			}
			seen = append(seen, string(ev.Topic))
		case RunEvent:
			if p.Kind == agent.EventText {
				text.WriteString(p.Text)
			}
			if p.Kind == agent.EventDone || p.Kind == agent.EventError {
				seen = append(seen, string(ev.Topic)+":"+string(p.Kind))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, ","); got != "session.waiting,subagent.done:completed,subagent.announced,run.event:done" {
		t.Fatalf("reported: %s", got)
	}
	if text.String() != "Your subagent counted 3 files." {
		t.Fatalf("follow-up text %q", text.String())
	}
	if len(w.followUps.turnIDs()) != 0 || srv.Remaining() != 0 {
		t.Fatalf("turns left: %v, %d not served", w.followUps.turnIDs(), srv.Remaining())
	}
}

// TestWaitSessionQuietReportsFailedFollowUp: a follow-up turn that fails
// makes the wait fail, once the session is quiet.
func TestWaitSessionQuietReportsFailedFollowUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := openQuick(t)
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "hello", Chunks: []string{"Hi."}},
		{Expect: "count the files", Chunks: []string{"There are 3 files."}},
		{Faults: []llmtest.Fault{{Status: 400, Body: `{"error":{"message":"context too long"}}`}}},
	}})
	release := make(chan struct{})
	close(release)
	parent, run := idleParent(t, w, srv, release)
	if _, err := w.subagents.Start(ctx, agent.Spawn{Parent: parent, Agent: "default", Depth: 1, Task: "count the files", Runner: run}); err != nil {
		t.Fatal(err)
	}
	err := w.WaitSessionQuiet(ctx, parent, nil)
	if !errors.Is(err, ErrFollowUpFailed) || !strings.Contains(err.Error(), "context too long") {
		t.Fatalf("wait: %v", err)
	}
}

// TestStopFollowUps: a wait ended by its context leaves the subagent
// running; StopFollowUps cancels it, which is not announced, so the
// session is quiet.
func TestStopFollowUps(t *testing.T) {
	t.Parallel()
	w := openQuick(t)
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{{Expect: "hello", Chunks: []string{"Hi."}}}})
	parent, run := idleParent(t, w, srv, make(chan struct{})) // never released
	if _, err := w.subagents.Start(context.Background(), agent.Spawn{Parent: parent, Agent: "default", Depth: 1, Task: "wait", Runner: run}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err := w.WaitSessionQuiet(ctx, parent, func(ev events.Event) {
		if ev.Topic == TopicSessionWaiting {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted wait: %v", err)
	}
	ids, err := w.StopFollowUps(context.Background(), parent)
	if err != nil || strings.Join(ids, ",") != "sub-1" {
		t.Fatalf("stopped %v, %v", ids, err)
	}
	if err := w.WaitSessionQuiet(context.Background(), parent, nil); err != nil {
		t.Fatalf("after stop: %v", err)
	}
}

// TestQuietCoversNestedSessions: work left in a session below the one
// waited on (a subagent's own subagents) keeps it from being quiet; work in
// an unrelated session does not.
func TestQuietCoversNestedSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := openQuick(t)
	create := func(parent string) string {
		s, err := w.Sessions().Create(ctx, sessions.Session{Agent: "default", ParentID: parent, Title: "t"})
		if err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	root := create("")
	child := create(root)
	grandchild := create(child)
	other := create("")
	w.followUps.add(other, 1)
	if err := w.WaitSessionQuiet(ctx, root, nil); err != nil {
		t.Fatalf("work elsewhere: %v", err)
	}
	w.followUps.add(grandchild, 1)
	wctx, cancel := context.WithCancel(ctx)
	err := w.WaitSessionQuiet(wctx, root, func(ev events.Event) {
		if ev.Topic == TopicSessionWaiting {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("work below root: %v", err)
	}
	w.followUps.add(grandchild, -1)
	if err := w.WaitSessionQuiet(ctx, root, nil); err != nil {
		t.Fatalf("after the work ended: %v", err)
	}
}
