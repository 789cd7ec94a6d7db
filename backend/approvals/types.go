// Package approvals asks a human before risky actions run. Requests are
// events; whoever answers first (native dialog, in-app queue, CLI prompt)
// wins. Requests are also mirrored in the database every Warren process
// shares, so the window shows and answers those of `warren mcp serve` or
// `warren tool call` (WatchForeign). "Allow always" answers become
// normalised argv patterns in SQLite, and every decision is audited.
package approvals

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Mode decides what happens to an action that needs approval.
type Mode int

// Modes.
const (
	// ModeAsk asks a human unless a stored pattern already allows it.
	ModeAsk Mode = iota
	// ModeAllowlist runs only what stored patterns allow and never asks
	// (unattended use).
	ModeAllowlist
	// ModeDeny refuses every action that needs approval.
	ModeDeny
)

var modeNames = map[Mode]string{ModeAsk: "ask", ModeAllowlist: "allowlist", ModeDeny: "deny"}

// String returns the mode name.
func (m Mode) String() string {
	if s, ok := modeNames[m]; ok {
		return s
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

// ParseMode parses "ask", "allowlist" or "deny".
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if strings.EqualFold(s, name) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown approval mode %q (want ask, allowlist or deny)", s)
}

// Decision is a human's (or the system's) answer.
type Decision int

// Decisions.
const (
	Deny Decision = iota
	AllowOnce
	AllowAlways
)

var decisionNames = map[Decision]string{Deny: "deny", AllowOnce: "allow-once", AllowAlways: "allow-always"}

// String returns the decision name.
func (d Decision) String() string {
	if s, ok := decisionNames[d]; ok {
		return s
	}
	return fmt.Sprintf("decision(%d)", int(d))
}

// MarshalText encodes the decision by name.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText decodes a decision name.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	*d = v
	return err
}

// ParseDecision parses "deny", "allow-once" or "allow-always" (also "once",
// "always", "yes", "no").
func ParseDecision(s string) (Decision, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "deny", "no", "n":
		return Deny, nil
	case "allow-once", "once", "yes", "y", "allow":
		return AllowOnce, nil
	case "allow-always", "always", "a":
		return AllowAlways, nil
	}
	return Deny, fmt.Errorf("unknown decision %q (want allow-once, allow-always or deny)", s)
}

// Request is one action waiting for a human.
type Request struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"`
	Summary string `json:"summary"`
	// Commands are the normalised argv of everything the action runs; an
	// "allow always" answer stores exactly these.
	Commands [][]string `json:"commands,omitempty"`
	Cwd      string     `json:"cwd,omitempty"`
	Agent    string     `json:"agent,omitempty"`
	Session  string     `json:"session,omitempty"`
	// CallID is the tool call the request holds up (in Session), so the
	// chat can ask on that call's card; empty for requests of other
	// processes, whose calls no window shows.
	CallID string `json:"call_id,omitempty"`
	// Reason says why the action was flagged.
	Reason   string    `json:"reason"`
	Created  time.Time `json:"created"`
	Deadline time.Time `json:"deadline"`
	// Origin is set on requests asked by another Warren process (read from
	// the shared database); nil for this process's own requests.
	Origin *Origin `json:"origin,omitempty"`
}

// Origin is the Warren process that asked a request.
type Origin struct {
	PID int `json:"pid"`
	// Process says what it is, for people: "warren mcp serve", "Warren window".
	Process string `json:"process"`
}

// String reads "warren mcp serve (pid 4242)".
func (o Origin) String() string {
	if o.Process == "" {
		return fmt.Sprintf("pid %d", o.PID)
	}
	return fmt.Sprintf("%s (pid %d)", o.Process, o.PID)
}

// Outcome is the final word on a request.
type Outcome struct {
	Allowed  bool     `json:"allowed"`
	Decision Decision `json:"decision"`
	// By says who decided: user, pattern, mode, timeout or cancelled.
	By     string `json:"by"`
	Reason string `json:"reason,omitempty"`
}

// Pattern is a stored "allow always" answer.
type Pattern struct {
	ID       int64      `json:"id"`
	Tool     string     `json:"tool"`
	Agent    string     `json:"agent,omitempty"`
	Commands [][]string `json:"commands"`
	Display  string     `json:"display"`
	Created  string     `json:"created"`
}

// AuditEntry is one recorded decision.
type AuditEntry struct {
	ID        int64  `json:"id"`
	RequestID string `json:"request_id"`
	Tool      string `json:"tool"`
	Summary   string `json:"summary"`
	Cwd       string `json:"cwd,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Session   string `json:"session,omitempty"`
	Decision  string `json:"decision"`
	DecidedBy string `json:"decided_by"`
	Reason    string `json:"reason,omitempty"`
	Created   string `json:"created"`
}

// ErrNotFound is returned for an unknown pattern or request id.
var ErrNotFound = errors.New("not found")

// DefaultTimeout is how long a request waits for an answer before it is denied.
const DefaultTimeout = 2 * time.Minute
