package automation

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/tools"
)

//go:embed cron.md
var cronDoc string

// CronParams are the parameters of cron.
type CronParams struct {
	Action   string `json:"action" enum:"add|list|remove|enable|disable" description:"What to do"`
	Name     string `json:"name,omitempty" description:"Short job name (add)"`
	Schedule string `json:"schedule,omitempty" description:"5-field cron expression (minute hour day-of-month month day-of-week), @daily-style macro, or 'at <RFC3339>' for one run (add)"`
	Prompt   string `json:"prompt,omitempty" description:"The instruction the agent runs on schedule (add)"`
	ID       string `json:"id,omitempty" description:"Job id (remove, enable, disable)"`
}

func newCron(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "cron", Group: "automation", LongDescription: cronDoc, Danger: tools.DangerWarning,
		Description: "Schedule prompts to run later or repeatedly (cron expressions or one-shot times); list, remove, enable or disable jobs.",
	}, func(ctx context.Context, p CronParams) (tools.Result, error) {
		agent := tools.AgentFrom(ctx)
		if agent == "" {
			return tools.Errorf(tools.CodeValidation, "cron needs an agent context"), nil
		}
		res, changed, err := cronAction(ctx, d.Cron, agent, p)
		if changed && d.OnCronChange != nil {
			d.OnCronChange()
		}
		return res, err
	})
}

func cronAction(ctx context.Context, st *cron.Store, agent string, p CronParams) (tools.Result, bool, error) {
	switch p.Action {
	case "add":
		if strings.TrimSpace(p.Schedule) == "" || strings.TrimSpace(p.Prompt) == "" {
			return tools.Errorf(tools.CodeValidation, "add needs schedule and prompt"), false, nil
		}
		j, err := st.Add(ctx, cron.Job{Agent: agent, Name: p.Name, Schedule: p.Schedule, Prompt: p.Prompt})
		if errors.Is(err, cron.ErrInvalid) {
			return tools.Errorf(tools.CodeValidation, "%v", err), false, nil
		}
		if err != nil {
			return tools.Result{}, false, err
		}
		return tools.Text("added " + describe(j)), true, nil
	case "list":
		jobs, err := st.List(ctx, agent)
		if err != nil {
			return tools.Result{}, false, err
		}
		if len(jobs) == 0 {
			return tools.Text("no scheduled jobs"), false, nil
		}
		var b strings.Builder
		for _, j := range jobs {
			b.WriteString(describe(j))
			b.WriteString("\n")
		}
		return tools.Text(strings.TrimSpace(b.String())), false, nil
	case "remove", "enable", "disable":
		if p.ID == "" {
			return tools.Errorf(tools.CodeValidation, "%s needs the job id (see action list)", p.Action), false, nil
		}
		j, err := st.Get(ctx, p.ID)
		if errors.Is(err, cron.ErrNotFound) || (err == nil && j.Agent != agent) {
			return tools.Errorf(tools.CodeNotFound, "no job %q for this agent", p.ID), false, nil
		}
		if err != nil {
			return tools.Result{}, false, err
		}
		if p.Action == "remove" {
			if err := st.Remove(ctx, p.ID); err != nil {
				return tools.Result{}, false, err
			}
			return tools.Text("removed " + p.ID), true, nil
		}
		j, err = st.SetEnabled(ctx, p.ID, p.Action == "enable")
		if errors.Is(err, cron.ErrInvalid) {
			return tools.Errorf(tools.CodeValidation, "%v", err), false, nil
		}
		if err != nil {
			return tools.Result{}, false, err
		}
		return tools.Text(p.Action + "d " + describe(j)), true, nil
	}
	return tools.Errorf(tools.CodeValidation, "invalid action %q: use add, list, remove, enable or disable", p.Action), false, nil
}

func describe(j cron.Job) string {
	s := fmt.Sprintf("%s %q schedule=%q enabled=%t", j.ID, j.Name, j.Schedule, j.Enabled)
	if !j.NextRun.IsZero() {
		s += " next_run=" + j.NextRun.Local().Format(time.RFC3339)
	}
	if !j.LastRun.IsZero() {
		s += fmt.Sprintf(" last_run=%s last_status=%s", j.LastRun.Local().Format(time.RFC3339), j.LastStatus)
		if r := strings.Join(strings.Fields(j.LastResult), " "); r != "" {
			s += fmt.Sprintf(" last_result=%q", tools.Clip(r, 200))
		}
	}
	return s + fmt.Sprintf(" prompt=%q", j.Prompt)
}
