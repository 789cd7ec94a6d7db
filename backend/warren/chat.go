package warren

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
)

// modelListTimeout bounds listing a provider's models for the chat's model
// picker: a local server that hangs must not hang the chat header.
const modelListTimeout = 10 * time.Second

// ModelChoices are the models a chat with an agent can pick from.
type ModelChoices struct {
	// Provider is the agent's provider ("" when it has none).
	Provider string `json:"provider"`
	// Default is the model a new chat uses: the agent's, else its
	// provider's default ("" when neither is set).
	Default string `json:"default"`
	// Models are the ones the provider serves, sorted.
	Models []string `json:"models"`
	// Problem says why Models is empty or incomplete: the listing failed
	// or the agent has no provider ("" when the list is whole).
	Problem string `json:"problem,omitempty"`
}

// AgentModels lists the models of an agent's provider for the chat's model
// picker. Only an unknown agent is an error: a provider that cannot be
// reached still gives the default, with the reason in Problem.
func (w *Warren) AgentModels(ctx context.Context, agentKey string) (ModelChoices, error) {
	a, err := w.db.GetAgent(ctx, cmp.Or(agentKey, "default"))
	if errors.Is(err, store.ErrNotFound) {
		return ModelChoices{}, fmt.Errorf("%w %q", ErrUnknownAgent, agentKey)
	}
	if err != nil {
		return ModelChoices{}, err
	}
	out := ModelChoices{Provider: a.Provider, Default: a.Model, Models: []string{}}
	if a.Provider == "" {
		out.Problem = fmt.Sprintf("agent %s has no model provider", a.Key)
		return out, nil
	}
	p, err := w.Providers().Get(ctx, a.Provider)
	if err != nil {
		out.Problem = err.Error()
		return out, nil
	}
	out.Default = cmp.Or(a.Model, p.DefaultModel)
	lctx, cancel := context.WithTimeout(ctx, modelListTimeout)
	defer cancel()
	models, err := w.TestProvider(lctx, a.Provider)
	if err != nil {
		out.Problem = err.Error()
		return out, nil
	}
	for _, m := range models {
		if m.ID != "" && !slices.Contains(out.Models, m.ID) {
			out.Models = append(out.Models, m.ID)
		}
	}
	slices.Sort(out.Models)
	return out, nil
}

// chosenModel applies the model chosen for a chat: a turn without a model
// of its own continues with the session's, and a turn with one (the chat's
// model picker, `warren run --model`) records it on the session. It returns
// what the loop should record ("" = nothing). Subagents and runs against an
// override endpoint keep what they were given.
func (w *Warren) chosenModel(ctx context.Context, req *RunRequest) string {
	if req.provider != nil || req.BaseURL != "" {
		return ""
	}
	if req.Model != "" {
		return req.Model
	}
	if req.Session != "" {
		if s, err := w.Sessions().Get(ctx, req.Session); err == nil {
			req.Model = s.Model
		}
	}
	return ""
}

// SearchSessions finds an agent's sessions ("" = every agent's) by title and
// conversation text, newest first.
func (w *Warren) SearchSessions(ctx context.Context, agentKey, query string) ([]sessions.SearchHit, error) {
	return w.Sessions().Search(ctx, agentKey, query, 50)
}
