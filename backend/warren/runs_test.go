package warren_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/warren"
)

// TestStartRunReportsSetupErrorsOnce: a run that cannot start (no provider)
// still ends with exactly one error event for the UI.
func TestStartRunReportsSetupErrorsOnce(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	events := make(chan agent.Event, 8)
	id := w.StartRun(context.Background(), warren.RunRequest{Prompt: "hello"}, func(ev agent.Event) { events <- ev })
	ev := <-events
	if ev.Kind != agent.EventError || !strings.Contains(ev.Error, "no model provider") || id == "" {
		t.Fatalf("first event %+v", ev)
	}
	for w.StopRun(id) {
		// wait until the run is gone, so no late event can follow
	}
	if len(events) != 0 {
		t.Fatalf("extra events: %+v", <-events)
	}
}
