package agent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound subagents (seed §6 defaults).
type Limits struct {
	MaxConcurrent       int           // running subagents across all parents
	MaxSpawnDepth       int           // nesting depth
	MaxChildrenPerAgent int           // running children of one parent session
	ArchiveAfter        time.Duration // finished tasks are forgotten after this
	SteerSettle         time.Duration // pause between cancel and respawn in steer
}

// DefaultLimits are the seed's values.
var DefaultLimits = Limits{MaxConcurrent: 8, MaxSpawnDepth: 1, MaxChildrenPerAgent: 5,
	ArchiveAfter: 60 * time.Minute, SteerSettle: 500 * time.Millisecond}

// Task states.
const (
	TaskRunning   = "running"
	TaskCompleted = "completed"
	TaskFailed    = "failed"
	TaskCancelled = "cancelled"
)

// Task is one subagent.
type Task struct {
	ID      string    `json:"id"`
	Label   string    `json:"label"`
	Task    string    `json:"task"`
	Parent  string    `json:"parent_session"`
	Agent   string    `json:"agent"`
	Depth   int       `json:"depth"`
	Session string    `json:"session,omitempty"`
	Status  string    `json:"status"`
	Result  string    `json:"result,omitempty"`
	Error   string    `json:"error,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"`
	// Background is true for spawned tasks (announced to the parent when
	// they end) and false for synchronous runs, whose result the parent
	// already received as the tool result.
	Background bool `json:"background"`

	seq    uint64
	runner ChildRunner
	cancel context.CancelFunc
	done   chan struct{}
}

// Spawn describes a subagent to start.
type Spawn struct {
	Parent string // the parent's session
	Agent  string
	Depth  int // the child's depth (parent depth + 1)
	Task   string
	Label  string
	// Runner runs this child (with the parent run's model); nil uses the
	// manager's default runner.
	Runner ChildRunner
}

// ChildRunner runs a subagent's task to completion in a new child session.
type ChildRunner func(ctx context.Context, s Spawn) (Result, error)

// SubagentsOptions configures a Subagents manager.
type SubagentsOptions struct {
	Limits Limits
	// Run is the default runner for spawns that bring none; may be nil.
	Run ChildRunner
	// OnStart and OnDone observe every task as it starts and ends (the
	// bus, the announce queue); either may be nil. They run on the
	// spawning and the child's goroutine respectively.
	OnStart, OnDone func(Task)
}

// Subagents starts, tracks and stops subagents.
type Subagents struct {
	limits  Limits
	run     ChildRunner
	onStart func(Task)
	onDone  func(Task)
	now     func() time.Time
	seq     atomic.Uint64

	mu     sync.Mutex
	tasks  map[string]*Task
	closed bool
}

// NewSubagents returns a manager.
func NewSubagents(opts SubagentsOptions) *Subagents {
	return &Subagents{limits: opts.Limits, run: opts.Run, onStart: opts.OnStart, onDone: opts.OnDone,
		now: time.Now, tasks: map[string]*Task{}}
}

// ErrLimit marks a refused spawn; its message is written for the model.
var ErrLimit = errors.New("subagent limit")

// Start launches a subagent in the background and returns at once; its
// result is announced when it ends.
func (m *Subagents) Start(ctx context.Context, s Spawn) (Task, error) {
	return m.start(ctx, s, true)
}

func (m *Subagents) start(ctx context.Context, s Spawn, background bool) (Task, error) {
	if s.Depth > m.limits.MaxSpawnDepth {
		return Task{}, fmt.Errorf("%w: maximum nesting depth (%d) reached; do this task yourself", ErrLimit, m.limits.MaxSpawnDepth)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Task{}, errors.New("warren is shutting down: no new subagents")
	}
	m.sweep()
	running, children := 0, 0
	for _, t := range m.tasks {
		if t.Status == TaskRunning {
			running++
			if t.Parent == s.Parent {
				children++
			}
		}
	}
	if running >= m.limits.MaxConcurrent {
		m.mu.Unlock()
		return Task{}, fmt.Errorf("%w: at capacity (%d/%d subagents running); wait for one to finish or do it yourself", ErrLimit, running, m.limits.MaxConcurrent)
	}
	if children >= m.limits.MaxChildrenPerAgent {
		m.mu.Unlock()
		return Task{}, fmt.Errorf("%w: at capacity (%d/%d) for this agent; wait for a subagent to finish or handle it yourself", ErrLimit, children, m.limits.MaxChildrenPerAgent)
	}
	// The child outlives the spawning tool call, not Warren.
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	n := m.seq.Add(1)
	t := &Task{seq: n, ID: fmt.Sprintf("sub-%d", n), Label: s.Label, Task: s.Task, Parent: s.Parent, Agent: s.Agent,
		Depth: s.Depth, Status: TaskRunning, Started: m.now(), Background: background, cancel: cancel, done: make(chan struct{}), runner: s.Runner}
	m.tasks[t.ID] = t
	snap := t.snapshot()
	m.mu.Unlock()
	if m.onStart != nil {
		m.onStart(snap)
	}
	go m.finish(cctx, t, s)
	return snap, nil
}

func (m *Subagents) finish(ctx context.Context, t *Task, s Spawn) {
	run := s.Runner
	if run == nil {
		run = m.run
	}
	var res Result
	err := errors.New("no subagent runner configured")
	if run != nil {
		res, err = run(ctx, s)
	}
	m.mu.Lock()
	t.Session, t.Ended, t.Result = res.Session, m.now(), res.Text
	switch {
	case ctx.Err() != nil:
		t.Status = TaskCancelled
	case err != nil:
		t.Status, t.Error = TaskFailed, err.Error()
	default:
		t.Status = TaskCompleted
	}
	snap := t.snapshot()
	m.mu.Unlock()
	t.cancel()
	close(t.done)
	if m.onDone != nil {
		m.onDone(snap)
	}
}

// Run starts a subagent and waits for it (the sync form); the caller gets
// the result, so it is not announced.
func (m *Subagents) Run(ctx context.Context, s Spawn) (Task, error) {
	t, err := m.start(ctx, s, false)
	if err != nil {
		return t, err
	}
	return m.Wait(ctx, t.ID)
}

// Wait blocks until the task ends or ctx is done (which cancels it).
func (m *Subagents) Wait(ctx context.Context, id string) (Task, error) {
	m.mu.Lock()
	t, ok := m.tasks[id]
	m.mu.Unlock()
	if !ok {
		return Task{}, fmt.Errorf("no subagent %q", id)
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		t.cancel()
		<-t.done
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.snapshot(), nil
}

// Close refuses new subagents, cancels the running ones and waits until
// they ended (or ctx is done).
func (m *Subagents) Close(ctx context.Context) {
	m.mu.Lock()
	m.closed = true
	var running []*Task
	for _, t := range m.tasks {
		if t.Status == TaskRunning {
			running = append(running, t)
		}
	}
	m.mu.Unlock()
	for _, t := range running {
		t.cancel()
	}
	for _, t := range running {
		select {
		case <-t.done:
		case <-ctx.Done():
			return
		}
	}
}

// List returns a parent's tasks, oldest first ("" = every parent).
func (m *Subagents) List(parent string) []Task {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep()
	var out []Task
	for _, t := range m.tasks {
		if parent == "" || t.Parent == parent {
			out = append(out, t.snapshot())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// Cancel stops a parent's running tasks: one id, "all", or "last" (the most
// recently started). It returns the ids it cancelled.
func (m *Subagents) Cancel(parent, which string) ([]string, error) {
	tasks := m.List(parent)
	var pick []Task
	switch which {
	case "all":
		pick = tasks
	case "last":
		for i := len(tasks) - 1; i >= 0; i-- {
			if tasks[i].Status == TaskRunning {
				pick = []Task{tasks[i]}
				break
			}
		}
	default:
		for _, t := range tasks {
			if t.ID == which {
				pick = []Task{t}
			}
		}
		if pick == nil {
			return nil, fmt.Errorf("no subagent %q of this session", which)
		}
	}
	var ids []string
	for _, t := range pick {
		if t.Status != TaskRunning {
			continue
		}
		m.mu.Lock()
		real := m.tasks[t.ID]
		m.mu.Unlock()
		real.cancel()
		<-real.done
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// Steer cancels a running task, lets it settle, and respawns it with a new
// message appended to its task.
func (m *Subagents) Steer(ctx context.Context, parent, id, message string) (Task, error) {
	var old Task
	for _, t := range m.List(parent) {
		if t.ID == id {
			old = t
		}
	}
	if old.ID == "" {
		return Task{}, fmt.Errorf("no subagent %q of this session", id)
	}
	m.mu.Lock()
	runner := m.tasks[id].runner
	m.mu.Unlock()
	if _, err := m.Cancel(parent, id); err != nil {
		return Task{}, err
	}
	select {
	case <-time.After(m.limits.SteerSettle):
	case <-ctx.Done():
		return Task{}, ctx.Err()
	}
	return m.Start(ctx, Spawn{Parent: parent, Agent: old.Agent, Depth: old.Depth, Label: old.Label, Runner: runner,
		Task: old.Task + "\n\nNew instruction from the parent agent: " + message})
}

// sweep forgets finished tasks older than ArchiveAfter (caller holds mu).
func (m *Subagents) sweep() {
	for id, t := range m.tasks {
		if t.Status != TaskRunning && m.now().Sub(t.Ended) > m.limits.ArchiveAfter {
			delete(m.tasks, id)
		}
	}
}

func (t *Task) snapshot() Task {
	c := *t
	c.cancel, c.done, c.runner = nil, nil, nil
	return c
}
