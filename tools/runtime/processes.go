package runtime

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/sandbox"
)

// Process is a background command.
type Process struct {
	ID      string         `json:"id"`
	Command string         `json:"command"`
	Where   string         `json:"where"`
	Started time.Time      `json:"started"`
	Done    bool           `json:"done"`
	Killed  bool           `json:"killed"`
	Result  sandbox.Result `json:"result"`
	Err     string         `json:"error,omitempty"`

	cancel context.CancelFunc
}

// Processes tracks background commands for the lifetime of Warren.
type Processes struct {
	mu    sync.Mutex
	procs map[string]*Process
	seq   atomic.Uint64
}

// NewProcesses returns an empty table.
func NewProcesses() *Processes { return &Processes{procs: map[string]*Process{}} }

// Start runs req on runner in the background. The command outlives the
// tool call (its ctx only supplies values) until it ends, times out or is
// killed.
func (t *Processes) Start(ctx context.Context, runner sandbox.Runner, req sandbox.Request, command string) Process {
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &Process{
		ID: fmt.Sprintf("p%d", t.seq.Add(1)), Command: command, Where: runner.Name(),
		Started: time.Now(), cancel: cancel,
	}
	t.mu.Lock()
	t.procs[p.ID] = p
	started := p.snapshot() // before the goroutine can change it
	t.mu.Unlock()
	go func() {
		defer cancel()
		res, err := runner.Run(bg, req)
		t.mu.Lock()
		defer t.mu.Unlock()
		p.Done, p.Result = true, res
		switch {
		case err != nil && bg.Err() != nil:
			p.Killed = true // stopped by Kill or Warren exiting
		case err != nil:
			p.Err = err.Error()
		}
	}()
	return started
}

func (p *Process) snapshot() Process {
	c := *p
	c.cancel = nil
	return c
}

// Get returns a snapshot of one process.
func (t *Processes) Get(id string) (Process, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.procs[id]
	if !ok {
		return Process{}, false
	}
	return p.snapshot(), true
}

// List returns snapshots, oldest first.
func (t *Processes) List() []Process {
	t.mu.Lock()
	out := make([]Process, 0, len(t.procs))
	for _, p := range t.procs {
		out = append(out, p.snapshot())
	}
	t.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// Kill stops a running process; killing a finished one is a no-op.
func (t *Processes) Kill(id string) (Process, bool) {
	t.mu.Lock()
	p, ok := t.procs[id]
	t.mu.Unlock()
	if !ok {
		return Process{}, false
	}
	p.cancel()
	return t.Get(id)
}

// Wait blocks until the process ends or ctx is done (used by tests and
// by poll with a wait).
func (t *Processes) Wait(ctx context.Context, id string) (Process, bool) {
	for {
		p, ok := t.Get(id)
		if !ok || p.Done {
			return p, ok
		}
		select {
		case <-ctx.Done():
			return p, true
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// KillAll stops every running process (on exit).
func (t *Processes) KillAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.procs {
		p.cancel()
	}
}
