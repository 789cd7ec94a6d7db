package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
)

// manualTimers hands every timer the queue arms to the test, which fires
// them when it wants: the debounce is tested without waiting for a clock.
type manualTimers chan chan time.Time

func (m manualTimers) after(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	m <- c
	return c
}

type batch struct {
	parent string
	tasks  []agent.Task
}

func startQueue(t *testing.T) (*agent.AnnounceQueue, manualTimers, chan batch, context.CancelFunc, chan struct{}) {
	t.Helper()
	timers := make(manualTimers, 16)
	delivered := make(chan batch, 16)
	q := agent.NewAnnounceQueue(agent.AnnounceOptions{Debounce: time.Second, After: timers.after,
		Deliver: func(_ context.Context, parent string, tasks []agent.Task) { delivered <- batch{parent, tasks} }})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		q.Run(ctx)
		close(stopped)
	}()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	return q, timers, delivered, cancel, stopped
}

// TestAnnounceBurstIsOneBatch: three children of one parent finishing
// together are one announcement; another parent's child is its own.
func TestAnnounceBurstIsOneBatch(t *testing.T) {
	t.Parallel()
	q, timers, delivered, cancel, stopped := startQueue(t)
	for _, id := range []string{"sub-1", "sub-2", "sub-3"} {
		q.Add(agent.Task{ID: id, Parent: "s-parent", Status: agent.TaskCompleted, Result: "result of " + id})
	}
	q.Add(agent.Task{ID: "sub-9", Parent: "s-other", Status: agent.TaskFailed, Error: "boom"})
	// Each completion re-arms its parent's timer: fire them all, stale ones first.
	for range 4 {
		(<-timers) <- time.Now()
	}
	got := map[string][]agent.Task{}
	for range 2 {
		b := <-delivered
		if _, dup := got[b.parent]; dup {
			t.Fatalf("second batch for %s", b.parent)
		}
		got[b.parent] = b.tasks
	}
	cancel()
	<-stopped
	if len(delivered) != 0 {
		t.Fatalf("extra batch: %+v", <-delivered)
	}
	if ids := taskIDs(got["s-parent"]); ids != "sub-1,sub-2,sub-3" {
		t.Fatalf("parent batch %s", ids)
	}
	if ids := taskIDs(got["s-other"]); ids != "sub-9" {
		t.Fatalf("other batch %s", ids)
	}
}

// TestAnnounceStopsWithContext: cancelling the queue's context ends Run
// (and its timers), drops what was waiting, and Add no longer blocks.
func TestAnnounceStopsWithContext(t *testing.T) {
	t.Parallel()
	q, timers, delivered, cancel, stopped := startQueue(t)
	q.Add(agent.Task{ID: "sub-1", Parent: "s-p", Status: agent.TaskCompleted})
	<-timers // armed, never fired
	cancel()
	<-stopped
	q.Add(agent.Task{ID: "sub-2", Parent: "s-p", Status: agent.TaskCompleted}) // returns: the queue is gone
	if len(delivered) != 0 {
		t.Fatalf("delivered after stop: %+v", <-delivered)
	}
}

func TestFormatAnnouncement(t *testing.T) {
	t.Parallel()
	text := agent.FormatAnnouncement([]agent.Task{
		{ID: "sub-1", Label: "counter", Status: agent.TaskCompleted, Result: "3 files\nall Go"},
		{ID: "sub-2", Task: "fetch   the\nnews", Status: agent.TaskFailed, Error: "network down"},
	})
	for _, want := range []string{
		"[Subagent results] 2 subagent(s)", "- sub-1 (counter): completed", "    3 files\n    all Go",
		"- sub-2 (fetch the news): failed", "error: network down",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("announcement lacks %q:\n%s", want, text)
		}
	}
}

func taskIDs(ts []agent.Task) string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return strings.Join(ids, ",")
}
