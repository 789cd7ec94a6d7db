package app

import (
	"context"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/warren"
)

// The Memory tab's calls (issue 13 §6): thin wrappers over the memory store.
// The person at the window is the user "local"; an empty agent means the
// global documents every agent reads.

// localUser is the desktop's one user.
const localUser = "local"

// MemoryDocs lists documents without their content, newest first: one
// agent's (with the global ones), or only the global ones.
func (a *App) MemoryDocs(agent string, globalOnly bool) ([]memory.Doc, error) {
	return a.core.Memory().List(a.context(), memory.ListFilter{Agent: strings.TrimSpace(agent), Global: globalOnly})
}

// MemoryDoc returns one document with its content, exactly where it is
// stored (agent "" global; user "" the agent's shared copy).
func (a *App) MemoryDoc(agent, user, path string) (memory.Doc, error) {
	d, ok, err := a.core.Memory().Get(a.context(), agent, user, path)
	if err == nil && !ok {
		err = memory.ErrNotFound
	}
	return d, err
}

// SaveMemoryDoc stores a document (the previous version is kept).
func (a *App) SaveMemoryDoc(agent, user, path, content string) (memory.Doc, error) {
	return a.core.Memory().Put(a.context(), memory.PutDoc{Agent: agent, User: user, Path: path, Content: content})
}

// DeleteMemoryDoc removes a document with its versions and index entries.
func (a *App) DeleteMemoryDoc(agent, user, path string) error {
	return a.core.Memory().Delete(a.context(), agent, user, path)
}

// MemoryVersions lists a document's earlier versions, newest first.
func (a *App) MemoryVersions(agent, user, path string) ([]memory.Version, error) {
	vs, err := a.core.Memory().Versions(a.context(), agent, user, path)
	if vs == nil {
		vs = []memory.Version{}
	}
	return vs, err
}

// SearchMemory searches as the agent would for the local user, with each
// hit's rank in both channels.
func (a *App) SearchMemory(query, agent string, maxResults int, scope string) (memory.Result, error) {
	if strings.TrimSpace(agent) == "" {
		agent = "default"
	}
	return a.core.Memory().Search(a.context(), memory.Query{Text: query, Agent: agent, User: localUser,
		MaxResults: maxResults, Scope: memory.Scope(scope)})
}

// MemoryStatus reports documents, chunks and the vector index.
func (a *App) MemoryStatus() (memory.IndexStatus, error) {
	return a.core.Memory().Status(a.context())
}

// ReindexMemory chunks every document again and rebuilds the vectors in
// the background; progress arrives as "memory:index" events.
func (a *App) ReindexMemory() error {
	ctx := a.context()
	if err := a.core.Memory().Reindex(ctx); err != nil {
		return err
	}
	a.indexInBackground(ctx)
	return nil
}

// indexInBackground makes the vectors still missing, past the call that
// asked (progress arrives as "memory:index" events).
func (a *App) indexInBackground(ctx context.Context) {
	go func() {
		ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Hour)
		defer cancel()
		_ = a.core.Memory().IndexNow(ictx)
	}()
}

// MemoryEmbedderSetting is what makes the vectors: builtin, off or
// provider:NAME with its model.
type MemoryEmbedderSetting struct {
	Embedder string `json:"embedder"`
	Model    string `json:"model"`
}

// MemoryEmbedder returns the embedder settings.
func (a *App) MemoryEmbedder() MemoryEmbedderSetting {
	out := MemoryEmbedderSetting{}
	for _, s := range a.core.Settings() {
		switch s.Key {
		case warren.SettingMemoryEmbedder:
			out.Embedder = s.Value
		case warren.SettingMemoryEmbedModel:
			out.Model = s.Value
		}
	}
	return out
}

// SetMemoryEmbedder switches embedders (the model first, so a provider
// finds it); a value that cannot work is refused and the old one kept.
func (a *App) SetMemoryEmbedder(s MemoryEmbedderSetting) error {
	ctx := a.context()
	if err := a.core.SetSetting(ctx, warren.SettingMemoryEmbedModel, s.Model); err != nil {
		return err
	}
	return a.core.SetSetting(ctx, warren.SettingMemoryEmbedder, s.Embedder)
}
