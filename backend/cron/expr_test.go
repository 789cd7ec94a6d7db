package cron

import (
	"strings"
	"testing"
	"time"
)

func TestParseExpr(t *testing.T) {
	t.Parallel()
	cases := []struct {
		expr    string
		wantErr string // "" means valid
	}{
		{"* * * * *", ""},
		{"*/5 * * * *", ""},
		{"0,15,30,45 9-17 * * mon-fri", ""},
		{"0 0 1 jan,JUL *", ""},
		{"5/10 * * * *", ""},
		{"0 0 * * 7", ""},
		{"1-10/3 * * * SUN", ""},
		{"@daily", ""},
		{"@Hourly", ""},
		{"", "has 0 fields"},
		{"* * * *", "has 4 fields"},
		{"* * * * * *", "has 6 fields"},
		{"60 * * * *", "minute field"},
		{"* 24 * * *", "hour field"},
		{"* * 0 * *", "day-of-month field"},
		{"* * 32 * *", "day-of-month field"},
		{"* * * 13 *", "month field"},
		{"* * * foo *", "month field"},
		{"* * * * 8", "day-of-week field"},
		{"* * * * fun", "day-of-week field"},
		{"*/0 * * * *", "step"},
		{"*/x * * * *", "minute field"},
		{"10-5 * * * *", "backwards"},
		{"1,,2 * * * *", "empty list item"},
		{"-1 * * * *", "minute field"},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			t.Parallel()
			_, err := ParseExpr(c.expr)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseExpr(%q) = %v, want ok", c.expr, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("ParseExpr(%q) = %v, want error containing %q", c.expr, err, c.wantErr)
			}
		})
	}
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestNext(t *testing.T) {
	t.Parallel()
	cases := []struct {
		expr, after, want string
	}{
		{"* * * * *", "2026-03-23T13:51:28Z", "2026-03-23T13:52:00Z"},
		{"*/5 * * * *", "2026-03-23T13:55:00Z", "2026-03-23T14:00:00Z"},
		{"0 9 * * *", "2026-03-23T09:00:00Z", "2026-03-24T09:00:00Z"},
		// month boundary
		{"30 8 1 * *", "2026-01-31T23:59:00Z", "2026-02-01T08:30:00Z"},
		{"0 0 31 * *", "2026-04-01T00:00:00Z", "2026-05-31T00:00:00Z"},
		// year boundary
		{"0 0 * * *", "2026-12-31T23:30:00Z", "2027-01-01T00:00:00Z"},
		{"@yearly", "2026-06-15T12:00:00Z", "2027-01-01T00:00:00Z"},
		{"15 10 * dec *", "2026-12-31T10:15:00Z", "2027-12-01T10:15:00Z"},
		// leap day
		{"0 12 29 feb *", "2026-03-01T00:00:00Z", "2028-02-29T12:00:00Z"},
		// names and day-of-week
		{"0 9 * * mon-fri", "2026-03-27T09:00:00Z", "2026-03-30T09:00:00Z"}, // Fri → Mon
		{"0 0 * * 7", "2026-03-23T00:00:00Z", "2026-03-29T00:00:00Z"},       // 7 is Sunday
		// both day fields restricted: either matches (classic cron)
		{"0 0 13 * fri", "2026-03-01T00:00:00Z", "2026-03-06T00:00:00Z"},
		{"5/20 * * * *", "2026-03-23T13:46:00Z", "2026-03-23T14:05:00Z"},
	}
	for _, c := range cases {
		t.Run(c.expr+"@"+c.after, func(t *testing.T) {
			t.Parallel()
			e, err := ParseExpr(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Next(utc(c.after)); !got.Equal(utc(c.want)) {
				t.Fatalf("Next(%s) = %s, want %s", c.after, got.Format(time.RFC3339), c.want)
			}
		})
	}
	e, _ := ParseExpr("0 0 30 feb *")
	if got := e.Next(utc("2026-01-01T00:00:00Z")); !got.IsZero() {
		t.Fatalf("impossible schedule: Next = %s, want zero", got)
	}
}

func TestNextDST(t *testing.T) {
	t.Parallel()
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	e, _ := ParseExpr("30 2 * * *") // 02:30 does not exist on 2026-03-08
	got := e.Next(time.Date(2026, 3, 7, 12, 0, 0, 0, loc))
	if got.IsZero() || !got.After(time.Date(2026, 3, 7, 12, 0, 0, 0, loc)) {
		t.Fatalf("Next across spring-forward = %s", got)
	}
	e, _ = ParseExpr("0 * * * *") // hourly through the fall-back hour terminates
	after := time.Date(2026, 11, 1, 0, 30, 0, 0, loc)
	for range 5 {
		next := e.Next(after)
		if !next.After(after) {
			t.Fatalf("Next(%s) = %s, not after", after, next)
		}
		after = next
	}
}

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	s, err := ParseSchedule("at 2026-05-01T09:00:00+02:00")
	if err != nil || !s.OneShot() {
		t.Fatalf("one-shot: %v %v", s, err)
	}
	if got := s.Next(utc("2026-04-01T00:00:00Z")); !got.Equal(utc("2026-05-01T07:00:00Z")) {
		t.Fatalf("one-shot next = %s", got)
	}
	if got := s.Next(utc("2026-06-01T00:00:00Z")); !got.IsZero() {
		t.Fatalf("past one-shot next = %s, want zero", got)
	}
	for _, bad := range []string{"", "at tomorrow", "at 2026-05-01 09:00"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Fatalf("ParseSchedule(%q) accepted", bad)
		}
	}
	if s, err := ParseSchedule("*/5 * * * *"); err != nil || s.OneShot() {
		t.Fatalf("recurring: %v", err)
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"* * * * *", "*/5 1-3 1,2 jan-mar mon", "@daily", "5/10 * * * 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			return
		}
		after := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		if n := e.Next(after); !n.IsZero() && !n.After(after) {
			t.Fatalf("Next not after: %s", n)
		}
	})
}
