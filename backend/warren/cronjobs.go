package warren

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/store"
)

// CronJobInput is a scheduled job as the user enters it.
type CronJobInput struct {
	Agent    string `json:"agent"`
	Name     string `json:"name"`
	Schedule string `json:"schedule"`
	Prompt   string `json:"prompt"`
}

// Cron job fields a CronFieldError can name.
const (
	CronFieldAgent    = "agent"
	CronFieldName     = "name"
	CronFieldSchedule = "schedule"
	CronFieldPrompt   = "prompt"
)

// maxCronName bounds a job name; it is a label in a list, not a document.
const maxCronName = 100

// CronFieldError is a problem with one field of a job that the user can
// fix. It reads "field: message" so a UI can put it next to the field; it
// wraps cron.ErrInvalid.
type CronFieldError struct {
	Field   string
	Message string
}

func (e *CronFieldError) Error() string { return e.Field + ": " + e.Message }

// Unwrap makes errors.Is(err, cron.ErrInvalid) hold.
func (e *CronFieldError) Unwrap() error { return cron.ErrInvalid }

// ErrCronJobBusy is returned when a job asked to run is already running.
var ErrCronJobBusy = errors.New("cron job is already running")

// ErrCronJobDisabled is returned when a disabled job is asked to run now.
var ErrCronJobDisabled = errors.New("cron job is disabled")

// ListCronJobs returns every agent's jobs by name (never nil).
func (w *Warren) ListCronJobs(ctx context.Context) ([]cron.Job, error) {
	jobs, err := w.cronStore.List(ctx, "")
	if jobs == nil {
		jobs = []cron.Job{}
	}
	return jobs, err
}

// ValidateCronJob checks a job without storing it. All field problems are
// returned at once, joined one per line (errors.Join), each a
// *CronFieldError.
func (w *Warren) ValidateCronJob(ctx context.Context, in CronJobInput) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &CronFieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	agent := strings.TrimSpace(in.Agent)
	if agent == "" {
		bad(CronFieldAgent, "choose the agent that runs the prompt")
	} else if _, err := w.db.GetAgent(ctx, agent); errors.Is(err, store.ErrNotFound) {
		bad(CronFieldAgent, "no agent %q", agent)
	} else if err != nil {
		return err
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(in.Name)); n > maxCronName {
		bad(CronFieldName, "%d characters is too long (at most %d)", n, maxCronName)
	}
	if _, err := w.nextRuns(in.Schedule, 1); err != nil {
		errs = append(errs, err)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		bad(CronFieldPrompt, "write the instruction the agent runs")
	}
	return errors.Join(errs...)
}

// AddCronJob validates and stores a new, enabled job and wakes the
// scheduler. Field problems are *CronFieldError values (see ValidateCronJob).
func (w *Warren) AddCronJob(ctx context.Context, in CronJobInput) (cron.Job, error) {
	if err := w.ValidateCronJob(ctx, in); err != nil {
		return cron.Job{}, err
	}
	j, err := w.cronStore.Add(ctx, cron.Job{Agent: in.Agent, Name: in.Name, Schedule: in.Schedule, Prompt: in.Prompt})
	if err != nil {
		return cron.Job{}, err
	}
	w.scheduler.Notify()
	return j, nil
}

// UpdateCronJob validates a job's new fields exactly as AddCronJob does,
// stores them, keeping the job's enabled state and run history, and wakes
// the scheduler: the next run is counted from now under the new schedule.
// A running job cannot be edited (ErrCronJobBusy): the run would store the
// next run of the old schedule when it finishes.
func (w *Warren) UpdateCronJob(ctx context.Context, id string, in CronJobInput) (cron.Job, error) {
	cur, err := w.cronStore.Get(ctx, id)
	if err != nil {
		return cron.Job{}, err
	}
	if cur.LastStatus == cron.StatusRunning {
		return cur, fmt.Errorf("%w: wait for %s to finish before editing it", ErrCronJobBusy, cur.Name)
	}
	if err := w.ValidateCronJob(ctx, in); err != nil {
		return cron.Job{}, err
	}
	j, err := w.cronStore.Update(ctx, cron.Job{ID: id, Agent: in.Agent, Name: in.Name, Schedule: in.Schedule,
		Prompt: in.Prompt, Enabled: cur.Enabled})
	if err != nil {
		return cron.Job{}, err
	}
	w.scheduler.Notify()
	return j, nil
}

// CronSchedulePreview returns the next n (1–10) times a schedule runs from
// now, for showing a schedule in words while it is typed. A schedule that
// does not parse, or never runs again, is a *CronFieldError for "schedule".
func (w *Warren) CronSchedulePreview(schedule string, n int) ([]time.Time, error) {
	return w.nextRuns(schedule, min(max(n, 1), 10))
}

func (w *Warren) nextRuns(schedule string, n int) ([]time.Time, error) {
	sched, err := cron.ParseSchedule(schedule)
	if err != nil {
		return nil, &CronFieldError{Field: CronFieldSchedule, Message: err.Error()}
	}
	out := make([]time.Time, 0, n)
	for t := w.cronStore.Now(); len(out) < n; {
		if t = sched.Next(t); t.IsZero() {
			break
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("%q never runs after now", strings.TrimSpace(schedule))
		if sched.OneShot() {
			msg = "that time has already passed; pick a time in the future"
		}
		return nil, &CronFieldError{Field: CronFieldSchedule, Message: msg}
	}
	return out, nil
}

// SetCronJobEnabled turns a job on (its next run counted from now) or off.
func (w *Warren) SetCronJobEnabled(ctx context.Context, id string, on bool) (cron.Job, error) {
	j, err := w.cronStore.SetEnabled(ctx, id, on)
	if err != nil {
		return cron.Job{}, err
	}
	w.scheduler.Notify()
	return j, nil
}

// DeleteCronJob removes a job. A run in progress finishes; its result is
// dropped.
func (w *Warren) DeleteCronJob(ctx context.Context, id string) error {
	if err := w.cronStore.Remove(ctx, id); err != nil {
		return err
	}
	w.scheduler.Notify()
	return nil
}

// RunCronJobNow makes an enabled job due now and wakes the scheduler, which
// runs it like any due job: one code path records runs and results, and a
// job never overlaps itself. The next scheduled run is counted from now.
// The scheduler runs in the window (RunScheduler); the returned job is the
// state before the run starts.
func (w *Warren) RunCronJobNow(ctx context.Context, id string) (cron.Job, error) {
	j, err := w.cronStore.Get(ctx, id)
	if err != nil {
		return cron.Job{}, err
	}
	switch {
	case j.LastStatus == cron.StatusRunning:
		return j, fmt.Errorf("%w: %s started at %s", ErrCronJobBusy, j.Name, j.LastRun.Local().Format(time.TimeOnly))
	case !j.Enabled:
		return j, fmt.Errorf("%w: enable %s to run it", ErrCronJobDisabled, j.Name)
	}
	// Re-recording the last run as it is changes only next_run.
	if err := w.cronStore.RecordRun(ctx, id, cron.RunRecord{At: j.LastRun, Status: j.LastStatus,
		Result: j.LastResult, Session: j.LastSession, NextRun: w.cronStore.Now()}); err != nil {
		return cron.Job{}, err
	}
	w.scheduler.Notify()
	return w.cronStore.Get(ctx, id)
}
