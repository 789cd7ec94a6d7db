package podman

import (
	"context"
	"time"
)

// janitor removes containers idle for IdleTimeout until ctx is done or
// Close. A container in use is never removed, however old.
func (m *Manager) janitor(ctx context.Context) {
	defer close(m.janitorDone)
	every := max(min(m.opts.IdleTimeout/4, time.Minute), 50*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.stop:
			return
		case <-t.C:
			m.removeIdle(ctx)
		}
	}
}

func (m *Manager) removeIdle(ctx context.Context) {
	now := time.Now()
	var idle []*box
	m.mu.Lock()
	for k, b := range m.boxes {
		select {
		case <-b.ready:
		default:
			continue // still being created
		}
		if b.inflight == 0 && b.err == nil && now.Sub(b.lastUsed) >= m.opts.IdleTimeout {
			idle = append(idle, b)
			delete(m.boxes, k)
		}
	}
	m.mu.Unlock()
	for _, b := range idle {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		if err := m.remove(rctx, b); err != nil {
			m.log.Warn("sandbox: removing idle container failed", "name", b.name, "err", err)
		}
		cancel()
	}
}
