package warren

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/warren-dev/warren/backend/agent"
)

// runs tracks turns started in the background so they can be stopped.
type runs struct {
	mu   sync.Mutex
	m    map[string]context.CancelFunc
	next atomic.Uint64
	// active counts running turns; Close waits for them.
	active sync.WaitGroup
	closed bool
}

// StartRun runs one agent turn in the background and returns its id at
// once. Events stream to on and always end with one done or error event,
// including for failures before the loop started (no provider, unknown
// agent). StopRun cancels it.
func (w *Warren) StartRun(ctx context.Context, req RunRequest, on func(agent.Event)) string {
	return w.startRun(ctx, req, on, nil)
}

// startRun is StartRun; onEnd, when set, is called once the turn is over
// and its last event was handed to on.
func (w *Warren) startRun(ctx context.Context, req RunRequest, on func(agent.Event), onEnd func()) string {
	id := fmt.Sprintf("run-%d", w.runs.next.Add(1))
	ctx, cancel := context.WithCancel(ctx)
	w.runs.mu.Lock()
	if w.runs.closed {
		w.runs.mu.Unlock()
		cancel()
		go func() {
			on(agent.Event{Kind: agent.EventError, Error: "warren is shutting down: the turn did not start"})
			if onEnd != nil {
				onEnd()
			}
		}()
		return id
	}
	if w.runs.m == nil {
		w.runs.m = map[string]context.CancelFunc{}
	}
	w.runs.m[id] = cancel
	w.runs.active.Add(1)
	w.runs.mu.Unlock()
	go func() {
		defer w.runs.active.Done()
		defer func() {
			cancel()
			w.runs.mu.Lock()
			delete(w.runs.m, id)
			w.runs.mu.Unlock()
			if onEnd != nil {
				onEnd()
			}
		}()
		ended := false
		_, err := w.RunAgent(ctx, req, func(ev agent.Event) {
			ended = ended || ev.Kind == agent.EventDone || ev.Kind == agent.EventError
			on(ev)
		})
		if err != nil && !ended {
			on(agent.Event{Kind: agent.EventError, Error: err.Error()})
		}
	}()
	return id
}

// StopRun cancels a background turn; false when it already ended.
func (w *Warren) StopRun(id string) bool {
	w.runs.mu.Lock()
	cancel, ok := w.runs.m[id]
	w.runs.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// stopRuns refuses new background turns, cancels the running ones and
// waits for them to end, or for ctx; Close calls it so no turn writes
// after the database closes.
func (w *Warren) stopRuns(ctx context.Context) {
	w.runs.mu.Lock()
	w.runs.closed = true
	for _, cancel := range w.runs.m {
		cancel()
	}
	w.runs.mu.Unlock()
	done := make(chan struct{})
	go func() {
		w.runs.active.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		w.log.Warn("closing while agent turns are still ending")
	}
}
