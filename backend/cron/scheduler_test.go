package cron

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/store"
)

// fakeClock advances only when the test says so; After reports each wait on
// slept so tests know the scheduler is idle.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	slept   chan time.Duration
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock(now time.Time) *fakeClock {
	return &fakeClock{now: now, slept: make(chan time.Duration, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	ch := make(chan time.Time, 1)
	c.waiters = append(c.waiters, waiter{c.now.Add(d), ch})
	c.mu.Unlock()
	c.slept <- d
	return ch
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			w.ch <- c.now
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}

func (c *fakeClock) waitSleep(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-c.slept:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("scheduler never went to sleep")
		return 0
	}
}

// settle waits for the two sleeps a job run causes and returns the last.
func (c *fakeClock) settle(t *testing.T) time.Duration {
	t.Helper()
	c.waitSleep(t)
	return c.waitSleep(t)
}

func openStore(t *testing.T, dir string, now func() time.Time) (*store.DB, *Store) {
	t.Helper()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(db.SQL())
	s.Now = now
	return db, s
}

type recorder struct {
	mu   sync.Mutex
	runs []string
	ran  chan string
	err  error
}

func newRecorder() *recorder { return &recorder{ran: make(chan string, 100)} }

func (r *recorder) run(_ context.Context, j Job) (string, string, error) {
	r.mu.Lock()
	r.runs = append(r.runs, j.ID)
	err := r.err
	r.mu.Unlock()
	r.ran <- j.ID
	if err != nil {
		return "", "", err
	}
	return "done: " + j.Prompt, "s-" + j.ID, nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

func (r *recorder) waitRun(t *testing.T) string {
	t.Helper()
	select {
	case id := <-r.ran:
		return id
	case <-time.After(5 * time.Second):
		t.Fatal("job never ran")
		return ""
	}
}

func startScheduler(t *testing.T, st *Store, clock Clock, rec *recorder) (*Scheduler, func()) {
	t.Helper()
	s, err := NewScheduler(SchedulerOptions{Store: st, Run: rec.run, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	return s, func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v", err)
		}
	}
}

// waitRecorded waits until the run's outcome (not "running") is stored.
func waitRecorded(t *testing.T, st *Store, id string) Job {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		j, err := st.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.LastStatus == StatusOK || j.LastStatus == StatusError {
			return j
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("run of %s never recorded", id)
	return Job{}
}

func TestStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := utc("2026-03-23T10:02:00Z")
	db, st := openStore(t, t.TempDir(), func() time.Time { return now })
	defer db.Close()

	if _, err := st.Add(ctx, Job{Agent: "a", Schedule: "61 * * * *", Prompt: "x"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad schedule: %v", err)
	}
	if _, err := st.Add(ctx, Job{Agent: "a", Schedule: "at 2026-01-01T00:00:00Z", Prompt: "x"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("past one-shot: %v", err)
	}
	if _, err := st.Add(ctx, Job{Agent: "a", Schedule: "* * * * *"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("no prompt: %v", err)
	}
	j, err := st.Add(ctx, Job{Agent: "a", Name: "report", Schedule: "*/15 * * * *", Prompt: "write the report"})
	if err != nil {
		t.Fatal(err)
	}
	if !j.Enabled || !j.NextRun.Equal(utc("2026-03-23T10:15:00Z")) {
		t.Fatalf("added job = %+v", j)
	}
	if _, err := st.Add(ctx, Job{Agent: "b", Name: "other", Schedule: "@daily", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if l, _ := st.List(ctx, "a"); len(l) != 1 {
		t.Fatalf("List(a) = %d jobs", len(l))
	}
	if l, _ := st.List(ctx, ""); len(l) != 2 {
		t.Fatalf("List() = %d jobs", len(l))
	}
	if due, _ := st.Due(ctx, utc("2026-03-23T10:14:59Z")); len(due) != 0 {
		t.Fatalf("due too early: %v", due)
	}
	if due, _ := st.Due(ctx, utc("2026-03-23T10:15:00Z")); len(due) != 1 || due[0].ID != j.ID {
		t.Fatalf("due = %v", due)
	}
	off, err := st.SetEnabled(ctx, j.ID, false)
	if err != nil || off.Enabled || !off.NextRun.IsZero() {
		t.Fatalf("disable: %+v %v", off, err)
	}
	if due, _ := st.Due(ctx, utc("2027-01-01T00:00:00Z")); len(due) != 1 {
		t.Fatalf("disabled job due: %v", due)
	}
	now = utc("2026-03-23T11:01:00Z")
	on, err := st.SetEnabled(ctx, j.ID, true)
	if err != nil || !on.Enabled || !on.NextRun.Equal(utc("2026-03-23T11:15:00Z")) {
		t.Fatalf("enable: %+v %v", on, err)
	}
	if err := st.Remove(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, j.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get removed: %v", err)
	}
	if err := st.Remove(ctx, j.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("remove twice: %v", err)
	}
	if _, err := st.SetEnabled(ctx, "nope", true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("enable unknown: %v", err)
	}
}

func TestSchedulerRunsDueJobs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock(utc("2026-03-23T10:00:00Z"))
	db, st := openStore(t, t.TempDir(), clock.Now)
	defer db.Close()
	rec := newRecorder()

	every5, err := st.Add(ctx, Job{Agent: "a", Name: "tick", Schedule: "*/5 * * * *", Prompt: "tick"})
	if err != nil {
		t.Fatal(err)
	}
	once, err := st.Add(ctx, Job{Agent: "a", Name: "once", Schedule: "at 2026-03-23T10:07:00Z", Prompt: "once"})
	if err != nil {
		t.Fatal(err)
	}
	_, stop := startScheduler(t, st, clock, rec)
	defer stop()

	if d := clock.waitSleep(t); d != 5*time.Minute {
		t.Fatalf("first sleep = %s, want the 5m until the next job (a timer, not polling)", d)
	}
	clock.Advance(5 * time.Minute)
	if id := rec.waitRun(t); id != every5.ID {
		t.Fatalf("ran %s", id)
	}
	j := waitRecorded(t, st, every5.ID)
	if j.LastResult != "done: tick" || j.LastSession != "s-"+every5.ID || !j.NextRun.Equal(utc("2026-03-23T10:10:00Z")) ||
		!j.LastRun.Equal(utc("2026-03-23T10:05:00Z")) {
		t.Fatalf("after run: %+v", j)
	}
	// Each run produces two sleeps: after starting the job and after the
	// finished job wakes the scheduler. Advance only once both happened.
	if d := clock.settle(t); d != 2*time.Minute {
		t.Fatalf("sleep after run = %s, want 2m until the one-shot", d)
	}
	clock.Advance(2 * time.Minute)
	if id := rec.waitRun(t); id != once.ID {
		t.Fatalf("ran %s", id)
	}
	o := waitRecorded(t, st, once.ID)
	if o.Enabled || !o.NextRun.IsZero() || o.LastStatus != StatusOK {
		t.Fatalf("one-shot after run should be disabled: %+v", o)
	}

	// Errors are recorded as such.
	rec.mu.Lock()
	rec.err = errors.New("model unavailable")
	rec.mu.Unlock()
	if d := clock.settle(t); d != 3*time.Minute {
		t.Fatalf("sleep after one-shot = %s, want 3m", d)
	}
	clock.Advance(3 * time.Minute)
	rec.waitRun(t)
	deadline := time.Now().Add(5 * time.Second)
	for {
		j, _ := st.Get(ctx, every5.ID)
		if j.LastStatus == StatusError && j.LastResult == "model unavailable" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("error not recorded: %+v", j)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if rec.count() != 3 {
		t.Fatalf("runs = %d, want 3", rec.count())
	}
}

func TestSchedulerNotify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock(utc("2026-03-23T10:00:30Z"))
	db, st := openStore(t, t.TempDir(), clock.Now)
	defer db.Close()
	rec := newRecorder()
	s, stop := startScheduler(t, st, clock, rec)
	defer stop()
	if d := clock.waitSleep(t); d != maxSleep {
		t.Fatalf("idle sleep = %s", d)
	}
	if _, err := st.Add(ctx, Job{Agent: "a", Schedule: "* * * * *", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	s.Notify()
	if d := clock.waitSleep(t); d != 30*time.Second {
		t.Fatalf("sleep after notify = %s, want 30s", d)
	}
}

func TestRestartCatchesUpOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	start := utc("2026-03-23T10:00:00Z")

	db, st := openStore(t, dir, func() time.Time { return start })
	hourly, err := st.Add(ctx, Job{Agent: "a", Name: "hourly", Schedule: "0 * * * *", Prompt: "p"})
	if err != nil {
		t.Fatal(err)
	}
	// A job left "running" by a crash is marked interrupted on start.
	other, err := st.Add(ctx, Job{Agent: "a", Name: "daily", Schedule: "@daily", Prompt: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RecordRun(ctx, other.ID, RunRecord{At: start, Status: StatusRunning, NextRun: utc("2026-03-24T00:00:00Z")}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Warren was closed for five hours: five hourly slots were missed.
	clock := newFakeClock(start.Add(5*time.Hour + 20*time.Minute))
	db2, st2 := openStore(t, dir, clock.Now)
	defer db2.Close()
	rec := newRecorder()
	_, stop := startScheduler(t, st2, clock, rec)
	defer stop()
	if id := rec.waitRun(t); id != hourly.ID {
		t.Fatalf("ran %s", id)
	}
	j := waitRecorded(t, st2, hourly.ID)
	if !j.NextRun.Equal(utc("2026-03-23T16:00:00Z")) {
		t.Fatalf("next run after catch-up = %s", j.NextRun)
	}
	// Sleeps are capped at maxSleep; let one pass: nothing else is due.
	clock.settle(t)
	clock.Advance(maxSleep)
	clock.waitSleep(t)
	if n := rec.count(); n != 1 {
		t.Fatalf("overdue job ran %d times, want once", n)
	}
	o, _ := st2.Get(ctx, other.ID)
	if o.LastStatus != StatusError || o.LastResult == "" {
		t.Fatalf("interrupted run: %+v", o)
	}
}

func TestStoreUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := utc("2026-03-23T10:02:00Z")
	dir := t.TempDir()
	db, st := openStore(t, dir, func() time.Time { return now })

	j, err := st.Add(ctx, Job{Agent: "a", Name: "report", Schedule: "*/15 * * * *", Prompt: "write the report"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RecordRun(ctx, j.ID, RunRecord{At: now, Status: StatusOK, Result: "done", NextRun: j.NextRun}); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]Job{
		"bad schedule":     {ID: j.ID, Agent: "a", Schedule: "61 * * * *", Prompt: "x", Enabled: true},
		"past one-shot":    {ID: j.ID, Agent: "a", Schedule: "at 2026-01-01T00:00:00Z", Prompt: "x", Enabled: true},
		"no prompt":        {ID: j.ID, Agent: "a", Schedule: "@daily", Enabled: true},
		"no agent":         {ID: j.ID, Schedule: "@daily", Prompt: "x", Enabled: true},
		"disabled, broken": {ID: j.ID, Agent: "a", Schedule: "nonsense", Prompt: "x"},
	} {
		if _, err := st.Update(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	now = utc("2026-03-23T10:20:00Z")
	up, err := st.Update(ctx, Job{ID: j.ID, Agent: " b ", Name: "digest", Schedule: " 0 9 * * * ", Prompt: " summarise ", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if up.Agent != "b" || up.Name != "digest" || up.Schedule != "0 9 * * *" || up.Prompt != "summarise" || !up.Enabled ||
		!up.NextRun.Equal(utc("2026-03-24T09:00:00Z")) {
		t.Fatalf("updated = %+v", up)
	}
	if up.LastStatus != StatusOK || up.LastResult != "done" || up.Created != j.Created {
		t.Fatalf("update lost history: %+v", up)
	}
	off, err := st.Update(ctx, Job{ID: j.ID, Agent: "b", Schedule: "@hourly", Prompt: "p"})
	if err != nil || off.Enabled || !off.NextRun.IsZero() || off.Name != "P" {
		t.Fatalf("update disabled: %+v %v", off, err)
	}
	if _, err := st.Update(ctx, Job{ID: "nope", Agent: "a", Schedule: "@daily", Prompt: "x", Enabled: true}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("update unknown: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, st = openStore(t, dir, func() time.Time { return now })
	defer db.Close()
	got, err := st.Get(ctx, j.ID)
	if err != nil || got.Schedule != "@hourly" || got.Enabled {
		t.Fatalf("after reopen: %+v %v", got, err)
	}
}
