package browser

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Manager owns the agents' browsers: one per agent, started on the first
// call, closed after Idle without a call and at Close.
type Manager struct {
	d    Deps
	life context.Context
	stop context.CancelFunc

	mu       sync.Mutex
	sessions map[string]*session
	// closing holds, per agent, a channel that closes once its old browser
	// is gone: a new one must not start on a profile still in use.
	closing map[string]chan struct{}
	// launching holds, per agent, a channel that closes once the browser
	// being started for it is in sessions (or failed): Chromium starts
	// outside mu, so other agents' calls go on meanwhile.
	launching map[string]chan struct{}
	closed    bool
}

// NewManager makes a manager; no browser starts until a call needs one.
func NewManager(d Deps) *Manager {
	life, stop := context.WithCancel(context.Background())
	return &Manager{d: d, life: life, stop: stop, sessions: map[string]*session{}, closing: map[string]chan struct{}{},
		launching: map[string]chan struct{}{}}
}

// errClosed refuses calls after Close (Warren is shutting down).
var errClosed = errors.New("the browser manager is closed (Warren is shutting down)")

// acquire returns the agent's session, locked and marked busy, starting a
// browser when the agent has none. release must follow.
func (m *Manager) acquire(agent string) (*session, error) {
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, errClosed
		}
		if gone, ok := m.closing[agent]; ok {
			m.mu.Unlock()
			<-gone
			continue
		}
		if started, ok := m.launching[agent]; ok {
			m.mu.Unlock()
			<-started // one browser per agent: wait for the one starting
			continue
		}
		s, ok := m.sessions[agent]
		if !ok {
			var err error
			if s, err = m.launch(agent); err != nil {
				return nil, err
			}
		}
		s.busy++
		if s.timer != nil {
			s.timer.Stop()
		}
		m.mu.Unlock()
		s.mu.Lock()
		if !s.closed.Load() {
			return s, nil
		}
		// Closed while we waited (close action or idle): start again.
		s.mu.Unlock()
		m.mu.Lock()
		s.busy--
		m.mu.Unlock()
	}
}

// launch starts the agent's browser outside m.mu (held on entry, held again
// on a nil error return, released on an error) and puts it in sessions. A
// launch is bounded by launchTimeout; calls for the same agent wait on
// m.launching, Close waits for it and shuts the new browser down.
func (m *Manager) launch(agent string) (*session, error) {
	started := make(chan struct{})
	m.launching[agent] = started
	m.mu.Unlock()
	s, err := launch(m.life, m.d, agent)
	m.mu.Lock()
	delete(m.launching, agent)
	if err == nil && m.closed {
		m.mu.Unlock()
		s.closed.Store(true)
		s.shutdown()
		close(started)
		return nil, errClosed
	}
	if err != nil {
		m.mu.Unlock()
		close(started)
		return nil, err
	}
	m.sessions[agent] = s
	close(started)
	return s, nil
}

// release unlocks the session and arms its idle timer.
func (m *Manager) release(s *session) {
	s.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	s.busy--
	if s.busy == 0 && !s.closed.Load() {
		s.timer = time.AfterFunc(m.d.idle(), func() { m.closeIdle(s) })
	}
}

// closeIdle closes s unless a call came in since the timer was armed.
func (m *Manager) closeIdle(s *session) {
	m.mu.Lock()
	if s.busy > 0 || s.closed.Load() || m.sessions[s.agent] != s {
		m.mu.Unlock()
		return
	}
	m.retire(s)
}

// closeLocked closes a session the caller holds (the close action).
func (m *Manager) closeLocked(s *session) {
	m.mu.Lock()
	m.retire(s)
}

// retire takes s out of the table and shuts it down; m.mu is held on
// entry and released before the (slow) shutdown. A call for the same
// agent waits for it on m.closing.
func (m *Manager) retire(s *session) {
	if m.sessions[s.agent] == s {
		delete(m.sessions, s.agent)
	}
	s.closed.Store(true)
	gone := make(chan struct{})
	m.closing[s.agent] = gone
	m.mu.Unlock()
	s.shutdown()
	m.mu.Lock()
	delete(m.closing, s.agent)
	m.mu.Unlock()
	close(gone)
}

// Running reports how many browsers are open.
func (m *Manager) Running() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// Close closes every browser and refuses later calls; it waits for calls
// in flight to finish their current step.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	list := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		list = append(list, s)
		if s.timer != nil {
			s.timer.Stop()
		}
	}
	m.sessions = map[string]*session{}
	closing := make([]chan struct{}, 0, len(m.closing)+len(m.launching))
	for _, gone := range m.closing {
		closing = append(closing, gone)
	}
	for _, started := range m.launching {
		closing = append(closing, started)
	}
	m.mu.Unlock()
	// Browsers the idle timer or a close action is shutting down, and
	// those starting (their launch sees closed and shuts them down).
	for _, gone := range closing {
		<-gone
	}
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.closed.Swap(true) {
				s.shutdown()
			}
		}()
	}
	wg.Wait()
	m.stop()
}
