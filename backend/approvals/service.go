package approvals

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/backend/events"
)

// Topics published by the service.
const (
	TopicRequested events.Topic = "approval.requested"
	TopicResolved  events.Topic = "approval.resolved"
)

// Resolution is the payload of TopicResolved.
type Resolution struct {
	Request Request `json:"request"`
	Outcome Outcome `json:"outcome"`
}

// Options configures a Service.
type Options struct {
	Store Store
	Bus   *events.Bus
	Mode  Mode
	// Timeout is how long a request waits; zero means DefaultTimeout.
	Timeout time.Duration
	Now     func() time.Time
	// Shared mirrors requests in the database other Warren processes open,
	// so they can list and answer them (and this one theirs); nil keeps
	// requests in this process.
	Shared SharedStore
	// Process names this process for the others ("warren mcp serve");
	// empty means "warren".
	Process string
	// PID is this process's id; zero means os.Getpid().
	PID int
}

// Service runs approval requests. It is safe for concurrent use.
type Service struct {
	store   Store
	bus     *events.Bus
	timeout time.Duration
	now     func() time.Time
	seq     atomic.Uint64

	shared SharedStore
	origin Origin
	// instance tells this Service's shared rows from those of any other,
	// even another Service in the same process.
	instance string

	mu      sync.Mutex
	mode    Mode
	pending map[string]*pending
}

// New returns a Service.
func New(opts Options) *Service {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Process == "" {
		opts.Process = "warren"
	}
	if opts.PID == 0 {
		opts.PID = os.Getpid()
	}
	return &Service{store: opts.Store, bus: opts.Bus, timeout: opts.Timeout, now: opts.Now,
		shared: opts.Shared, origin: Origin{PID: opts.PID, Process: opts.Process}, instance: rand.Text(),
		mode: opts.Mode, pending: map[string]*pending{}}
}

// Origin returns who this process is to the others.
func (s *Service) Origin() Origin { return s.origin }

// Mode returns the current mode.
func (s *Service) Mode() Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// SetMode changes the mode for future requests.
func (s *Service) SetMode(m Mode) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

// Decide settles one request: the mode, then stored patterns, then (in ask
// mode) a human. It blocks until an answer, the timeout or ctx; every
// outcome is audited. The error is non-nil only when storage fails.
func (s *Service) Decide(ctx context.Context, req Request) (Outcome, error) {
	if req.ID == "" {
		// Unique across processes: the shared table is keyed by it.
		req.ID = fmt.Sprintf("apr-%d-%s-%d", s.now().UnixMilli(), s.instance[:8], s.seq.Add(1))
	}
	mode := s.Mode()
	if mode == ModeDeny {
		return s.finish(ctx, req, Outcome{Decision: Deny, By: "mode", Reason: "approval mode is deny: actions that need approval are refused"})
	}
	ok, err := s.matchesPattern(ctx, req)
	if err != nil {
		return Outcome{}, err
	}
	if ok {
		return s.finish(ctx, req, Outcome{Allowed: true, Decision: AllowAlways, By: "pattern", Reason: "allowed earlier with \"always\""})
	}
	if mode == ModeAllowlist {
		return s.finish(ctx, req, Outcome{Decision: Deny, By: "mode", Reason: "approval mode is allowlist and no stored pattern matches"})
	}
	return s.ask(ctx, req)
}

// finish audits and announces an outcome.
func (s *Service) finish(ctx context.Context, req Request, out Outcome) (Outcome, error) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := s.store.AppendAudit(actx, AuditEntry{
		RequestID: req.ID, Tool: req.Tool, Summary: req.Summary, Cwd: req.Cwd, Agent: req.Agent,
		Session: req.Session, Decision: out.Decision.String(), DecidedBy: out.By, Reason: out.Reason,
	})
	s.publish(TopicResolved, Resolution{Request: req, Outcome: out})
	return out, err
}

// matchesPattern reports whether every command of req is covered by a
// stored pattern of the same tool (for this agent or for all agents).
func (s *Service) matchesPattern(ctx context.Context, req Request) (bool, error) {
	if len(req.Commands) == 0 {
		return false, nil
	}
	pats, err := s.store.Patterns(ctx, req.Tool)
	if err != nil {
		return false, err
	}
	allowed := map[string]bool{}
	for _, p := range pats {
		if p.Agent != "" && p.Agent != req.Agent {
			continue
		}
		for _, argv := range p.Commands {
			allowed[key(argv)] = true
		}
	}
	for _, argv := range req.Commands {
		if !allowed[key(argv)] {
			return false, nil
		}
	}
	return true, nil
}

func key(argv []string) string {
	b := make([]byte, 0, 64)
	for _, w := range argv {
		b = append(b, w...)
		b = append(b, 0)
	}
	return string(b)
}

// Patterns lists stored "allow always" patterns.
func (s *Service) Patterns(ctx context.Context) ([]Pattern, error) { return s.store.Patterns(ctx, "") }

// Revoke deletes a stored pattern.
func (s *Service) Revoke(ctx context.Context, id int64) error { return s.store.RevokePattern(ctx, id) }

// Audit returns recent decisions, newest first.
func (s *Service) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	return s.store.Audit(ctx, limit)
}

func (s *Service) publish(topic events.Topic, payload any) {
	if s.bus != nil {
		s.bus.Publish(events.Event{Topic: topic, Payload: payload})
	}
}
