// Package automation holds the cron tool (static) and the runtime-injected
// planning tools plan_create and todo_update, which need a live LLM.
package automation

import (
	"context"
	"time"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/tools"
)

// Completer is the small slice of an LLM client the runtime tools need.
type Completer interface {
	Complete(ctx context.Context, system, user string) (string, error)
}

// Deps configures the automation tools.
type Deps struct {
	// Cron is the job store; nil leaves the cron tool out.
	Cron *cron.Store
	// OnCronChange is called after a job is added, removed or toggled
	// (usually Scheduler.Notify) so the scheduler re-arms its timer.
	OnCronChange func()
	// Completer is the active LLM: plan_create needs it (without one it
	// answers "unavailable"); todo_update uses it for semantic matching.
	Completer Completer
	// StateDir holds TODO.md and TODO.DONE.md; empty leaves todo_update out.
	StateDir string
	// PlanMaxSteps is plan_create's default max_steps (6 when zero).
	PlanMaxSteps int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Tools builds every automation tool its deps allow: StaticTools then
// RuntimeTools.
func Tools(d Deps) ([]tools.Tool, error) {
	st, err := StaticTools(d)
	if err != nil {
		return nil, err
	}
	rt, err := RuntimeTools(d)
	if err != nil {
		return nil, err
	}
	return append(st, rt...), nil
}

// StaticTools builds the tools registered once at start-up (cron).
func StaticTools(d Deps) ([]tools.Tool, error) {
	if d.Cron == nil {
		return nil, nil
	}
	t, err := newCron(d)
	if err != nil {
		return nil, err
	}
	return []tools.Tool{t}, nil
}

// RuntimeTools builds plan_create and todo_update (tools.ClassRuntime), to be
// injected per task with Registry.WithTools once the task's LLM is known.
func RuntimeTools(d Deps) ([]tools.Tool, error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.PlanMaxSteps <= 0 {
		d.PlanMaxSteps = 6
	}
	plan, err := newPlanCreate(d)
	if err != nil {
		return nil, err
	}
	out := []tools.Tool{plan}
	if d.StateDir != "" {
		todo, err := newTodoUpdate(d)
		if err != nil {
			return nil, err
		}
		out = append(out, todo)
	}
	return out, nil
}
