package app

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
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

// ChatRequest is one message sent from the chat.
type ChatRequest struct {
	Agent string `json:"agent"`
	// Session is "" for a new chat.
	Session string `json:"session"`
	Prompt  string `json:"prompt"`
	// Model is the one picked in the chat's header ("" = the session's
	// chosen model, else the agent's).
	Model string `json:"model"`
	// ReplaceFrom is the id of the user message this one replaces (edit
	// and resend, regenerate, retry); 0 for a new message.
	ReplaceFrom int64 `json:"replace_from"`
}

// SendMessage starts an agent turn and returns its run id at once; the
// reply streams as "agent:event" events. An empty session starts a new one.
func (a *App) SendMessage(agentKey, session, prompt string) (string, error) {
	return a.SendChatMessage(ChatRequest{Agent: agentKey, Session: session, Prompt: prompt})
}

// SendChatMessage is SendMessage with the chat's options: the model picked
// and the message it replaces. The replaced messages are removed only once
// the new turn has started and stored its prompt.
func (a *App) SendChatMessage(req ChatRequest) (string, error) {
	if strings.TrimSpace(req.Prompt) == "" {
		return "", fmt.Errorf("empty message")
	}
	if req.ReplaceFrom != 0 && req.Session == "" {
		return "", fmt.Errorf("a message to replace needs its session")
	}
	var id string
	var seq atomic.Uint64
	ready := make(chan struct{})
	run := warren.RunRequest{Agent: req.Agent, Session: req.Session, Prompt: req.Prompt, Model: req.Model, ReplaceFrom: req.ReplaceFrom}
	id = a.core.StartRun(a.context(), run, func(ev agent.Event) {
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

// SearchSessions finds an agent's sessions ("" = all agents) whose title or
// conversation contains query, newest first.
func (a *App) SearchSessions(agentKey, query string) ([]sessions.SearchHit, error) {
	return a.core.SearchSessions(a.context(), agentKey, query)
}

// AgentModels lists the models the chat's model picker offers for an agent:
// its provider's, with the default; a provider that cannot be reached is
// reported in Problem, not as an error.
func (a *App) AgentModels(agentKey string) (warren.ModelChoices, error) {
	return a.core.AgentModels(a.context(), agentKey)
}

// AttachFile copies a file dropped into the chat (its bytes in base64) into
// the agent's workspace under attachments/ and returns where it went.
func (a *App) AttachFile(agentKey, name, dataBase64 string) (warren.Attachment, error) {
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > warren.MaxAttachmentSize+3 {
		return warren.Attachment{}, fmt.Errorf("%w: %s is over %d MB", warren.ErrAttachmentTooLarge, name, warren.MaxAttachmentSize>>20)
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return warren.Attachment{}, fmt.Errorf("attach %s: the file's data is garbled: %w", name, err)
	}
	return a.core.Attach(a.context(), agentKey, name, data)
}

// OpenURL opens a link from the chat in the system browser. Only web and
// mail links open: model output is untrusted, and file: or custom schemes
// could start programs.
func (a *App) OpenURL(link string) error {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || !openable(u) {
		return fmt.Errorf("only http, https and mailto links open in the browser, not %q", link)
	}
	if a.openURL == nil {
		return fmt.Errorf("opening links is not available here")
	}
	a.openURL(a.context(), u.String())
	return nil
}

// openable reports a web link with a host, or a mail link with an address.
func openable(u *url.URL) bool {
	switch u.Scheme {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return u.Opaque != "" || u.Path != ""
	}
	return false
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
