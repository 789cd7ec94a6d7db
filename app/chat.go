package app

import (
	"fmt"
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

// SendMessage starts an agent turn and returns its run id at once; the
// reply streams as "agent:event" events. An empty session starts a new one.
func (a *App) SendMessage(agentKey, session, prompt string) (string, error) {
	if prompt == "" {
		return "", fmt.Errorf("empty message")
	}
	var id string
	var seq atomic.Uint64
	ready := make(chan struct{})
	id = a.core.StartRun(a.context(), warren.RunRequest{Agent: agentKey, Session: session, Prompt: prompt}, func(ev agent.Event) {
		<-ready // the id is known before the first event is tagged with it
		if a.emit != nil {
			a.emit(a.context(), EventAgent, AgentEvent{RunID: id, Seq: seq.Add(1), Event: ev})
		}
	})
	close(ready)
	return id, nil
}

// StopRun cancels a running turn; false when it already ended.
func (a *App) StopRun(runID string) bool { return a.core.StopRun(runID) }

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

// SaveAgent validates and stores an agent; an invalid field is an error
// naming it. The core's typo warnings are dropped: returning them would
// change the binding's signature and so the frontend.
func (a *App) SaveAgent(ag store.Agent) error {
	_, err := a.core.SaveAgent(a.context(), ag)
	return err
}

// DeleteAgent removes an agent (the default agent cannot be removed).
func (a *App) DeleteAgent(key string) error { return a.core.DeleteAgent(a.context(), key) }

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

// Subagents lists the subagents a session started, oldest first.
func (a *App) Subagents(session string) []agent.Task { return a.core.SubagentTasks(session) }

// CancelSubagent stops a running subagent of session and waits until it
// has stopped; false when it was not running.
func (a *App) CancelSubagent(session, id string) (bool, error) {
	ids, err := a.core.CancelSubagent(session, id)
	return len(ids) > 0, err
}
