package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// supervise connects, watches and reconnects one server until ctx ends.
func (m *Manager) supervise(ctx context.Context, s *supervised) {
	attempt := 0
	readyOnce := func() {
		select {
		case <-s.ready:
		default:
			close(s.ready)
		}
	}
	defer readyOnce()
	for {
		c, err := m.connect(ctx, s)
		if ctx.Err() != nil {
			if c != nil {
				c.close()
			}
			m.dropConn(s)
			return
		}
		if err == nil {
			readyOnce()
			attempt = 0
			err = m.watch(ctx, s, c)
			c.close()
			m.dropConn(s)
			if ctx.Err() != nil {
				return
			}
			m.opts.Logger.Warn("mcp server lost", "server", s.cfg.Name, "agent", s.agent, "err", err)
			s.mu.Lock()
			s.status.Restarts++ // published with the reconnecting state below
			s.mu.Unlock()
		}
		attempt++
		if attempt > m.opts.Backoff.Attempts {
			m.update(s, func(st *Status) {
				st.State, st.Attempt, st.NextRetry, st.PID = StateFailed, attempt-1, time.Time{}, 0
				st.LastError = err.Error()
			})
			readyOnce()
			// Failed until retried by hand (Restart) or the supervisor is stopped.
			<-ctx.Done()
			return
		}
		delay := m.opts.Backoff.delay(attempt)
		m.update(s, func(st *Status) {
			st.State, st.Attempt, st.NextRetry, st.PID = StateReconnecting, attempt, time.Now().Add(delay), 0
			st.LastError = err.Error()
		})
		// Ready only now: a waiter reading the status must see why the
		// first attempt failed (warren tools printed no warning under load).
		readyOnce()
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		case <-s.kick:
		}
	}
}

// connect dials the server and lists its tools.
func (m *Manager) connect(ctx context.Context, s *supervised) (*conn, error) {
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	m.update(s, func(st *Status) {
		if st.State != StateReconnecting {
			st.State = StateConnecting
		}
	})
	env, headers, err := m.opts.Store.Secrets(ctx, cfg.Name)
	if err != nil {
		return nil, err
	}
	if s.agent != "" {
		cfg, env, headers = s.over.apply(cfg, env, headers)
	}
	refresh := make(chan struct{}, 1)
	o := dialOptions{env: env, headers: headers, log: s.logs.sink, logger: m.opts.Logger, notify: func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			select {
			case refresh <- struct{}{}:
			default:
			}
		}
	}}
	if m.opts.Client != nil {
		o.features = &clientFeatures{h: m.opts.Client, server: cfg.Name, agent: s.agent}
	}
	if cfg.Sandboxed {
		if m.opts.SandboxCommand == nil {
			return nil, errors.New("the sandbox is not available to MCP servers here")
		}
		o.command = m.opts.SandboxCommand
	}
	start := time.Now()
	c, err := dial(ctx, cfg, o)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, cfg.connectTimeout())
	defer cancel()
	tools, err := c.listTools(lctx)
	if err != nil {
		c.close()
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	latency := time.Since(start)
	resources, prompts, note := c.catalog(lctx)
	if note != "" {
		m.opts.Logger.Warn("mcp catalog", "server", cfg.Name, "note", note)
	}
	s.mu.Lock()
	s.conn = c
	s.status.Resources, s.status.Prompts = len(resources), len(prompts)
	s.refresh = refresh
	changed := !sameTools(s.tools, tools)
	s.tools = tools
	s.status.State, s.status.Attempt, s.status.NextRetry = StateConnected, 0, time.Time{}
	s.status.Protocol, s.status.PID, s.status.Via = c.protocol, c.pid(), c.via
	if c.init != nil {
		s.status.ServerName, s.status.ServerVersion = c.init.ServerInfo.Name, c.init.ServerInfo.Version
	}
	s.status.ConnectedAt, s.status.LastHealth = time.Now(), time.Now()
	s.status.LatencyMS = float64(latency.Microseconds()) / 1000
	s.status.LastError = ""
	setToolWarning(&s.status, tools, c)
	setConnWarning(&s.status, c)
	st := s.status
	s.mu.Unlock()
	m.publish(st)
	if changed && s.agent == "" {
		m.toolsChanged()
	}
	return c, nil
}

// setToolWarning says why a connected server offers no tools.
func setToolWarning(st *Status, tools []mcp.Tool, c *conn) {
	st.Tools, st.Warning = len(tools), ""
	if len(tools) > 0 {
		return
	}
	if c.init != nil && c.init.Capabilities.Tools == nil {
		st.Warning = "connected, but the server offers no tools (it does not declare the tools capability)"
		return
	}
	st.Warning = "connected, but the server listed 0 tools"
}

// setConnWarning adds what the connection noticed to the warning: a stdio
// server's non-JSON stdout, an HTTP server reached over the SSE fallback.
func setConnWarning(st *Status, c *conn) {
	for _, d := range []string{c.note, c.junk.describe()} {
		if d != "" {
			st.Warning = strings.TrimPrefix(st.Warning+"; "+d, "; ")
		}
	}
}

// watch health-checks a connection until it dies or ctx ends; it returns
// why the connection is no longer usable.
func (m *Manager) watch(ctx context.Context, s *supervised, c *conn) error {
	tick := time.NewTicker(m.opts.HealthEvery)
	defer tick.Stop()
	s.mu.Lock()
	refresh := s.refresh
	s.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.dead:
			return c.deadErr
		case <-refresh:
			if err := m.check(ctx, s, c); err != nil {
				return err
			}
		case <-s.kick:
			if err := m.check(ctx, s, c); err != nil {
				return err
			}
		case <-tick.C:
			if err := m.check(ctx, s, c); err != nil {
				return err
			}
		}
	}
}

// check makes a real request (tools/list: Ping is a no-op on the newest
// protocol) and takes the fresh tool list.
func (m *Manager) check(ctx context.Context, s *supervised, c *conn) error {
	hctx, cancel := context.WithTimeout(ctx, m.opts.HealthTimeout)
	defer cancel()
	start := time.Now()
	tools, err := c.listTools(hctx)
	if err != nil {
		if hctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("health check: no answer within %s%s", m.opts.HealthTimeout, c.junkNote())
		}
		return fmt.Errorf("health check: %w", err)
	}
	latency := time.Since(start)
	s.mu.Lock()
	changed := !sameTools(s.tools, tools)
	s.tools = tools
	s.status.LastHealth = time.Now()
	s.status.LatencyMS = float64(latency.Microseconds()) / 1000
	setToolWarning(&s.status, tools, c)
	setConnWarning(&s.status, c)
	st := s.status
	s.mu.Unlock()
	m.publish(st)
	if changed && s.agent == "" {
		m.toolsChanged()
	}
	return nil
}

func (m *Manager) dropConn(s *supervised) {
	s.mu.Lock()
	s.conn = nil
	s.mu.Unlock()
}

// sameTools compares tool lists by name, description and schema.
func sameTools(a, b []mcp.Tool) bool {
	return slices.EqualFunc(a, b, func(x, y mcp.Tool) bool {
		if x.Name != y.Name || x.Description != y.Description {
			return false
		}
		xs, _ := x.InputSchema.MarshalJSON()
		ys, _ := y.InputSchema.MarshalJSON()
		return string(xs) == string(ys)
	})
}

// TestResult is what a one-off connection test found.
type TestResult struct {
	Protocol string `json:"protocol"`
	// Via is the transport used when it is not the configured one.
	Via           Transport  `json:"via,omitempty"`
	ServerName    string     `json:"server_name"`
	ServerVersion string     `json:"server_version"`
	Tools         []mcp.Tool `json:"tools"`
	Resources     []string   `json:"resources,omitempty"`
	Prompts       []string   `json:"prompts,omitempty"`
	LatencyMS     float64    `json:"latency_ms"`
	Warning       string     `json:"warning,omitempty"`
	Stderr        []string   `json:"stderr,omitempty"`
}

// Test connects to a server configuration once (stored or not), lists its
// tools and disconnects. Env and headers are taken from srv, falling back
// to stored values for keys srv does not set.
func (m *Manager) Test(ctx context.Context, srv Server) (TestResult, error) {
	if err := srv.Validate(); err != nil {
		return TestResult{}, err
	}
	env, headers := map[string]string{}, map[string]string{}
	if storedEnv, storedHeaders, err := m.opts.Store.Secrets(ctx, srv.Name); err == nil {
		env, headers = storedEnv, storedHeaders
	}
	for k, v := range srv.Env {
		env[k] = v
	}
	for k, v := range srv.Headers {
		headers[k] = v
	}
	sink := newLogSink(nil)
	o := dialOptions{env: env, headers: headers, log: sink, logger: m.opts.Logger}
	if m.opts.Client != nil {
		// Declared as when connected, so the test lists the tools that
		// depend on them.
		o.features = &clientFeatures{h: m.opts.Client, server: srv.Name}
	}
	if srv.Sandboxed {
		if m.opts.SandboxCommand == nil {
			return TestResult{}, errors.New("the sandbox is not available to MCP servers here")
		}
		o.command = m.opts.SandboxCommand
	}
	// The whole test (start, initialize, lists) gets the connect timeout.
	ctx, cancel := context.WithTimeout(ctx, srv.connectTimeout())
	defer cancel()
	start := time.Now()
	c, err := dial(ctx, srv, o)
	if err != nil {
		return TestResult{Stderr: sink.Tail(20)}, err
	}
	defer c.close()
	tools, err := c.listTools(ctx)
	if err != nil {
		return TestResult{Stderr: sink.Tail(20)}, fmt.Errorf("tools/list: %w", err)
	}
	res := TestResult{Protocol: c.protocol, Via: c.via, Tools: tools, LatencyMS: float64(time.Since(start).Microseconds()) / 1000, Stderr: sink.Tail(20)}
	var note string
	res.Resources, res.Prompts, note = c.catalog(ctx)
	if note != "" {
		res.Warning = note
	}
	if c.init != nil {
		res.ServerName, res.ServerVersion = c.init.ServerInfo.Name, c.init.ServerInfo.Version
	}
	var st Status
	setToolWarning(&st, tools, c)
	setConnWarning(&st, c)
	if st.Warning != "" {
		res.Warning = strings.TrimPrefix(res.Warning+"; "+st.Warning, "; ")
	}
	return res, nil
}
