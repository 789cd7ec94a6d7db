package app

import (
	"time"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/warren"
)

// CronJobs lists every agent's scheduled jobs by name.
func (a *App) CronJobs() ([]cron.Job, error) { return a.core.ListCronJobs(a.context()) }

// AddCronJob validates and stores a new enabled job. Field problems come
// back one per line as "field: message" (agent, name, schedule, prompt).
func (a *App) AddCronJob(in warren.CronJobInput) (cron.Job, error) {
	return a.core.AddCronJob(a.context(), in)
}

// UpdateCronJob changes a job's agent, name, schedule and prompt, with the
// same "field: message" errors as AddCronJob.
func (a *App) UpdateCronJob(id string, in warren.CronJobInput) (cron.Job, error) {
	return a.core.UpdateCronJob(a.context(), id, in)
}

// CronSchedulePreview returns the next runs of a schedule (RFC 3339) as it
// is typed, or the parser's "schedule: …" error. Strings, not time.Time:
// the generated bindings would type a bare time.Time as an empty class.
func (a *App) CronSchedulePreview(schedule string, n int) ([]string, error) {
	next, err := a.core.CronSchedulePreview(schedule, n)
	out := make([]string, len(next))
	for i, t := range next {
		out[i] = t.Format(time.RFC3339)
	}
	return out, err
}

// SetCronJobEnabled turns a job on or off.
func (a *App) SetCronJobEnabled(id string, on bool) (cron.Job, error) {
	return a.core.SetCronJobEnabled(a.context(), id, on)
}

// DeleteCronJob removes a job.
func (a *App) DeleteCronJob(id string) error { return a.core.DeleteCronJob(a.context(), id) }

// RunCronJobNow starts an enabled job at once; CronJobs shows its progress.
func (a *App) RunCronJobNow(id string) (cron.Job, error) {
	return a.core.RunCronJobNow(a.context(), id)
}
