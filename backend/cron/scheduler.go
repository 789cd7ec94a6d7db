package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/warren-dev/warren/tools"
)

// RunFunc runs one job (usually an agent turn with the job's prompt) and
// returns the final text and the session it ran in.
type RunFunc func(ctx context.Context, job Job) (result string, session string, err error)

// Clock is the scheduler's time source; tests pass a fake one.
type Clock interface {
	Now() time.Time
	// After fires once d has elapsed.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// maxSleep bounds one wait so a suspended laptop or a wall-clock change is
// noticed within minutes; it is a safety net, not polling.
const maxSleep = 5 * time.Minute

// maxResult bounds the stored result text.
const maxResult = 8000

// SchedulerOptions configures a Scheduler.
type SchedulerOptions struct {
	Store *Store
	Run   RunFunc
	// Clock defaults to the real clock.
	Clock  Clock
	Logger *slog.Logger
}

// Scheduler runs due jobs. Each job runs in its own goroutine so a long
// agent turn does not delay other jobs; a job never overlaps itself.
type Scheduler struct {
	store  *Store
	run    RunFunc
	clock  Clock
	log    *slog.Logger
	wake   chan struct{}
	mu     sync.Mutex
	active map[string]bool
}

// NewScheduler returns a scheduler; call Run to start it.
func NewScheduler(o SchedulerOptions) (*Scheduler, error) {
	if o.Store == nil || o.Run == nil {
		return nil, errors.New("cron scheduler: store and run function are required")
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{store: o.Store, run: o.Run, clock: o.Clock, log: o.Logger,
		wake: make(chan struct{}, 1), active: map[string]bool{}}, nil
}

// Notify tells the scheduler jobs changed (added, enabled, removed) so it
// recomputes when to wake. It never blocks.
func (s *Scheduler) Notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run schedules until ctx ends, then waits for running jobs to finish
// (they see the cancelled ctx) and returns ctx's error. On start it runs,
// once each, the jobs whose next run passed while Warren was closed.
func (s *Scheduler) Run(ctx context.Context) error {
	if err := s.store.markInterrupted(ctx); err != nil {
		return err
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		wait, err := s.dispatch(ctx, &wg)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.log.Error("cron: scheduling failed", "err", err)
			wait = time.Minute
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
		case <-s.clock.After(wait):
		}
	}
}

// dispatch starts every due job that is not already running and returns how
// long to sleep until the next one.
func (s *Scheduler) dispatch(ctx context.Context, wg *sync.WaitGroup) (time.Duration, error) {
	now := s.clock.Now()
	pending, err := s.store.Pending(ctx)
	if err != nil {
		return 0, err
	}
	wait := maxSleep
	for _, j := range pending {
		if s.isActive(j.ID) {
			continue
		}
		if j.NextRun.After(now) {
			if d := j.NextRun.Sub(now); d < wait {
				wait = d
			}
			continue
		}
		if err := s.start(ctx, wg, j, now); err != nil {
			s.log.Error("cron: cannot start job", "job", j.ID, "err", err)
		}
	}
	return wait, nil
}

func (s *Scheduler) isActive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[id]
}

// start records the run as started and advances next_run before running, so
// a crash mid-run does not replay the job, and missed slots are skipped:
// the next run is computed from now, not from the missed slot.
func (s *Scheduler) start(ctx context.Context, wg *sync.WaitGroup, j Job, now time.Time) error {
	var next time.Time
	if sched, err := ParseSchedule(j.Schedule); err == nil {
		next = sched.Next(now)
	}
	if err := s.store.RecordRun(ctx, j.ID, RunRecord{At: now, Status: StatusRunning, NextRun: next}); err != nil {
		return err
	}
	s.mu.Lock()
	s.active[j.ID] = true
	s.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		result, session, err := s.safeRun(ctx, j)
		status := StatusOK
		if err != nil {
			status = StatusError
			result = err.Error()
		}
		// Record even when ctx was cancelled (Warren shutting down).
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		rec := RunRecord{At: now, Status: status, Result: tools.Clip(result, maxResult), Session: session, NextRun: next}
		if rerr := s.store.RecordRun(rctx, j.ID, rec); rerr != nil && !errors.Is(rerr, ErrNotFound) {
			s.log.Error("cron: cannot record run", "job", j.ID, "err", rerr)
		}
		s.mu.Lock()
		delete(s.active, j.ID)
		s.mu.Unlock()
		s.Notify()
	}()
	return nil
}

func (s *Scheduler) safeRun(ctx context.Context, j Job) (result, session string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job panicked: %v", p)
		}
	}()
	return s.run(ctx, j)
}
