package app

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// EventAgent is the Wails event name carrying agent run events.
const EventAgent = "agent:event"

// AgentEvent is an agent event tagged with the run it belongs to.
type AgentEvent struct {
	RunID string `json:"run_id"`
	// Seq numbers a run's events from 1: Wails' dev server may deliver
	// them out of order, so the UI re-orders by it.
	Seq uint64 `json:"seq"`
	agent.Event
}

// runs tracks in-flight chat runs so the UI can stop them.
type runs struct {
	mu   sync.Mutex
	m    map[string]context.CancelFunc
	next atomic.Uint64
}

// SendMessage starts an agent turn and returns its run id at once; the
// reply streams as "agent:event" events. An empty session starts a new one.
func (a *App) SendMessage(agentKey, session, prompt string) (string, error) {
	if prompt == "" {
		return "", fmt.Errorf("empty message")
	}
	id := fmt.Sprintf("run-%d", a.runs.next.Add(1))
	ctx, cancel := context.WithCancel(a.context())
	a.runs.mu.Lock()
	if a.runs.m == nil {
		a.runs.m = map[string]context.CancelFunc{}
	}
	a.runs.m[id] = cancel
	a.runs.mu.Unlock()
	go func() {
		defer func() {
			cancel()
			a.runs.mu.Lock()
			delete(a.runs.m, id)
			a.runs.mu.Unlock()
		}()
		var seq atomic.Uint64
		emit := func(ev agent.Event) {
			if a.emit != nil {
				a.emit(ctx, EventAgent, AgentEvent{RunID: id, Seq: seq.Add(1), Event: ev})
			}
		}
		_, err := a.core.RunAgent(ctx, warren.RunRequest{Agent: agentKey, Session: session, Prompt: prompt}, emit)
		if err != nil && ctx.Err() == nil {
			// Errors before the loop started (no provider, unknown agent)
			// never produced an event: report them once here.
			emit(agent.Event{Kind: agent.EventError, Error: err.Error()})
		}
	}()
	return id, nil
}

// StopRun cancels a running turn; false when it already ended.
func (a *App) StopRun(runID string) bool {
	a.runs.mu.Lock()
	cancel, ok := a.runs.m[runID]
	a.runs.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// Sessions lists an agent's sessions, newest first ("" = all agents).
func (a *App) Sessions(agentKey string) ([]sessions.Session, error) {
	list, err := a.core.Sessions().List(a.context(), agentKey, 100)
	if list == nil {
		list = []sessions.Session{}
	}
	return list, err
}

// SessionHistory returns a session's messages, oldest first.
func (a *App) SessionHistory(id string) ([]sessions.Message, error) {
	h, err := a.core.Sessions().History(a.context(), id, 0)
	if h == nil {
		h = []sessions.Message{}
	}
	return h, err
}

// DeleteSession removes a session and its messages.
func (a *App) DeleteSession(id string) error { return a.core.Sessions().Delete(a.context(), id) }

// Agents lists the configured agents.
func (a *App) Agents() ([]store.Agent, error) { return a.core.Store().ListAgents(a.context()) }

// SaveAgent creates or updates an agent.
func (a *App) SaveAgent(ag store.Agent) error { return a.core.Store().PutAgent(a.context(), ag) }

// DeleteAgent removes an agent (the default agent cannot be removed).
func (a *App) DeleteAgent(key string) error {
	if key == "default" {
		return fmt.Errorf("the default agent cannot be deleted")
	}
	return a.core.Store().DeleteAgent(a.context(), key)
}

// ModelProviders lists the LLM providers (without API keys).
func (a *App) ModelProviders() ([]store.Provider, error) {
	list, err := a.core.Providers().List(a.context())
	if list == nil {
		list = []store.Provider{}
	}
	return list, err
}

// SaveModelProvider stores a provider; an empty api_key keeps the stored
// one and "-" removes it.
func (a *App) SaveModelProvider(p store.Provider) error {
	return a.core.Providers().Save(a.context(), p)
}

// DeleteModelProvider removes a provider.
func (a *App) DeleteModelProvider(name string) error {
	return a.core.Providers().Delete(a.context(), name)
}

// TestModelProvider connects to a provider and lists the models it serves.
func (a *App) TestModelProvider(name string) ([]llm.Model, error) {
	return a.core.TestProvider(a.context(), name)
}
