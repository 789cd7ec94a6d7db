package approvals

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

// pollEvery is how often a waiting request reads its shared row for an
// answer given in another process (one primary-key read).
const pollEvery = 200 * time.Millisecond

// keepSettled is how long shared rows outlive their deadline (so watchers
// can read how they ended) before the next request prunes them.
const keepSettled = 24 * time.Hour

// dbTimeout bounds each shared-store call made where no caller ctx exists
// (Answer, Pending) or one must outlive cancellation (settling a row).
const dbTimeout = 5 * time.Second

type pending struct {
	req    Request
	answer chan Decision // buffered 1: the first answer wins
	once   sync.Once
	// shared: the request has a row in the shared store, which then
	// decides which answer came first. It is set after the request is
	// listed, before shareDone is closed.
	shared    bool
	shareDone chan struct{}
}

func (s *Service) ask(ctx context.Context, req Request) (Outcome, error) {
	req.Created = s.now()
	req.Deadline = req.Created.Add(s.timeout)
	// Listed here before the shared row exists, so no other process can
	// show the request while this one does not.
	p := &pending{req: req, answer: make(chan Decision, 1), shareDone: make(chan struct{})}
	s.mu.Lock()
	s.pending[req.ID] = p
	s.mu.Unlock()
	p.shared = s.share(ctx, req)
	close(p.shareDone)
	defer func() {
		s.mu.Lock()
		delete(s.pending, req.ID)
		s.mu.Unlock()
	}()
	s.publish(TopicRequested, req)
	out := s.wait(ctx, p)
	if p.shared {
		out = s.settle(ctx, p, out)
	}
	if out.Decision == AllowAlways && len(req.Commands) > 0 {
		// The pattern must outlive a cancelled caller: the user said "always".
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dbTimeout)
		_, err := s.store.AddPattern(sctx, Pattern{Tool: req.Tool, Agent: req.Agent, Commands: req.Commands})
		cancel()
		if err != nil {
			return Outcome{}, err
		}
	}
	return s.finish(ctx, req, out)
}

// share records req in the shared store. A failure only keeps the request
// in this process (its own answerers still work), so it is not an error.
func (s *Service) share(ctx context.Context, req Request) bool {
	if s.shared == nil {
		return false
	}
	o := s.origin
	req.Origin = &o
	ok, err := s.shared.InsertRequest(ctx, SharedRequest{Request: req, Instance: s.instance, Status: StatusPending})
	if err != nil || !ok {
		return false
	}
	_ = s.shared.PruneRequests(ctx, req.Created.Add(-keepSettled))
	return true
}

// wait blocks until the first answer (here or, through the shared row, in
// another process), the timeout or ctx.
func (s *Service) wait(ctx context.Context, p *pending) Outcome {
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	var poll <-chan time.Time
	if p.shared {
		tick := time.NewTicker(pollEvery)
		defer tick.Stop()
		poll = tick.C
	}
	for {
		select {
		case d := <-p.answer:
			return userOutcome(d, "")
		case <-poll:
			if r, ok := s.answeredRow(ctx, p.req.ID); ok {
				return userOutcome(r.Decision, s.elsewhere(r))
			}
		case <-timer.C:
			return Outcome{Decision: Deny, By: "timeout", Reason: fmt.Sprintf("no answer within %s", s.timeout)}
		case <-ctx.Done():
			return Outcome{Decision: Deny, By: "cancelled", Reason: "the request was cancelled"}
		}
	}
}

// settle brings the shared row in line with out. When the row was answered
// in another process after the last poll but before the timeout or
// cancellation reached it, that answer won (its Answer reported true), so
// it is the outcome.
func (s *Service) settle(ctx context.Context, p *pending, out Outcome) Outcome {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dbTimeout)
	defer cancel()
	if out.By == "user" {
		// Answer marked the row already unless the database was
		// unreachable then; this is a no-op otherwise.
		_, _ = s.shared.AnswerRequest(sctx, RequestAnswer{ID: p.req.ID, Decision: out.Decision, By: s.origin.String(), At: s.now()})
		return out
	}
	status := StatusExpired
	if out.By == "cancelled" {
		status = StatusCancelled
	}
	if ok, err := s.shared.SettleRequest(sctx, p.req.ID, status, s.now()); err != nil || ok {
		return out
	}
	if r, ok := s.answeredRow(sctx, p.req.ID); ok {
		return userOutcome(r.Decision, s.elsewhere(r))
	}
	return out
}

// answeredRow reads a shared row and reports whether it has been answered.
func (s *Service) answeredRow(ctx context.Context, id string) (SharedRequest, bool) {
	r, err := s.shared.SharedRequest(ctx, id)
	return r, err == nil && r.Status == StatusAnswered
}

// elsewhere names the process that answered r when it is not this one.
func (s *Service) elsewhere(r SharedRequest) string {
	if r.AnsweredBy == s.origin.String() {
		return ""
	}
	return r.AnsweredBy
}

func userOutcome(d Decision, where string) Outcome {
	out := Outcome{Allowed: d != Deny, Decision: d, By: "user"}
	switch {
	case d == Deny && where != "":
		out.Reason = "denied by the user in " + where
	case d == Deny:
		out.Reason = "denied by the user"
	case where != "":
		out.Reason = "answered in " + where
	}
	return out
}

// Answer settles a pending request: this process's own, or, through the
// shared store, one another Warren process is waiting on. The first answer
// wins; answering an unknown, expired or already-answered request is a
// no-op that reports false.
func (s *Service) Answer(id string, d Decision) bool {
	s.mu.Lock()
	p, ok := s.pending[id]
	s.mu.Unlock()
	if !ok {
		return s.answerShared(id, d)
	}
	<-p.shareDone // one bounded insert: which store decides is known after it
	if p.shared {
		ctx, cancel := context.WithTimeout(context.Background(), dbTimeout)
		won, err := s.shared.AnswerRequest(ctx, RequestAnswer{ID: id, Decision: d, By: s.origin.String(), At: s.now()})
		cancel()
		if err == nil && !won {
			return false // answered in another process, or timed out, first
		}
		// With the database unreachable, the answer given here still counts.
	}
	won := false
	p.once.Do(func() {
		p.answer <- d
		won = true
	})
	return won
}

// answerShared answers another process's request through its row; the
// asking process sees the answer at its next poll.
func (s *Service) answerShared(id string, d Decision) bool {
	if s.shared == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), dbTimeout)
	defer cancel()
	r, err := s.shared.SharedRequest(ctx, id)
	if err != nil || r.Status != StatusPending || r.Instance == s.instance || !pidAlive(r.Origin.PID) {
		return false
	}
	won, err := s.shared.AnswerRequest(ctx, RequestAnswer{ID: id, Decision: d, By: s.origin.String(), At: s.now()})
	return err == nil && won
}

// Pending lists requests waiting for an answer, oldest first: this
// process's own and, with a shared store, those of other live Warren
// processes (their Origin set).
func (s *Service) Pending() []Request {
	s.mu.Lock()
	out := make([]Request, 0, len(s.pending))
	for _, p := range s.pending {
		out = append(out, p.req)
	}
	s.mu.Unlock()
	if s.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), dbTimeout)
		foreign, _, _ := s.foreignPending(ctx)
		cancel()
		for _, r := range foreign {
			out = append(out, r.Request)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// foreignPending lists the pending shared requests of other Services whose
// process is alive; dead ones are returned apart so a watcher can settle them.
func (s *Service) foreignPending(ctx context.Context) (live, dead []SharedRequest, err error) {
	rows, err := s.shared.PendingRequests(ctx, s.now())
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		switch {
		case r.Instance == s.instance:
		case pidAlive(r.Origin.PID):
			live = append(live, r)
		default:
			dead = append(dead, r)
		}
	}
	return live, dead, nil
}
