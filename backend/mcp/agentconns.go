package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// An agent whose grant overrides a server's configuration (another token,
// other arguments, a longer timeout) is served by a connection of its own:
// started on the agent's first call while the server runs, supervised like
// the server's shared connection (health checks, reconnects), and stopped
// with the server or when the overrides change. The tools the registry
// offers still come from the shared connection.

// setOverrides takes the grants' overrides in; agent connections whose
// overrides changed or went away are stopped (the next call starts anew).
func (m *Manager) setOverrides(next map[string]map[string]Overrides) {
	m.mu.Lock()
	m.overrides = next
	m.mu.Unlock()
	for server := range m.agentServers() {
		m.stopAgents(server, func(agent string, over Overrides) bool {
			want, ok := next[server][agent]
			return !ok || !want.same(over)
		})
	}
}

func (m *Manager) agentServers() map[string]bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]bool, len(m.agents))
	for server := range m.agents {
		out[server] = true
	}
	return out
}

// stopAgents stops a server's agent connections that match (all when
// match is nil) and waits until they are gone.
func (m *Manager) stopAgents(server string, match func(agent string, over Overrides) bool) {
	m.mu.Lock()
	var stopping []*supervised
	for agent, s := range m.agents[server] {
		if match == nil || match(agent, s.over) {
			stopping = append(stopping, s)
			delete(m.agents[server], agent)
		}
	}
	if len(m.agents[server]) == 0 {
		delete(m.agents, server)
	}
	m.mu.Unlock()
	for _, s := range stopping {
		s.cancel()
		<-s.done
	}
	if len(stopping) > 0 {
		if st, ok := m.status(server); ok {
			m.publish(st)
		}
	}
}

// errClosed marks a call made after Close.
var errClosed = errors.New("the MCP manager is closed")

// target is the connection that serves agent's calls to server: the
// agent's own when its grant has overrides, else the shared one. An agent
// connection is started here and waited for until its first attempt ends.
func (m *Manager) target(ctx context.Context, server, agent string) (*supervised, error) {
	m.mu.Lock()
	shared, ok := m.servers[server]
	if !ok {
		m.mu.Unlock()
		return nil, fmt.Errorf("MCP server %s is stopped: %w", server, ErrNotConnected)
	}
	over, has := m.overrides[server][agent]
	if agent == "" || !has {
		m.mu.Unlock()
		return shared, nil
	}
	s := m.agents[server][agent]
	if s == nil {
		if m.life.Err() != nil {
			m.mu.Unlock()
			return nil, errClosed
		}
		shared.mu.Lock()
		cfg, _, _ := over.apply(shared.cfg, nil, nil)
		shared.mu.Unlock()
		s = m.launch(cfg, agent, over)
		if m.agents[server] == nil {
			m.agents[server] = map[string]*supervised{}
		}
		m.agents[server][agent] = s
	}
	m.mu.Unlock()
	select {
	case <-s.ready:
		return s, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// agentConnections reports a server's agent connections, by agent name.
func (m *Manager) agentConnections(server string) []AgentConnection {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []AgentConnection
	for agent, s := range m.agents[server] {
		s.mu.Lock()
		out = append(out, AgentConnection{Agent: agent, State: s.status.State, LastError: s.status.LastError, PID: s.status.PID})
		s.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	return out
}
