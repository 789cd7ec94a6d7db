// Package ratelimit limits how fast each session may call tools, with one token bucket per key.
//
// Buckets are kept as GCRA "theoretical arrival times" (one time.Time per key) rather than a
// float token count: the arithmetic is in integer nanoseconds, so retryAfter is exact and tests
// can assert it to the nanosecond, and refilling needs no bookkeeping.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Config sets the refill rate and size of every key's bucket.
type Config struct {
	Rate  float64 // tokens per second; <= 0 (or NaN, +Inf) means unlimited
	Burst int     // bucket size, the calls allowed at once after a pause; < 1 counts as 1
}

// DefaultConfig allows bursts of 30 calls and 10 per second sustained: an agent fanning out
// parallel reads is not slowed, a runaway tool loop is within seconds.
func DefaultConfig() Config { return Config{Rate: 10, Burst: 30} }

// DefaultIdleTimeout is how long a bucket must sit full before it is forgotten.
const DefaultIdleTimeout = 10 * time.Minute

// Option adjusts a Limiter built by New.
type Option func(*Limiter)

// WithClock replaces time.Now so tests can step time instead of sleeping.
func WithClock(now func() time.Time) Option { return func(l *Limiter) { l.now = now } }

// WithIdleTimeout replaces DefaultIdleTimeout.
func WithIdleTimeout(d time.Duration) Option { return func(l *Limiter) { l.idle = d } }

// Limiter holds one token bucket per key and is safe for concurrent use. A nil *Limiter allows
// every call, so an unconfigured limiter in an interface field fails open rather than panicking.
type Limiter struct {
	now       func() time.Time
	idle      time.Duration
	unlimited bool
	interval  time.Duration // time to earn one token: 1/Rate
	tolerance time.Duration // how far a key may run ahead of now: (Burst-1) * interval

	mu        sync.Mutex
	tat       map[string]time.Time // per key: when its bucket will be full again
	lastSweep time.Time
}

// New returns a Limiter in which every key starts with a full bucket.
func New(cfg Config, opts ...Option) *Limiter {
	l := &Limiter{now: time.Now, idle: DefaultIdleTimeout, tat: make(map[string]time.Time)}
	for _, opt := range opts {
		opt(l)
	}
	if !(cfg.Rate > 0) || math.IsInf(cfg.Rate, 1) {
		l.unlimited = true
		return l
	}
	// An interval of 0 would disable the limit, so the fastest real rate is one call per ns.
	l.interval = max(toDuration(float64(time.Second)/cfg.Rate), 1)
	l.tolerance = toDuration(float64(l.interval) * float64(max(cfg.Burst, 1)-1))
	return l
}

// toDuration rounds nanoseconds to a Duration, saturating so absurd configs cannot overflow.
// Rounding (not truncating) keeps rates like 1/3600 at exactly one hour per token.
func toDuration(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(math.Round(ns))
}

// Allow takes a token from key's bucket. When the bucket is empty it returns false and how long
// until the next token is available; a refused call takes nothing.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l == nil || l.unlimited {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)

	tat, seen := l.tat[key]
	if !seen || tat.Before(now) {
		tat = now // a full bucket: unused capacity does not pile up past Burst
	}
	if wait := tat.Sub(now) - l.tolerance; wait > 0 {
		return false, wait
	}
	l.tat[key] = tat.Add(l.interval)
	return true, 0
}

// sweep forgets buckets that have been full for the idle timeout. A missing key starts full,
// so dropping a full bucket changes no decision; it only bounds memory to active sessions.
// Sweeping at most once per timeout keeps Allow O(1) amortised without a goroutine.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.idle {
		return
	}
	l.lastSweep = now
	for key, tat := range l.tat {
		if now.Sub(tat) >= l.idle {
			delete(l.tat, key)
		}
	}
}

// Len returns the number of keys currently tracked, for metrics and tests.
func (l *Limiter) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tat)
}
