package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// TestCronBindings drives the Schedules screen's calls: add (with field
// errors), preview, run now through the window's scheduler, disable, delete.
func TestCronBindings(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Models: []string{"m1"}, Turns: []llmtest.Turn{
		{Expect: "List today's tasks", Chunks: []string{"Nothing ", "due today."}},
	}})
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := app.New(core, app.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx) // starts the scheduler
	defer a.Shutdown(ctx)
	if err := a.SaveModelProvider(store.Provider{Name: "local", Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	agents, _ := a.Agents()
	agents[0].Provider = "local"
	if err := a.SaveAgent(agents[0]); err != nil {
		t.Fatal(err)
	}

	if jobs, err := a.CronJobs(); err != nil || jobs == nil || len(jobs) != 0 {
		t.Fatalf("empty list must be [] for the UI: %#v %v", jobs, err)
	}
	_, err = a.AddCronJob(warren.CronJobInput{Agent: "default", Schedule: "0 25 * * *"})
	if err == nil || !errors.Is(err, cron.ErrInvalid) {
		t.Fatalf("invalid job: %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "schedule: hour field") || !strings.HasPrefix(lines[1], "prompt: ") {
		t.Fatalf("field errors, one per line: %q", err.Error())
	}
	if _, err := a.CronSchedulePreview("0 25 * * *", 3); err == nil || !strings.HasPrefix(err.Error(), "schedule: hour field") {
		t.Fatalf("preview error: %v", err)
	}
	next, err := a.CronSchedulePreview("*/15 * * * *", 3)
	if err != nil || len(next) != 3 {
		t.Fatalf("preview %v %v", next, err)
	}
	t0, err0 := time.Parse(time.RFC3339, next[0])
	t1, err1 := time.Parse(time.RFC3339, next[1])
	if err0 != nil || err1 != nil || t1.Sub(t0) != 15*time.Minute || t0.Minute()%15 != 0 {
		t.Fatalf("preview times %v", next)
	}

	j, err := a.AddCronJob(warren.CronJobInput{Agent: "default", Name: "Morning", Schedule: "0 7 * * *", Prompt: "List today's tasks"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunCronJobNow(j.ID); err != nil {
		t.Fatal(err)
	}
	var got cron.Job
	for deadline := time.Now().Add(10 * time.Second); got.LastStatus != cron.StatusOK; time.Sleep(20 * time.Millisecond) {
		jobs, err := a.CronJobs()
		if err != nil || len(jobs) != 1 {
			t.Fatalf("%+v %v", jobs, err)
		}
		got = jobs[0]
		if got.LastStatus == cron.StatusError || time.Now().After(deadline) {
			t.Fatalf("run now: %+v", got)
		}
	}
	if got.LastResult != "Nothing due today." || got.LastSession == "" {
		t.Fatalf("last run %+v", got)
	}
	if h, err := a.SessionHistory(got.LastSession); err != nil || len(h) != 2 {
		t.Fatalf("the run's session opens in Chat: %+v %v", h, err)
	}

	if _, err := a.UpdateCronJob(j.ID, warren.CronJobInput{Agent: "default", Schedule: "0 25 * * *", Prompt: "x"}); err == nil ||
		!strings.HasPrefix(err.Error(), "schedule: hour field") {
		t.Fatalf("update with a bad schedule: %v", err)
	}
	if up, err := a.UpdateCronJob(j.ID, warren.CronJobInput{Agent: "default", Name: "Evening", Schedule: "0 19 * * *", Prompt: "Plan tomorrow"}); err != nil ||
		up.Name != "Evening" || up.NextRun.Local().Hour() != 19 {
		t.Fatalf("update %+v %v", up, err)
	}
	off, err := a.SetCronJobEnabled(j.ID, false)
	if err != nil || off.Enabled {
		t.Fatalf("disable %+v %v", off, err)
	}
	if _, err := a.RunCronJobNow(j.ID); !errors.Is(err, warren.ErrCronJobDisabled) {
		t.Fatalf("run a disabled job: %v", err)
	}
	if err := a.DeleteCronJob(j.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteCronJob(j.ID); !errors.Is(err, cron.ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}
