package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/tools"
)

// Backoff is the reconnect schedule (seed §10: 2 s doubling to 60 s, 10 attempts).
type Backoff struct {
	Initial, Max time.Duration
	Attempts     int
}

// DefaultBackoff is the seed's schedule.
var DefaultBackoff = Backoff{Initial: 2 * time.Second, Max: 60 * time.Second, Attempts: 10}

// delay is the wait before reconnect attempt n (1-based).
func (b Backoff) delay(n int) time.Duration {
	d := b.Initial
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Options configures a Manager.
type Options struct {
	Store *Store
	// LogDir holds one stderr log per stdio server.
	LogDir string
	Bus    *events.Bus
	Logger *slog.Logger
	// HealthEvery is the health check period (default 30 s).
	HealthEvery time.Duration
	// HealthTimeout bounds one health check (default 10 s).
	HealthTimeout time.Duration
	Backoff       Backoff
	// SandboxCommand builds the command of a sandboxed stdio server.
	SandboxCommand func(ctx context.Context, s Server, env map[string]string) (*exec.Cmd, error)
	// OnToolsChanged runs (without locks held) when any server's tool list changed.
	OnToolsChanged func()
	// Client answers the servers' requests (roots, sampling, elicitation);
	// nil declares none of those capabilities.
	Client *ClientHandlers
}

// Manager connects, watches and reconnects the configured servers.
type Manager struct {
	opts Options
	life context.Context
	stop context.CancelFunc

	mu      sync.Mutex
	servers map[string]*supervised
	// held servers were stopped by hand: Sync does not start them again
	// until Start or Restart.
	held map[string]bool
	// overrides are the agent grants' config overrides (by server, agent);
	// agents[server][agent] is such an agent's own connection, started on
	// its first call.
	overrides map[string]map[string]Overrides
	agents    map[string]map[string]*supervised
	// restartSeen is the latest restart request taken, by server (nil
	// until Sync first looks).
	restartSeen map[string]int64
	wg          sync.WaitGroup
}

// supervised is one server with its supervisor goroutine.
type supervised struct {
	// agent and over are set on an agent's own connection: its grant's
	// overrides are applied to cfg and the stored secrets when connecting.
	agent string
	over  Overrides

	mu     sync.Mutex
	cfg    Server
	conn   *conn
	tools  []mcp.Tool
	status Status
	logs   *serverLog

	cancel context.CancelFunc
	done   chan struct{}
	kick   chan struct{}
	// refresh carries the live connection's tools/list_changed notices.
	refresh chan struct{}
	ready   chan struct{} // closed after the first connection attempt
}

// NewManager returns a manager; servers start with Start or StartEnabled.
func NewManager(opts Options) *Manager {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.HealthEvery <= 0 {
		opts.HealthEvery = 30 * time.Second
	}
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = 10 * time.Second
	}
	if opts.Backoff.Attempts <= 0 {
		opts.Backoff = DefaultBackoff
	}
	life, stop := context.WithCancel(context.Background())
	return &Manager{opts: opts, life: life, stop: stop, servers: map[string]*supervised{}, held: map[string]bool{},
		agents: map[string]map[string]*supervised{}}
}

// allSupervised is every shared and agent connection.
func (m *Manager) allSupervised() []*supervised {
	m.mu.Lock()
	defer m.mu.Unlock()
	all := make([]*supervised, 0, len(m.servers))
	for _, s := range m.servers {
		all = append(all, s)
	}
	for _, byAgent := range m.agents {
		for _, s := range byAgent {
			all = append(all, s)
		}
	}
	return all
}

// Store returns the server store.
func (m *Manager) Store() *Store { return m.opts.Store }

// Close stops every server and waits for their processes to be gone.
func (m *Manager) Close() {
	m.stop()
	for _, s := range m.allSupervised() {
		s.cancel()
	}
	m.wg.Wait()
}

// StartEnabled starts every enabled server that is not running.
func (m *Manager) StartEnabled(ctx context.Context) error {
	list, err := m.opts.Store.List(ctx)
	if err != nil {
		return err
	}
	if err := m.loadOverrides(ctx); err != nil {
		return err
	}
	for _, srv := range list {
		if srv.Enabled {
			m.start(srv)
		}
	}
	return nil
}

// loadOverrides reads the agent grants' overrides (see agentconns.go).
func (m *Manager) loadOverrides(ctx context.Context) error {
	overrides, err := m.opts.Store.AgentOverrides(ctx)
	if err != nil {
		return err
	}
	m.setOverrides(overrides)
	return nil
}

// Start starts (or keeps running) one stored server, enabled or not; a
// server that failed is retried at once, from the first attempt.
func (m *Manager) Start(ctx context.Context, name string) error {
	srv, err := m.opts.Store.Get(ctx, name)
	if err != nil {
		return err
	}
	if err := m.loadOverrides(ctx); err != nil {
		return err
	}
	if st, ok := m.status(name); ok && st.State == StateFailed {
		return m.Restart(ctx, name)
	}
	m.mu.Lock()
	delete(m.held, name)
	m.mu.Unlock()
	m.start(srv)
	return nil
}

// Hold stops a server by hand: it stays stopped, even if enabled, until
// Start or Restart (or Warren starts again).
func (m *Manager) Hold(name string) {
	m.mu.Lock()
	m.held[name] = true
	m.mu.Unlock()
	m.Stop(name)
}

// Restart stops and starts a server with its stored configuration; a
// failed server is retried from the first attempt.
func (m *Manager) Restart(ctx context.Context, name string) error {
	srv, err := m.opts.Store.Get(ctx, name)
	if err != nil {
		return err
	}
	m.Stop(name)
	m.mu.Lock()
	delete(m.held, name)
	m.mu.Unlock()
	m.start(srv)
	return nil
}

// Stop stops a server (with its agents' connections) and forgets its tools.
func (m *Manager) Stop(name string) {
	m.mu.Lock()
	s, ok := m.servers[name]
	delete(m.servers, name)
	m.mu.Unlock()
	m.stopAgents(name, nil)
	if !ok {
		return
	}
	s.cancel()
	<-s.done
	s.mu.Lock()
	s.status.State, s.status.PID, s.status.NextRetry = StateStopped, 0, time.Time{}
	st := s.status
	s.mu.Unlock()
	m.publish(st)
	m.toolsChanged()
}

// Sync makes the running set match the store: removed or disabled servers
// stop, changed ones restart, and ones another process asked to restart
// (RequestRestart) restart; with startEnabled, enabled ones not running
// start.
func (m *Manager) Sync(ctx context.Context, startEnabled bool) error {
	list, err := m.opts.Store.List(ctx)
	if err != nil {
		return err
	}
	if err := m.loadOverrides(ctx); err != nil {
		return err
	}
	restarts := m.takeRestartRequests(ctx)
	want := map[string]Server{}
	for _, srv := range list {
		want[srv.Name] = srv
	}
	m.mu.Lock()
	running := map[string]Server{}
	for name, s := range m.servers {
		s.mu.Lock()
		running[name] = s.cfg
		s.mu.Unlock()
	}
	m.mu.Unlock()
	for name, cfg := range running {
		srv, ok := want[name]
		switch {
		case !ok || !srv.Enabled:
			m.Stop(name)
		case !sameConfig(cfg, srv):
			m.Stop(name)
			m.start(srv)
		default:
			m.refreshConfig(srv)
		}
	}
	m.applyRestartRequests(ctx, restarts, want)
	if startEnabled {
		m.mu.Lock()
		held := maps.Clone(m.held)
		m.mu.Unlock()
		for _, srv := range want {
			if _, ok := running[srv.Name]; !ok && srv.Enabled && !held[srv.Name] {
				m.start(srv)
			}
		}
	}
	return nil
}

// refreshConfig takes settings that need no reconnect (tool switches,
// grants, deferral) into a running server.
func (m *Manager) refreshConfig(srv Server) {
	m.mu.Lock()
	s, ok := m.servers[srv.Name]
	m.mu.Unlock()
	if !ok {
		return
	}
	s.mu.Lock()
	s.cfg = srv
	s.mu.Unlock()
	m.toolsChanged()
}

// sameConfig reports whether two configs connect the same way.
func sameConfig(a, b Server) bool {
	return a.Transport == b.Transport && a.Command == b.Command && fmt.Sprint(a.Args) == fmt.Sprint(b.Args) &&
		a.sealed == b.sealed &&
		a.Cwd == b.Cwd && a.URL == b.URL && a.ToolPrefix == b.ToolPrefix && a.Sandboxed == b.Sandboxed &&
		a.SandboxNetwork == b.SandboxNetwork && a.ConnectTimeout == b.ConnectTimeout && a.CallTimeout == b.CallTimeout
}

func (m *Manager) start(srv Server) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.servers[srv.Name]; !ok {
		m.servers[srv.Name] = m.launch(srv, "", Overrides{})
	}
}

// launch starts a supervisor for srv (an agent's own connection when
// agent is set); m.mu is held.
func (m *Manager) launch(srv Server, agent string, over Overrides) *supervised {
	ctx, cancel := context.WithCancel(m.life)
	logName := srv.Name
	if agent != "" {
		logName += "@" + agent
	}
	s := &supervised{
		agent: agent, over: over,
		cfg: srv, cancel: cancel, done: make(chan struct{}), kick: make(chan struct{}, 1), ready: make(chan struct{}),
		status: Status{Name: srv.Name, Transport: srv.Transport, Enabled: srv.Enabled, State: StateConnecting, MaxAttempts: m.opts.Backoff.Attempts,
			StartedAt: time.Now(), agent: agent},
		logs: openServerLog(m.opts.LogDir, logName),
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer close(s.done)
		defer s.logs.close()
		m.supervise(ctx, s)
	}()
	return s
}

// WaitReady waits until every named server (all running ones when names is
// empty) finished its first connection attempt, or ctx ends.
func (m *Manager) WaitReady(ctx context.Context, names ...string) {
	m.mu.Lock()
	var waits []chan struct{}
	for name, s := range m.servers {
		if len(names) == 0 || slices.Contains(names, name) {
			waits = append(waits, s.ready)
		}
	}
	m.mu.Unlock()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return
		}
	}
}

// ServerTools is one running server's configuration and last known tools.
type ServerTools struct {
	Server Server
	Tools  []mcp.Tool
}

// Running returns every running server with its last known tool list.
func (m *Manager) Running() []ServerTools {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerTools, 0, len(m.servers))
	for _, s := range m.servers {
		s.mu.Lock()
		out = append(out, ServerTools{Server: s.cfg, Tools: s.tools})
		s.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Server.Name < out[j].Server.Name })
	return out
}

// Tools returns a running server's last known tools.
func (m *Manager) Tools(name string) ([]mcp.Tool, bool) {
	m.mu.Lock()
	s, ok := m.servers[name]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools, true
}

// ErrNotConnected marks a call to a server that is not connected now.
var ErrNotConnected = errors.New("not connected")

// notConnected is an error that says why (the text is the whole message)
// and matches ErrNotConnected.
type notConnected string

func (e notConnected) Error() string { return string(e) }

func (e notConnected) Is(target error) bool { return target == ErrNotConnected }

// ErrCallTimeout marks a call the server did not answer within its timeout.
var ErrCallTimeout = errors.New("call timed out")

// Call calls a tool on a connected server. A transport failure makes the
// supervisor check the server at once.
//
// An agent (from ctx's call context) whose grant overrides the server's
// configuration is served by a connection of its own, started on its
// first call.
func (m *Manager) Call(ctx context.Context, server, tool string, args []byte) (*mcp.CallToolResult, error) {
	s, err := m.target(ctx, server, tools.AgentFrom(ctx))
	if err != nil {
		return nil, err
	}
	label := server
	if s.agent != "" {
		label = fmt.Sprintf("%s (agent %s's own connection)", server, s.agent)
	}
	s.mu.Lock()
	c, st, timeout := s.conn, s.status, s.cfg.callTimeout()
	s.mu.Unlock()
	if c == nil {
		return nil, notConnected(downText(label, st))
	}
	res, err := c.callTool(ctx, tool, args, timeout)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, fmt.Errorf("MCP server %s did not answer %s within %s%s: %w", label, tool, timeout, c.junkNote(), ErrCallTimeout)
		}
		s.poke()
		return nil, fmt.Errorf("MCP server %s: %w", label, err)
	}
	return res, nil
}

// poke asks the supervisor to check the server now.
func (s *supervised) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (m *Manager) toolsChanged() {
	if m.opts.OnToolsChanged != nil {
		m.opts.OnToolsChanged()
	}
}
