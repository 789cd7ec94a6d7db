package warren

import (
	"context"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
)

// Subagent and run topics on the bus.
const (
	// TopicSubagentStarted carries an agent.Task when a subagent starts.
	TopicSubagentStarted events.Topic = "subagent.started"
	// TopicSubagentDone carries an agent.Task when a subagent ends.
	TopicSubagentDone events.Topic = "subagent.done"
	// TopicSubagentAnnounced carries an Announcement when a batch of
	// background subagents was handed to their parent conversation.
	TopicSubagentAnnounced events.Topic = "subagent.announced"
	// TopicRunEvent carries a RunEvent of a turn Warren started on its own
	// (to answer subagent results), which no UI call is streaming.
	TopicRunEvent events.Topic = "run.event"
)

// Announcement is a batch of finished subagents delivered to a parent.
type Announcement struct {
	Session string       `json:"session"`
	Tasks   []agent.Task `json:"tasks"`
	// Run is the turn started to answer it; empty when the parent was
	// running and picked it up before its next model call.
	Run string `json:"run_id,omitempty"`
}

// RunEvent is one event of a turn Warren started on its own.
type RunEvent struct {
	Run string `json:"run_id"`
	agent.Event
}

// announcer carries subagent results back to parent conversations.
type announcer struct {
	inbox *agent.Inbox
	queue *agent.AnnounceQueue

	mu sync.Mutex
	// parents remembers how each parent session ran (its model, workspace,
	// depth), so the turn that answers its subagents runs the same way.
	parents map[string]RunRequest
}

// initSubagents builds the subagent manager and the announce queue, which
// runs until Close: background subagents that end are published on the bus
// and announced to their parent in debounced batches.
func (w *Warren) initSubagents(debounce time.Duration) {
	a := &announcer{inbox: agent.NewInbox(), parents: map[string]RunRequest{}}
	a.queue = agent.NewAnnounceQueue(agent.AnnounceOptions{Debounce: debounce, Deliver: w.deliverAnnouncement})
	w.announcer = a
	w.followUps = newFollowUps()
	go a.queue.Run(w.life)
	w.subagents = agent.NewSubagents(agent.SubagentsOptions{
		Limits: agent.DefaultLimits,
		OnStart: func(t agent.Task) {
			if t.Background {
				w.followUps.add(t.Parent, 1) // until its result is handed over
			}
			w.publishSession(t.Parent, events.Event{Topic: TopicSubagentStarted, Payload: t})
		},
		OnDone: func(t agent.Task) {
			w.publishSession(t.Parent, events.Event{Topic: TopicSubagentDone, Payload: t})
			switch {
			case announceable(t):
				a.queue.Add(t)
			case t.Background:
				w.followUps.add(t.Parent, -1) // nothing to hand over
			}
		},
	})
}

// announceable says whether the parent must be told a task ended:
// synchronous runs already returned their result as the tool result, and a
// cancel came from the parent or the user, who know.
func announceable(t agent.Task) bool {
	return t.Background && t.Status != agent.TaskCancelled
}

// childRunner runs a subagent with the parent run's model, and remembers
// how the parent ran for the turn that will answer its results.
func (w *Warren) childRunner(r taskRun) agent.ChildRunner {
	return func(ctx context.Context, s agent.Spawn) (agent.Result, error) {
		w.announcer.remember(s.Parent, RunRequest{Agent: r.agent, Session: s.Parent, Model: r.model,
			Workspace: r.base.Workspace, EmulateTools: r.emulate, ParentSession: r.base.ParentSession,
			Depth: r.base.Depth, provider: r.provider})
		return w.RunAgent(ctx, RunRequest{Agent: s.Agent, Prompt: s.Task, ParentSession: s.Parent, Depth: s.Depth,
			Workspace: r.base.Workspace, Model: r.model, EmulateTools: r.emulate, provider: r.provider}, nil)
	}
}

// deliverAnnouncement hands a batch to the parent's running turn, or starts
// a turn of the parent whose prompt is the announcement.
func (w *Warren) deliverAnnouncement(ctx context.Context, parent string, batch []agent.Task) {
	text := agent.FormatAnnouncement(batch)
	req, known := w.announcer.parentRun(parent, w.subagents)
	if w.announcer.inbox.Deliver(parent, text) {
		w.publishSession(parent, events.Event{Topic: TopicSubagentAnnounced, Payload: Announcement{Session: parent, Tasks: batch}})
		w.followUps.add(parent, -len(batch))
		return
	}
	if !known {
		s, err := w.Sessions().Get(ctx, parent)
		if err != nil {
			w.log.Warn("subagent results for a session that is gone", "session", parent, "err", err)
			w.followUps.add(parent, -len(batch))
			return
		}
		req = RunRequest{Agent: s.Agent, Session: parent}
	}
	req.Prompt, req.promptKind = text, sessions.KindSubagentResults
	// The batch becomes the turn that answers it in one step, so the
	// parent never looks quiet in between.
	w.followUps.add(parent, 1-len(batch))
	var id string
	ready := make(chan struct{})
	id = w.startRun(ctx, req, func(ev agent.Event) {
		<-ready // the id is known before the first event is tagged with it
		w.publishSession(parent, events.Event{Topic: TopicRunEvent, Payload: RunEvent{Run: id, Event: ev}})
	}, func() {
		<-ready
		w.followUps.turnEnded(parent, id)
	})
	w.followUps.turnStarted(parent, id)
	w.publishSession(parent, events.Event{Topic: TopicSubagentAnnounced, Payload: Announcement{Session: parent, Tasks: batch, Run: id}})
	close(ready)
}

func (a *announcer) remember(parent string, req RunRequest) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.parents[parent] = req
}

// parentRun returns how parent ran, forgetting it once none of its
// subagents is still running (no later announcement will need it).
func (a *announcer) parentRun(parent string, subs *agent.Subagents) (RunRequest, bool) {
	running := false
	for _, t := range subs.List(parent) {
		running = running || t.Status == agent.TaskRunning
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	req, ok := a.parents[parent]
	if !running {
		delete(a.parents, parent)
	}
	return req, ok
}

// SubagentTasks returns the subagents a session started, oldest first,
// including finished ones not yet archived (never nil).
func (w *Warren) SubagentTasks(session string) []agent.Task {
	if session == "" {
		return []agent.Task{}
	}
	out := w.subagents.List(session)
	if out == nil {
		out = []agent.Task{}
	}
	return out
}

// CancelSubagent stops one running subagent of a session (or "all" or
// "last") and waits until it has stopped; it returns the ids it cancelled.
func (w *Warren) CancelSubagent(session, id string) ([]string, error) {
	return w.subagents.Cancel(session, id)
}
