package store

import (
	"context"
	"errors"
)

// ErrNotFound is returned when a requested row does not exist.
var ErrNotFound = errors.New("not found")

// AgentType says how an agent's context files are routed (seed §3).
type AgentType string

// Agent types.
const (
	AgentOpen       AgentType = "open"
	AgentPredefined AgentType = "predefined"
)

// Agent is a configured agent.
type Agent struct {
	Key  string    `json:"key"`
	Name string    `json:"name"`
	Type AgentType `json:"type"`
	// Provider and Model pick the LLM; empty means the default provider.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Profile overrides the global policy profile for this agent.
	Profile string   `json:"profile"`
	Allow   []string `json:"allow"`
	Deny    []string `json:"deny"`
	// Workspace is the agent's workspace; empty means the default one.
	Workspace string `json:"workspace"`
	// Sandbox runs the agent's commands in Podman; Network lets them out.
	Sandbox bool `json:"sandbox"`
	Network bool `json:"network"`
}

// Settings is a small key/value store for configuration.
type Settings interface {
	GetSetting(ctx context.Context, key string) (value string, ok bool, err error)
	SetSetting(ctx context.Context, key, value string) error
	DeleteSetting(ctx context.Context, key string) error
}

// Agents stores agent definitions.
type Agents interface {
	GetAgent(ctx context.Context, key string) (Agent, error)
	ListAgents(ctx context.Context) ([]Agent, error)
	PutAgent(ctx context.Context, a Agent) error
	DeleteAgent(ctx context.Context, key string) error
	// AgentType returns "open" or "predefined"; unknown agents are "open".
	AgentType(ctx context.Context, agent string) (string, error)
}

// ContextFiles stores agent-level and per-user context files.
type ContextFiles interface {
	GetAgentFile(ctx context.Context, agent, name string) (content string, ok bool, err error)
	PutAgentFile(ctx context.Context, agent, name, content string) error
	DeleteAgentFile(ctx context.Context, agent, name string) error
	GetUserFile(ctx context.Context, agent, user, name string) (content string, ok bool, err error)
	PutUserFile(ctx context.Context, agent, user, name, content string) error
	DeleteUserFile(ctx context.Context, agent, user, name string) error
}

// Store is everything Warren persists.
type Store interface {
	Settings
	Agents
	ContextFiles
	Close() error
}

var _ Store = (*DB)(nil)
