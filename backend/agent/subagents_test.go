package agent_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/agent"
)

// blocking runs until cancelled or released.
type blocking struct {
	mu      sync.Mutex
	release chan struct{}
	tasks   []string
}

func (b *blocking) run(ctx context.Context, s agent.Spawn) (agent.Result, error) {
	b.mu.Lock()
	b.tasks = append(b.tasks, s.Task)
	b.mu.Unlock()
	select {
	case <-ctx.Done():
		return agent.Result{}, ctx.Err()
	case <-b.release:
		return agent.Result{Text: "done: " + s.Task, Session: "s-child"}, nil
	}
}

func TestSubagentLimitsCancelSteer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := &blocking{release: make(chan struct{})}
	var announced sync.WaitGroup
	lim := agent.DefaultLimits
	lim.SteerSettle = time.Millisecond
	var started sync.Map
	m := agent.NewSubagents(agent.SubagentsOptions{Limits: lim, Run: b.run,
		OnStart: func(task agent.Task) { started.Store(task.ID, task) },
		OnDone: func(task agent.Task) {
			if task.Parent != "p3" {
				announced.Done()
			}
		}})
	if _, err := m.Start(ctx, agent.Spawn{Parent: "p1", Depth: 2, Task: "deep"}); !errors.Is(err, agent.ErrLimit) || !strings.Contains(err.Error(), "depth") {
		t.Fatalf("depth limit: %v", err)
	}
	announced.Add(8)
	for i := range 5 {
		if _, err := m.Start(ctx, agent.Spawn{Parent: "p1", Depth: 1, Task: string(rune('a' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := m.Start(ctx, agent.Spawn{Parent: "p1", Depth: 1, Task: "sixth"})
	if !errors.Is(err, agent.ErrLimit) || !strings.Contains(err.Error(), "at capacity (5/5)") {
		t.Fatalf("children limit: %v", err)
	}
	for _, task := range []string{"x", "y", "z"} {
		if _, err := m.Start(ctx, agent.Spawn{Parent: "p2", Depth: 1, Task: task}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start(ctx, agent.Spawn{Parent: "p2", Depth: 1, Task: "over"}); err == nil || !strings.Contains(err.Error(), "8/8") {
		t.Fatalf("global limit: %v", err)
	}
	ids, err := m.Cancel("p1", "last")
	if err != nil || len(ids) != 1 || ids[0] != "sub-5" {
		t.Fatalf("cancel last: %v %v", ids, err)
	}
	steered, err := m.Steer(ctx, "p1", "sub-1", "focus on tests")
	if err != nil || !strings.Contains(steered.Task, "focus on tests") || steered.Status != agent.TaskRunning {
		t.Fatalf("steer: %+v %v", steered, err)
	}
	announced.Add(1) // the respawned one
	if _, err := m.Cancel("p1", "nope"); err == nil {
		t.Fatal("unknown id accepted")
	}
	close(b.release)
	announced.Wait()
	byStatus := map[string]int{}
	for _, task := range m.List("") {
		byStatus[task.Status]++
	}
	if byStatus[agent.TaskCancelled] != 2 || byStatus[agent.TaskCompleted] != 7 {
		t.Fatalf("statuses %v", byStatus)
	}
	// run (sync) waits for the answer.
	res, err := m.Run(ctx, agent.Spawn{Parent: "p3", Depth: 1, Task: "quick"})
	if err != nil || res.Status != agent.TaskCompleted || res.Result != "done: quick" || res.Background {
		t.Fatalf("run: %+v %v", res, err)
	}
	// Every task was observed starting: 5+3 spawned, 1 respawned by steer, 1 run.
	n := 0
	started.Range(func(_, v any) bool {
		task := v.(agent.Task)
		if task.Status != agent.TaskRunning || task.Background != (task.Parent != "p3") {
			t.Errorf("started event %+v", task)
		}
		n++
		return true
	})
	if n != 10 {
		t.Fatalf("%d start events, want 10", n)
	}
}

// Close cancels running subagents, waits for them and refuses new ones.
func TestSubagentsClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := &blocking{release: make(chan struct{})}
	m := agent.NewSubagents(agent.SubagentsOptions{Limits: agent.DefaultLimits, Run: b.run})
	if _, err := m.Start(ctx, agent.Spawn{Parent: "p", Depth: 1, Task: "long"}); err != nil {
		t.Fatal(err)
	}
	m.Close(ctx)
	if tasks := m.List("p"); len(tasks) != 1 || tasks[0].Status != agent.TaskCancelled {
		t.Fatalf("after Close: %+v", tasks)
	}
	if _, err := m.Start(ctx, agent.Spawn{Parent: "p", Depth: 1, Task: "late"}); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Fatalf("start after Close = %v", err)
	}
}
