package mcp

import (
	"context"
	"time"

	"github.com/warren-dev/warren/backend/events"
)

// TopicStatus is published with a Status whenever a server's state changes.
const TopicStatus events.Topic = "mcp.status"

// State is where a server is in its life.
type State string

// Server states.
const (
	StateStopped      State = "stopped"
	StateConnecting   State = "connecting"
	StateConnected    State = "connected"
	StateReconnecting State = "reconnecting"
	// StateFailed: every reconnect attempt failed; it stays so until retried by hand.
	StateFailed State = "failed"
)

// Status is what Warren knows about one server, honestly.
type Status struct {
	Name      string    `json:"name"`
	Transport Transport `json:"transport"`
	Enabled   bool      `json:"enabled"`
	State     State     `json:"state"`
	// Protocol is the negotiated MCP protocol version.
	Protocol string `json:"protocol,omitempty"`
	// Via is the transport in use when it is not the configured one (a
	// streamable HTTP server reached over the legacy SSE fallback).
	Via           Transport `json:"via,omitempty"`
	ServerName    string    `json:"server_name,omitempty"`
	ServerVersion string    `json:"server_version,omitempty"`
	Tools         int       `json:"tools"`
	// Resources and Prompts are what the server listed at connect time.
	Resources int `json:"resources"`
	Prompts   int `json:"prompts"`
	// Warning explains a state that works but needs attention (0 tools).
	Warning     string    `json:"warning,omitempty"`
	LastError   string    `json:"last_error,omitempty"`
	LastHealth  time.Time `json:"last_health,omitzero"`
	LatencyMS   float64   `json:"latency_ms,omitempty"`
	Restarts    int       `json:"restarts"`
	Attempt     int       `json:"attempt,omitempty"`
	MaxAttempts int       `json:"max_attempts,omitempty"`
	NextRetry   time.Time `json:"next_retry,omitzero"`
	ConnectedAt time.Time `json:"connected_at,omitzero"`
	// StartedAt is when Warren last started (or restarted) the server.
	StartedAt time.Time `json:"started_at,omitzero"`
	PID       int       `json:"pid,omitempty"`
	// AgentConnections are the connections of agents whose grant overrides
	// the server's configuration.
	AgentConnections []AgentConnection `json:"agent_connections,omitempty"`

	agent string // set on an agent connection's own status
}

// AgentConnection is the state of one agent's own connection to a server.
type AgentConnection struct {
	Agent     string `json:"agent"`
	State     State  `json:"state"`
	LastError string `json:"last_error,omitempty"`
	PID       int    `json:"pid,omitempty"`
}

// Statuses returns every stored server's status, sorted by name; stored
// servers that are not running are reported as stopped.
func (m *Manager) Statuses(ctx context.Context) ([]Status, error) {
	list, err := m.opts.Store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Status, 0, len(list))
	for _, srv := range list {
		st, ok := m.status(srv.Name)
		if !ok {
			st = Status{Name: srv.Name, Transport: srv.Transport, State: StateStopped}
		}
		st.Enabled = srv.Enabled
		st.AgentConnections = m.agentConnections(srv.Name)
		out = append(out, st)
	}
	return out, nil
}

func (m *Manager) status(name string) (Status, bool) {
	m.mu.Lock()
	s, ok := m.servers[name]
	m.mu.Unlock()
	if !ok {
		return Status{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status, true
}

// publish sends a server's status; an agent connection's change is sent
// as its server's status, which lists the agent connections.
func (m *Manager) publish(st Status) {
	if m.opts.Bus == nil {
		return
	}
	if st.agent != "" {
		main, ok := m.status(st.Name)
		if !ok {
			return
		}
		st = main
	}
	st.AgentConnections = m.agentConnections(st.Name)
	m.opts.Bus.Publish(events.Event{Topic: TopicStatus, Payload: st})
}

// update changes a server's status under its lock and publishes it.
func (m *Manager) update(s *supervised, fn func(*Status)) {
	s.mu.Lock()
	fn(&s.status)
	st := s.status
	s.mu.Unlock()
	m.publish(st)
}
