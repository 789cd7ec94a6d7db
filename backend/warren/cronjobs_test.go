package warren_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// fieldErrors collects the *CronFieldError values of err by field.
func fieldErrors(err error) map[string]string {
	out := map[string]string{}
	var walk func(error)
	walk = func(e error) {
		var fe *warren.CronFieldError
		if errors.As(e, &fe) && fe == e {
			out[fe.Field] = fe.Message
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

func TestCronJobValidationNamesTheField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	ok := warren.CronJobInput{Agent: "default", Name: "digest", Schedule: "0 9 * * 1-5", Prompt: "Summarise my notes."}
	for _, tc := range []struct {
		name   string
		edit   func(*warren.CronJobInput)
		fields map[string]string // field → substring of its message
	}{
		{"valid", func(*warren.CronJobInput) {}, map[string]string{}},
		{"no agent", func(in *warren.CronJobInput) { in.Agent = " " }, map[string]string{"agent": "choose the agent"}},
		{"unknown agent", func(in *warren.CronJobInput) { in.Agent = "ghost" }, map[string]string{"agent": `no agent "ghost"`}},
		{"minute out of range", func(in *warren.CronJobInput) { in.Schedule = "61 9 * * *" }, map[string]string{"schedule": "minute field"}},
		{"four fields", func(in *warren.CronJobInput) { in.Schedule = "0 9 * *" }, map[string]string{"schedule": "has 4 fields, want 5"}},
		{"empty schedule", func(in *warren.CronJobInput) { in.Schedule = "" }, map[string]string{"schedule": "empty schedule"}},
		{"bad one-shot time", func(in *warren.CronJobInput) { in.Schedule = "at tomorrow" }, map[string]string{"schedule": "RFC3339"}},
		{"past one-shot time", func(in *warren.CronJobInput) { in.Schedule = "at 2020-01-01T09:00:00Z" }, map[string]string{"schedule": "already passed"}},
		{"never runs", func(in *warren.CronJobInput) { in.Schedule = "0 0 30 2 *" }, map[string]string{"schedule": "never runs"}},
		{"long name", func(in *warren.CronJobInput) { in.Name = strings.Repeat("n", 101) }, map[string]string{"name": "too long"}},
		{"no prompt", func(in *warren.CronJobInput) { in.Prompt = "\n" }, map[string]string{"prompt": "instruction"}},
		{"everything at once", func(in *warren.CronJobInput) { *in = warren.CronJobInput{Schedule: "* *"} },
			map[string]string{"agent": "choose", "schedule": "2 fields", "prompt": "instruction"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ok
			tc.edit(&in)
			err := w.ValidateCronJob(ctx, in)
			got := fieldErrors(err)
			if len(got) != len(tc.fields) {
				t.Fatalf("fields %v, want %v (err %v)", got, tc.fields, err)
			}
			for f, want := range tc.fields {
				if !strings.Contains(got[f], want) {
					t.Fatalf("%s: %q does not mention %q", f, got[f], want)
				}
				if !strings.Contains(err.Error(), f+": ") || !errors.Is(err, cron.ErrInvalid) {
					t.Fatalf("error %q does not read field: message or wrap ErrInvalid", err)
				}
			}
			if _, err := w.AddCronJob(ctx, in); len(tc.fields) > 0 && err == nil {
				t.Fatal("invalid job stored")
			}
		})
	}
	jobs, err := w.ListCronJobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].Name != "digest" {
		t.Fatalf("only the valid job is stored: %+v %v", jobs, err)
	}
}

func TestCronJobsLifecycleSurvivesRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if jobs, err := w.ListCronJobs(ctx); err != nil || jobs == nil || len(jobs) != 0 {
		t.Fatalf("fresh list %#v %v", jobs, err)
	}
	if err := w.Store().PutAgent(ctx, storeAgent("reviewer")); err != nil {
		t.Fatal(err)
	}
	a, err := w.AddCronJob(ctx, warren.CronJobInput{Agent: "reviewer", Name: " Weekly review ", Schedule: "0 9 * * 1", Prompt: "Review the week."})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Enabled || a.Name != "Weekly review" || a.NextRun.Local().Weekday() != time.Monday || !a.NextRun.After(time.Now()) {
		t.Fatalf("added %+v", a)
	}
	b, err := w.AddCronJob(ctx, warren.CronJobInput{Agent: "default", Name: "Alpha", Schedule: "@hourly", Prompt: "Check."})
	if err != nil {
		t.Fatal(err)
	}
	off, err := w.SetCronJobEnabled(ctx, a.ID, false)
	if err != nil || off.Enabled || !off.NextRun.IsZero() {
		t.Fatalf("disabled %+v %v", off, err)
	}
	if _, err := w.RunCronJobNow(ctx, a.ID); !errors.Is(err, warren.ErrCronJobDisabled) {
		t.Fatalf("run a disabled job: %v", err)
	}
	_ = w.Close()

	w = open(t, dir)
	jobs, err := w.ListCronJobs(ctx)
	if err != nil || len(jobs) != 2 || jobs[0].ID != b.ID || jobs[1].ID != a.ID || jobs[1].Enabled {
		t.Fatalf("after restart %+v %v", jobs, err)
	}
	on, err := w.SetCronJobEnabled(ctx, a.ID, true)
	if err != nil || !on.Enabled || !on.NextRun.After(time.Now()) {
		t.Fatalf("enabled %+v %v", on, err)
	}
	if err := w.DeleteCronJob(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"delete twice": w.DeleteCronJob(ctx, a.ID),
		"enable gone":  second(w.SetCronJobEnabled(ctx, a.ID, true)),
		"run gone":     second(w.RunCronJobNow(ctx, a.ID)),
	} {
		if !errors.Is(err, cron.ErrNotFound) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestCronSchedulePreview(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	next, err := w.CronSchedulePreview("30 9 * * 1-5", 5)
	if err != nil || len(next) != 5 {
		t.Fatalf("%v %v", next, err)
	}
	for i, at := range next {
		l := at.Local()
		if l.Hour() != 9 || l.Minute() != 30 || l.Weekday() == time.Saturday || l.Weekday() == time.Sunday {
			t.Fatalf("run %d at %s", i, l)
		}
		if i > 0 && !at.After(next[i-1]) {
			t.Fatalf("runs out of order: %v", next)
		}
	}
	if n, _ := w.CronSchedulePreview("@daily", 99); len(n) != 10 {
		t.Fatalf("n is capped at 10: %d", len(n))
	}
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	once, err := w.CronSchedulePreview("at "+at.Format(time.RFC3339), 3)
	if err != nil || len(once) != 1 || !once[0].Equal(at) {
		t.Fatalf("one-shot preview %v %v", once, err)
	}
	if _, err := w.CronSchedulePreview("*/0 * * * *", 3); fieldErrors(err)["schedule"] == "" {
		t.Fatalf("bad step: %v", err)
	}
}

// TestRunCronJobNow runs a job through the scheduler against a scripted
// model and checks what the Schedules screen shows afterwards.
func TestRunCronJobNow(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{Expect: "Say good morning", Chunks: []string{"Good ", "morning!"}},
	}})
	w := open(t, t.TempDir())
	if err := w.Providers().Save(ctx, store.Provider{Name: "local", Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	def, err := w.Store().GetAgent(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	def.Provider = "local"
	if err := w.Store().PutAgent(ctx, def); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.RunScheduler(ctx) }()
	j, err := w.AddCronJob(ctx, warren.CronJobInput{Agent: "default", Name: "greet", Schedule: "0 6 * * *", Prompt: "Say good morning"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunCronJobNow(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	var got cron.Job
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got, err = w.CronJobs().Get(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		if got.LastStatus == cron.StatusOK || got.LastStatus == cron.StatusError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job did not finish: %+v", got)
		}
	}
	if got.LastStatus != cron.StatusOK || got.LastResult != "Good morning!" || got.LastSession == "" || got.LastRun.IsZero() {
		t.Fatalf("after run now %+v", got)
	}
	// Still enabled, next run back on the schedule (06:00 from now on).
	if !got.Enabled || !got.NextRun.After(time.Now()) || got.NextRun.Local().Hour() != 6 {
		t.Fatalf("next run %+v", got)
	}
	h, err := w.Sessions().History(ctx, got.LastSession, 0)
	if err != nil || len(h) != 2 || h[1].Content != "Good morning!" {
		t.Fatalf("the run's session %+v %v", h, err)
	}

	// A job that is running (as recorded) is not started twice.
	if err := w.CronJobs().RecordRun(ctx, j.ID, cron.RunRecord{At: time.Now(), Status: cron.StatusRunning, NextRun: got.NextRun}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunCronJobNow(ctx, j.ID); !errors.Is(err, warren.ErrCronJobBusy) {
		t.Fatalf("run a running job: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("scheduler ended with %v", err)
	}
}

func TestUpdateCronJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	j, err := w.AddCronJob(ctx, warren.CronJobInput{Agent: "default", Name: "digest", Schedule: "@hourly", Prompt: "Summarise."})
	if err != nil {
		t.Fatal(err)
	}

	_, err = w.UpdateCronJob(ctx, j.ID, warren.CronJobInput{Agent: "ghost", Name: "digest", Schedule: "0 25 * * *", Prompt: " "})
	got := fieldErrors(err)
	if len(got) != 3 || !strings.Contains(got["agent"], `no agent "ghost"`) || !strings.Contains(got["schedule"], "hour field") ||
		!strings.Contains(got["prompt"], "instruction") || !errors.Is(err, cron.ErrInvalid) {
		t.Fatalf("invalid update: fields %v, err %v", got, err)
	}
	if cur, _ := w.CronJobs().Get(ctx, j.ID); cur.Schedule != "@hourly" || cur.Prompt != "Summarise." {
		t.Fatalf("invalid update was stored: %+v", cur)
	}

	// Minute 30 never coincides with the hourly run at minute 0.
	up, err := w.UpdateCronJob(ctx, j.ID, warren.CronJobInput{Agent: "default", Name: " Weekly ", Schedule: "30 9 * * 1", Prompt: "Review the week."})
	if err != nil {
		t.Fatal(err)
	}
	if up.Name != "Weekly" || up.Schedule != "30 9 * * 1" || up.Prompt != "Review the week." || !up.Enabled ||
		up.NextRun.Equal(j.NextRun) || up.NextRun.Local().Weekday() != time.Monday || up.NextRun.Local().Hour() != 9 ||
		!up.NextRun.After(time.Now()) {
		t.Fatalf("updated %+v (was %+v)", up, j)
	}

	// Editing a paused job keeps it paused.
	if _, err := w.SetCronJobEnabled(ctx, j.ID, false); err != nil {
		t.Fatal(err)
	}
	paused, err := w.UpdateCronJob(ctx, j.ID, warren.CronJobInput{Agent: "default", Name: "Weekly", Schedule: "0 10 * * 1", Prompt: "Review the week."})
	if err != nil || paused.Enabled || !paused.NextRun.IsZero() {
		t.Fatalf("edit paused %+v %v", paused, err)
	}
	if _, err := w.UpdateCronJob(ctx, "cron-nope", warren.CronJobInput{Agent: "default", Schedule: "@daily", Prompt: "x"}); !errors.Is(err, cron.ErrNotFound) {
		t.Fatalf("update unknown: %v", err)
	}
	_ = w.Close()

	w = open(t, dir)
	jobs, err := w.ListCronJobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].Name != "Weekly" || jobs[0].Schedule != "0 10 * * 1" || jobs[0].Enabled {
		t.Fatalf("after reopen %+v %v", jobs, err)
	}
	on, err := w.SetCronJobEnabled(ctx, j.ID, true)
	if err != nil || on.NextRun.Local().Hour() != 10 || on.NextRun.Local().Weekday() != time.Monday {
		t.Fatalf("re-enabled %+v %v", on, err)
	}

	// A running job cannot be edited: its run would store the old schedule's next run.
	if err := w.CronJobs().RecordRun(ctx, j.ID, cron.RunRecord{At: time.Now(), Status: cron.StatusRunning, NextRun: on.NextRun}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateCronJob(ctx, j.ID, warren.CronJobInput{Agent: "default", Schedule: "@daily", Prompt: "x"}); !errors.Is(err, warren.ErrCronJobBusy) {
		t.Fatalf("edit a running job: %v", err)
	}
}
