package warren

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
)

// TopicSessionWaiting is reported by WaitSessionQuiet (never published on
// the bus) when it has to wait; its payload is a SessionWaiting.
const TopicSessionWaiting events.Topic = "session.waiting"

// SessionWaiting says what WaitSessionQuiet waits for.
type SessionWaiting struct {
	Session string `json:"session"`
	// Running are the session's background subagents still running; empty
	// when only their results are on the way.
	Running []agent.Task `json:"running"`
}

// ErrFollowUpFailed marks a turn Warren started to answer subagent results
// that ended in an error.
var ErrFollowUpFailed = errors.New("follow-up turn failed")

// maxSessionDepth bounds the walk from a subagent session up to its root.
const maxSessionDepth = 16

// followUps tracks the work that still reaches a session after its turn
// ended: background subagents until their results are handed over, and
// the turns Warren starts to answer them. WaitSessionQuiet waits on it.
type followUps struct {
	mu sync.Mutex
	// work counts, per session, its background subagents running or with
	// results not handed over yet, plus its turns answering results.
	work map[string]int
	// turns are the ids of those turns per session, so they can be stopped.
	turns    map[string]map[string]bool
	watchers map[*sessionWatch]bool
}

// sessionWatch is one WaitSessionQuiet call: the session's events not yet
// handed to the caller, and a wake-up on any change.
type sessionWatch struct {
	session string
	queue   []events.Event
	wake    chan struct{}
}

func newFollowUps() *followUps {
	return &followUps{work: map[string]int{}, turns: map[string]map[string]bool{}, watchers: map[*sessionWatch]bool{}}
}

// add changes a session's count of outstanding work.
func (f *followUps) add(session string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.work[session] += n
	if f.work[session] <= 0 {
		delete(f.work, session)
	}
	f.wakeAll()
}

// report queues ev for the session's watchers. Callers report an event
// before the change of count it causes, so a watcher that sees the session
// quiet has already been given the events that made it so.
func (f *followUps) report(session string, ev events.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for sw := range f.watchers {
		if sw.session == session {
			sw.queue = append(sw.queue, ev)
		}
	}
	f.wakeAll()
}

func (f *followUps) turnStarted(session, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.turns[session] == nil {
		f.turns[session] = map[string]bool{}
	}
	f.turns[session][id] = true
}

// turnEnded forgets a finished turn and the work it counted for.
func (f *followUps) turnEnded(session, id string) {
	f.mu.Lock()
	delete(f.turns[session], id)
	if len(f.turns[session]) == 0 {
		delete(f.turns, session)
	}
	f.mu.Unlock()
	f.add(session, -1)
}

// turnIDs returns the running follow-up turns by session.
func (f *followUps) turnIDs() map[string][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]string{}
	for s, ids := range f.turns {
		for id := range ids {
			out[s] = append(out[s], id)
		}
	}
	return out
}

// wakeAll nudges every watcher (caller holds mu): the count of any session
// may be part of a watched one's tree.
func (f *followUps) wakeAll() {
	for sw := range f.watchers {
		select {
		case sw.wake <- struct{}{}:
		default:
		}
	}
}

func (f *followUps) watch(session string) *sessionWatch {
	sw := &sessionWatch{session: session, wake: make(chan struct{}, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watchers[sw] = true
	return sw
}

func (f *followUps) unwatch(sw *sessionWatch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.watchers, sw)
}

// take returns the events queued for sw and, in the same step, the
// sessions that still have work coming.
func (f *followUps) take(sw *sessionWatch) ([]events.Event, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs := sw.queue
	sw.queue = nil
	busy := make([]string, 0, len(f.work))
	for s := range f.work {
		busy = append(busy, s)
	}
	return evs, busy
}

// publishSession publishes a subagent or follow-up event on the bus and
// reports it to the session's watchers, who must not miss it.
func (w *Warren) publishSession(session string, ev events.Event) {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	w.bus.Publish(ev)
	w.followUps.report(session, ev)
}

// WaitSessionQuiet waits until no more work will reach session: no
// background subagent it owns, at any depth, is running or has results
// waiting to be handed over, and no turn Warren started to answer them is
// running. It returns at once when the session is quiet already.
//
// Otherwise on gets, on the caller's goroutine and none dropped: first a
// TopicSessionWaiting report, then the session's subagent, announcement
// and follow-up turn events with the bus's topics and payloads (RunEvent
// for the turns). The error wraps ErrFollowUpFailed for each follow-up
// turn that failed; it is ctx's error when ctx ends first, and the work
// goes on (StopFollowUps stops it).
func (w *Warren) WaitSessionQuiet(ctx context.Context, session string, on func(events.Event)) error {
	if on == nil {
		on = func(events.Event) {}
	}
	sw := w.followUps.watch(session)
	defer w.followUps.unwatch(sw)
	var failed []error
	for first := true; ; first = false {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, busy := w.followUps.take(sw)
		quiet, err := w.quiet(ctx, session, busy)
		if err != nil {
			return err
		}
		if first && !quiet {
			on(events.Event{Topic: TopicSessionWaiting, Time: time.Now(),
				Payload: SessionWaiting{Session: session, Running: w.runningBackground(session)}})
		}
		for _, ev := range evs {
			if re, ok := ev.Payload.(RunEvent); ok && re.Kind == agent.EventError {
				failed = append(failed, fmt.Errorf("%w: %s: %s", ErrFollowUpFailed, re.Run, re.Error))
			}
			on(ev)
		}
		if quiet {
			return errors.Join(failed...)
		}
		select {
		case <-sw.wake:
		case <-ctx.Done():
		case <-w.life.Done():
			return fmt.Errorf("warren closed while waiting for session %s", session)
		}
	}
}

// StopFollowUps stops the work still headed for session: the turns
// answering its subagents' results, then every subagent it owns, at any
// depth. It returns the ids of the subagents it cancelled. Results already
// waiting for their debounce are not dropped: they start a turn unless
// Warren closes first.
func (w *Warren) StopFollowUps(ctx context.Context, session string) ([]string, error) {
	for s, ids := range w.followUps.turnIDs() {
		owned, err := w.owns(ctx, session, s)
		if err != nil {
			return nil, err
		}
		if !owned {
			continue
		}
		for _, id := range ids {
			w.StopRun(id)
		}
	}
	var cancelled []string
	for _, t := range w.subagents.List("") {
		if t.Status != agent.TaskRunning {
			continue
		}
		owned, err := w.owns(ctx, session, t.Parent)
		if err != nil {
			return cancelled, err
		}
		if !owned {
			continue
		}
		ids, err := w.subagents.Cancel(t.Parent, t.ID)
		if err != nil {
			return cancelled, err
		}
		cancelled = append(cancelled, ids...)
	}
	return cancelled, nil
}

// quiet reports whether none of the busy sessions belongs to root's tree.
func (w *Warren) quiet(ctx context.Context, root string, busy []string) (bool, error) {
	for _, s := range busy {
		owned, err := w.owns(ctx, root, s)
		if err != nil || owned {
			return false, err
		}
	}
	return true, nil
}

// owns reports whether session is root or a subagent session below it.
func (w *Warren) owns(ctx context.Context, root, session string) (bool, error) {
	for range maxSessionDepth {
		if session == root {
			return true, nil
		}
		if session == "" {
			return false, nil
		}
		s, err := w.Sessions().Get(ctx, session)
		if errors.Is(err, sessions.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		session = s.ParentID
	}
	return false, nil
}

// runningBackground returns the session's background subagents still running.
func (w *Warren) runningBackground(session string) []agent.Task {
	running := []agent.Task{}
	for _, t := range w.SubagentTasks(session) {
		if t.Background && t.Status == agent.TaskRunning {
			running = append(running, t)
		}
	}
	return running
}
