package warren

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/automation"
	"github.com/warren-dev/warren/tools/sessiontools"
)

// initAutomation registers cron and the session tools and builds the
// scheduler; the window starts it with RunScheduler (CLI commands are too
// short-lived to run jobs).
func (w *Warren) initAutomation() error {
	w.cronStore = cron.NewStore(w.db.SQL())
	sched, err := cron.NewScheduler(cron.SchedulerOptions{Store: w.cronStore, Logger: w.log,
		Run: func(ctx context.Context, j cron.Job) (string, string, error) {
			res, err := w.RunAgent(ctx, RunRequest{Agent: j.Agent, Prompt: j.Prompt}, nil)
			return res.Text, res.Session, err
		}})
	if err != nil {
		return err
	}
	w.scheduler = sched
	static, err := automation.StaticTools(automation.Deps{Cron: w.cronStore, OnCronChange: sched.Notify})
	if err != nil {
		return err
	}
	sess, err := sessiontools.Tools(sessiontools.Deps{Sessions: w.Sessions(),
		Send: func(ctx context.Context, id, text string) (string, error) {
			s, err := w.Sessions().Get(ctx, id)
			if err != nil {
				return "", err
			}
			res, err := w.RunAgent(ctx, RunRequest{Agent: s.Agent, Session: id, Prompt: text}, nil)
			return res.Text, err
		}})
	if err != nil {
		return err
	}
	return w.registry.RegisterAll(append(static, sess...)...)
}

// RunScheduler runs due cron jobs until ctx ends (the window calls it).
func (w *Warren) RunScheduler(ctx context.Context) error { return w.scheduler.Run(ctx) }

// CronJobs returns the cron store.
func (w *Warren) CronJobs() *cron.Store { return w.cronStore }

// taskRun is what a run's injected tools need.
type taskRun struct {
	agent    string
	provider llm.Provider
	model    string
	emulate  bool // the run's resolved tool mode, which its subagents share
	base     RunRequest
}

// taskRegistry is the agent's registry plus the tools injected for this run
// only: runtime tools that need the run's model (plan_create, todo_update)
// and the engine-scoped spawn tool, whose subagents reuse the run's model.
func (w *Warren) taskRegistry(ctx context.Context, r taskRun) (*tools.Registry, error) {
	base, err := w.registryFor(ctx, r.agent)
	if err != nil {
		return nil, err
	}
	rt, err := automation.RuntimeTools(automation.Deps{
		Completer: completer{r.provider, r.model},
		StateDir:  filepath.Join(w.dataDir, "state", r.agent),
	})
	if err != nil {
		return nil, err
	}
	spawn, err := sessiontools.Spawn(w.subagents, w.childRunner(r))
	if err != nil {
		return nil, err
	}
	return base.WithTools(append(rt, spawn)...)
}

// completer adapts a provider to the one-shot completions runtime tools use.
type completer struct {
	p     llm.Provider
	model string
}

func (c completer) Complete(ctx context.Context, system, user string) (string, error) {
	resp, err := c.p.Stream(ctx, llm.Request{Model: c.model, Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user},
	}}, nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.p.Name(), err)
	}
	return resp.Message.Content, nil
}
