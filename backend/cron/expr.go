// Package cron schedules agent jobs: a cron expression parser, a SQLite job
// store and a scheduler that wakes at the next due job and runs it.
package cron

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Expr is a parsed 5-field cron expression: minute hour day-of-month month
// day-of-week. Each field is a bit set of the values it allows.
type Expr struct {
	minute, hour, dom, month, dow uint64
	// domAny and dowAny record a literal "*" so the classic rule applies:
	// when both day fields are restricted, a day matching either one runs.
	domAny, dowAny bool
}

type field struct {
	name     string
	min, max int
	names    map[string]int
}

var (
	monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
	dowNames = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}

	fields = [5]field{
		{name: "minute", min: 0, max: 59},
		{name: "hour", min: 0, max: 23},
		{name: "day-of-month", min: 1, max: 31},
		{name: "month", min: 1, max: 12, names: monthNames},
		// 7 is accepted as Sunday and folded onto 0 after parsing.
		{name: "day-of-week", min: 0, max: 7, names: dowNames},
	}

	macros = map[string]string{
		"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
		"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
	}
)

// ParseExpr parses a 5-field cron expression or a macro (@hourly, @daily,
// @weekly, @monthly, @yearly). Errors name the field that is wrong.
func ParseExpr(s string) (*Expr, error) {
	s = strings.TrimSpace(s)
	if m, ok := macros[strings.ToLower(s)]; ok {
		s = m
	}
	parts := strings.Fields(s)
	if len(parts) != 5 {
		return nil, fmt.Errorf("cron expression %q has %d fields, want 5: minute hour day-of-month month day-of-week", s, len(parts))
	}
	var sets [5]uint64
	for i, p := range parts {
		set, err := parseField(p, fields[i])
		if err != nil {
			return nil, fmt.Errorf("%s field %q: %w", fields[i].name, p, err)
		}
		sets[i] = set
	}
	if sets[4]&(1<<7) != 0 {
		sets[4] = sets[4]&^(1<<7) | 1
	}
	return &Expr{
		minute: sets[0], hour: sets[1], dom: sets[2], month: sets[3], dow: sets[4],
		domAny: parts[2] == "*", dowAny: parts[4] == "*",
	}, nil
}

func parseField(s string, f field) (uint64, error) {
	var set uint64
	for _, item := range strings.Split(s, ",") {
		if item == "" {
			return 0, fmt.Errorf("empty list item")
		}
		rng, stepText, hasStep := strings.Cut(item, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("step %q must be a positive number", stepText)
			}
			step = n
		}
		lo, hi := f.min, f.max
		switch {
		case rng == "*":
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			var err error
			if lo, err = value(a, f); err != nil {
				return 0, err
			}
			if hi, err = value(b, f); err != nil {
				return 0, err
			}
			if lo > hi {
				return 0, fmt.Errorf("range %d-%d is backwards", lo, hi)
			}
		default:
			v, err := value(rng, f)
			if err != nil {
				return 0, err
			}
			lo, hi = v, v
			if hasStep { // "5/15" means from 5 to the maximum every 15
				hi = f.max
			}
		}
		for v := lo; v <= hi; v += step {
			set |= 1 << uint(v)
		}
	}
	return set, nil
}

func value(s string, f field) (int, error) {
	if v, ok := f.names[strings.ToLower(s)]; ok {
		return v, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number or a known name", s)
	}
	if v < f.min || v > f.max {
		return 0, fmt.Errorf("value %d out of range %d-%d", v, f.min, f.max)
	}
	return v, nil
}

func has(set uint64, v int) bool { return set&(1<<uint(v)) != 0 }

func (e *Expr) dayMatches(t time.Time) bool {
	dom, dow := has(e.dom, t.Day()), has(e.dow, int(t.Weekday()))
	if e.domAny || e.dowAny {
		return dom && dow
	}
	return dom || dow
}

// Next returns the first time strictly after after that matches, in after's
// location, or the zero time when none exists within five years (such as
// "0 0 30 2 *"). Fields are advanced with time.Date so a DST gap moves the
// clock forward instead of looping.
func (e *Expr) Next(after time.Time) time.Time {
	loc := after.Location()
	t := after.Truncate(time.Minute).Add(time.Minute)
	limit := t.AddDate(5, 0, 0)
	for t.Before(limit) {
		if !has(e.month, int(t.Month())) {
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, loc)
			continue
		}
		if !e.dayMatches(t) {
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc)
			continue
		}
		if !has(e.hour, t.Hour()) {
			next := time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, loc)
			if !next.After(t) { // DST fold: the same wall hour repeats
				next = t.Truncate(time.Hour).Add(time.Hour)
			}
			t = next
			continue
		}
		if !has(e.minute, t.Minute()) {
			t = t.Add(time.Minute)
			continue
		}
		return t
	}
	return time.Time{}
}

// Schedule is when a job runs: a recurring cron expression or one instant.
type Schedule struct {
	expr *Expr
	at   time.Time
}

// ParseSchedule parses a cron expression, a macro, or "at <RFC3339>" for a
// one-shot job.
func ParseSchedule(s string) (Schedule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Schedule{}, fmt.Errorf("empty schedule: use a 5-field cron expression such as \"*/15 * * * *\" or \"at 2026-05-01T09:00:00Z\"")
	}
	if rest, ok := cutPrefixFold(s, "at "); ok {
		at, err := time.Parse(time.RFC3339, strings.TrimSpace(rest))
		if err != nil {
			return Schedule{}, fmt.Errorf("one-shot schedule %q: time must be RFC3339 such as 2026-05-01T09:00:00Z: %w", s, err)
		}
		return Schedule{at: at}, nil
	}
	e, err := ParseExpr(s)
	if err != nil {
		return Schedule{}, err
	}
	return Schedule{expr: e}, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// OneShot reports whether the schedule runs once.
func (s Schedule) OneShot() bool { return s.expr == nil }

// Next returns the next run strictly after after, or the zero time when the
// schedule will not run again (a one-shot time already passed).
func (s Schedule) Next(after time.Time) time.Time {
	if s.expr != nil {
		return s.expr.Next(after)
	}
	if s.at.After(after) {
		return s.at
	}
	return time.Time{}
}
