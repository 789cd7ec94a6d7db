package approvals

import (
	"context"
	"errors"
	"time"
)

// watchEvery is how often WatchForeign looks for other processes' requests.
const watchEvery = 500 * time.Millisecond

// ErrNoShared is returned by WatchForeign when the Service has no shared store.
var ErrNoShared = errors.New("approvals: no shared store to watch")

// WatchForeign shows this process the requests other Warren processes are
// waiting on, until ctx ends. Each new one is published on this process's
// bus as TopicRequested (Origin set), exactly like a local request, and
// TopicResolved follows once it is answered (here or anywhere), expires, is
// cancelled or its process dies. Answer answers them. While it runs, the
// other processes list this one in Watchers.
func (s *Service) WatchForeign(ctx context.Context) error {
	if s.shared == nil {
		return ErrNoShared
	}
	s.sweepWatchers(ctx)
	if err := s.shared.AddWatcher(ctx, Watcher{Instance: s.instance, Origin: s.origin}); err != nil {
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dbTimeout)
		_ = s.shared.RemoveWatcher(rctx, s.instance)
		cancel()
	}()
	shown := map[string]Request{}
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		s.syncForeign(ctx, shown)
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// syncForeign publishes the foreign requests that appeared since the last
// call and resolves the shown ones that are no longer pending.
func (s *Service) syncForeign(ctx context.Context, shown map[string]Request) {
	live, dead, err := s.foreignPending(ctx)
	if err != nil {
		return // read again next tick; a failed read resolves nothing
	}
	for _, r := range dead {
		// Its process died waiting: no answer can reach it any more.
		_, _ = s.shared.SettleRequest(ctx, r.ID, StatusCancelled, s.now())
	}
	still := make(map[string]bool, len(live))
	for _, r := range live {
		still[r.ID] = true
		if _, ok := shown[r.ID]; !ok {
			shown[r.ID] = r.Request
			s.publish(TopicRequested, r.Request)
		}
	}
	for id, req := range shown {
		if still[id] {
			continue
		}
		if out, ok := s.foreignOutcome(ctx, req); ok {
			delete(shown, id)
			s.publish(TopicResolved, Resolution{Request: req, Outcome: out})
		}
	}
}

// foreignOutcome says how another process's request ended, as its row
// tells; false when the row cannot be read now.
func (s *Service) foreignOutcome(ctx context.Context, req Request) (Outcome, bool) {
	r, err := s.shared.SharedRequest(ctx, req.ID)
	if errors.Is(err, ErrNotFound) {
		return Outcome{Decision: Deny, By: "cancelled", Reason: "the request is gone"}, true
	}
	if err != nil {
		return Outcome{}, false
	}
	alive := pidAlive(r.Origin.PID)
	switch {
	case r.Status == StatusAnswered:
		return userOutcome(r.Decision, r.AnsweredBy), true
	case !alive && r.Status != StatusExpired:
		return Outcome{Decision: Deny, By: "cancelled", Reason: r.Origin.String() + " exited before an answer"}, true
	case r.Status == StatusCancelled:
		return Outcome{Decision: Deny, By: "cancelled", Reason: "the request was cancelled"}, true
	default: // expired, or pending past its deadline: its process is settling it
		return Outcome{Decision: Deny, By: "timeout", Reason: "no answer before the deadline"}, true
	}
}

// Watchers lists the other live processes running WatchForeign (Warren
// windows): those that would show this process's requests. Without a
// shared store it is empty.
func (s *Service) Watchers(ctx context.Context) ([]Origin, error) {
	if s.shared == nil {
		return nil, nil
	}
	ws, err := s.shared.Watchers(ctx)
	if err != nil {
		return nil, err
	}
	var out []Origin
	for _, w := range ws {
		if w.Instance != s.instance && pidAlive(w.Origin.PID) {
			out = append(out, w.Origin)
		}
	}
	return out, nil
}

// sweepWatchers forgets watchers whose process died without removing
// itself (a crashed window).
func (s *Service) sweepWatchers(ctx context.Context) {
	ws, err := s.shared.Watchers(ctx)
	if err != nil {
		return
	}
	for _, w := range ws {
		if !pidAlive(w.Origin.PID) {
			_ = s.shared.RemoveWatcher(ctx, w.Instance)
		}
	}
}
