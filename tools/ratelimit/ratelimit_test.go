package ratelimit

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a manual clock; tests advance it instead of sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 14, 10, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func mustAllow(t *testing.T, l *Limiter, key string) {
	t.Helper()
	if ok, wait := l.Allow(key); !ok {
		t.Fatalf("Allow(%q) refused, retry after %v", key, wait)
	}
}

func mustRefuse(t *testing.T, l *Limiter, key string, wantWait time.Duration) {
	t.Helper()
	ok, wait := l.Allow(key)
	if ok {
		t.Fatalf("Allow(%q) allowed, want refusal", key)
	}
	if wait != wantWait {
		t.Fatalf("Allow(%q) retryAfter = %v, want %v", key, wait, wantWait)
	}
}

func TestBurstThenRefusal(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 2, Burst: 3}, WithClock(c.Now))
	for range 3 {
		mustAllow(t, l, "s1")
	}
	mustRefuse(t, l, "s1", 500*time.Millisecond)
	mustRefuse(t, l, "s1", 500*time.Millisecond) // a refusal takes no token

	c.Advance(499 * time.Millisecond)
	mustRefuse(t, l, "s1", time.Millisecond)
	c.Advance(time.Millisecond)
	mustAllow(t, l, "s1")
	mustRefuse(t, l, "s1", 500*time.Millisecond)
}

func TestRefillCapsAtBurst(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 10, Burst: 5}, WithClock(c.Now))
	for range 5 {
		mustAllow(t, l, "s")
	}
	c.Advance(time.Hour) // an hour idle earns 36000 tokens but the bucket holds 5
	for range 5 {
		mustAllow(t, l, "s")
	}
	mustRefuse(t, l, "s", 100*time.Millisecond)
	c.Advance(250 * time.Millisecond) // 2.5 tokens
	mustAllow(t, l, "s")
	mustAllow(t, l, "s")
	mustRefuse(t, l, "s", 50*time.Millisecond)
}

func TestKeysAreIndependent(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 1, Burst: 1}, WithClock(c.Now))
	mustAllow(t, l, "a")
	mustRefuse(t, l, "a", time.Second)
	mustAllow(t, l, "b")
	mustRefuse(t, l, "b", time.Second)
}

func TestUnlimited(t *testing.T) {
	t.Parallel()
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		l := New(Config{Rate: rate, Burst: 1})
		for range 1000 {
			if ok, wait := l.Allow("s"); !ok || wait != 0 {
				t.Fatalf("rate %v: got (%v, %v), want (true, 0)", rate, ok, wait)
			}
		}
		if l.Len() != 0 {
			t.Fatalf("rate %v: unlimited limiter tracked %d keys", rate, l.Len())
		}
	}
	var nilLimiter *Limiter
	if ok, _ := nilLimiter.Allow("s"); !ok {
		t.Fatal("nil limiter refused")
	}
}

func TestBurstBelowOneCountsAsOne(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 4, Burst: 0}, WithClock(c.Now))
	mustAllow(t, l, "s")
	mustRefuse(t, l, "s", 250*time.Millisecond)
}

func TestDefaultConfig(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(DefaultConfig(), WithClock(c.Now))
	for range DefaultConfig().Burst {
		mustAllow(t, l, "s")
	}
	mustRefuse(t, l, "s", 100*time.Millisecond)
}

func TestIdleBucketsAreEvicted(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 1, Burst: 2}, WithClock(c.Now), WithIdleTimeout(10*time.Minute))
	mustAllow(t, l, "idle")
	// A bucket that stays empty for long must survive the sweep, or the limit would reset.
	slow := New(Config{Rate: 1.0 / 3600, Burst: 1}, WithClock(c.Now), WithIdleTimeout(10*time.Minute))
	mustAllow(t, slow, "busy")

	c.Advance(9 * time.Minute)
	mustAllow(t, l, "other")
	if l.Len() != 2 {
		t.Fatalf("swept too early: %d keys", l.Len())
	}
	c.Advance(2 * time.Minute) // "idle" has been full since 1s after its call: > 10 min now
	mustAllow(t, l, "other")
	if l.Len() != 1 {
		t.Fatalf("after idle timeout: %d keys, want 1", l.Len())
	}
	ok, wait := slow.Allow("busy")
	if ok || wait != 49*time.Minute {
		t.Fatalf("slow bucket: got (%v, %v), want (false, 49m)", ok, wait)
	}
	if slow.Len() != 1 {
		t.Fatal("a bucket that is not full was evicted")
	}
}

func TestExtremeRates(t *testing.T) {
	t.Parallel()
	c := newClock()
	fast := New(Config{Rate: 1e15, Burst: 1}, WithClock(c.Now))
	mustAllow(t, fast, "s")
	mustRefuse(t, fast, "s", time.Nanosecond) // interval clamps to 1ns rather than 0
	slow := New(Config{Rate: 1e-300, Burst: math.MaxInt}, WithClock(c.Now))
	mustAllow(t, slow, "s")
}

// TestConcurrentAllow checks that exactly Burst calls win when many race; run with -race.
func TestConcurrentAllow(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := New(Config{Rate: 1, Burst: 50}, WithClock(c.Now))
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 20 {
				if ok, _ := l.Allow("shared"); ok {
					allowed.Add(1)
				}
				l.Allow("own") // other keys in flight at the same time
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 50 {
		t.Fatalf("allowed %d calls, want exactly the burst of 50", got)
	}
}
