package warren

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/memory/embed/openai"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/docs"
	"github.com/warren-dev/warren/tools/knowledge"
	memtools "github.com/warren-dev/warren/tools/memory"
)

// TopicMemoryIndex carries memory.IndexStatus while vectors are built.
const TopicMemoryIndex events.Topic = "memory.index"

// settingMemoryDiskImported (stored, not a user setting) marks the one-time import of memory files the
// workspace held from before memory lived in the database.
const settingMemoryDiskImported = "memory.disk_imported"

// Memory settings.
const (
	SettingMemoryEmbedder   = "memory.embedder"
	SettingMemoryEmbedModel = "memory.embed_model"
	// SettingMemoryGraph extracts a knowledge graph from memory writes with
	// the writing agent's model.
	SettingMemoryGraph = "memory.kg_extract"
)

// checkMemoryEmbedder accepts builtin, off or provider:NAME.
func checkMemoryEmbedder(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "builtin" || v == "off":
		return v, nil
	case strings.HasPrefix(v, "provider:") && strings.TrimSpace(strings.TrimPrefix(v, "provider:")) != "":
		return "provider:" + strings.TrimSpace(strings.TrimPrefix(v, "provider:")), nil
	}
	return "", fmt.Errorf("%q: use builtin, off or provider:NAME (a provider from warren providers list)", v)
}

// newMemory opens the memory store (before the file tools, whose memory
// interceptor writes into it) with the embedder the settings name; one
// that cannot be made leaves keyword search, with the reason logged.
func (w *Warren) newMemory(ctx context.Context) {
	e, err := w.memoryEmbedder(ctx)
	if err != nil {
		w.log.Warn("memory: no embedder, keyword search only", "err", err)
	}
	w.memory = memory.New(w.db.SQL(), memory.Options{
		Embedder: e,
		Log:      w.log,
		OnProgress: func(st memory.IndexStatus) {
			w.bus.Publish(events.Event{Topic: TopicMemoryIndex, Payload: st})
		},
	})
}

// memoryEmbedder makes the embedder memory.embedder names (nil for off).
func (w *Warren) memoryEmbedder(ctx context.Context) (embed.Embedder, error) {
	v := w.settings.get(SettingMemoryEmbedder)
	switch {
	case v == "off":
		return nil, nil
	case strings.HasPrefix(v, "provider:"):
		name := strings.TrimPrefix(v, "provider:")
		p, err := w.Providers().Get(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("memory.embedder %s: %w", v, err)
		}
		if p.Kind == store.ProviderAnthropic {
			return nil, fmt.Errorf("memory.embedder %s: Anthropic has no embeddings endpoint; pick an OpenAI-compatible provider", v)
		}
		model := w.settings.get(SettingMemoryEmbedModel)
		if model == "" {
			return nil, fmt.Errorf("memory.embedder %s needs memory.embed_model (the embedding model the server knows)", v)
		}
		return openai.New(openai.Options{BaseURL: p.BaseURL, Model: model, APIKey: p.APIKey})
	}
	return builtin.Shared(), nil
}

// applyMemoryEmbedder switches the memory store to the embedder the
// settings now name; a new identity rebuilds the vectors in the background.
func (w *Warren) applyMemoryEmbedder(ctx context.Context) error {
	e, err := w.memoryEmbedder(ctx)
	if err != nil {
		return err
	}
	return w.memory.SetEmbedder(ctx, e)
}

// initMemory registers memory_search and memory_get, imports old memory
// files once, and starts the background indexer for Warren's lifetime.
func (w *Warren) initMemory(ctx context.Context) error {
	ts, err := memtools.Tools(memtools.Deps{Store: w.memory})
	if err != nil {
		return err
	}
	ks, err := knowledge.Tools(knowledge.Deps{Memory: w.memory, History: w.Sessions(), System: w.PrepareSystemKnowledge})
	if err != nil {
		return err
	}
	if err := w.registry.RegisterAll(append(ts, ks...)...); err != nil {
		return err
	}
	if err := w.importDiskMemory(ctx); err != nil {
		w.log.Warn("memory: importing the workspace's memory files", "err", err)
	}
	w.memoryDone = make(chan struct{})
	var bg sync.WaitGroup
	bg.Go(func() { _ = w.memory.Run(w.life) })
	bg.Go(func() { w.memory.RunFolders(w.life, folderRescan) })
	go func() {
		bg.Wait()
		close(w.memoryDone)
	}()
	return nil
}

// folderRescan is how often imported folders are scanned for changes.
const folderRescan = time.Minute

// systemDocs is Warren's documentation as system documents: docs/*.md,
// shipped in the binary, under warren-docs/.
func systemDocs() map[string]string {
	out := map[string]string{}
	entries, err := fs.ReadDir(docs.Files, ".")
	if err != nil {
		return out
	}
	for _, e := range entries {
		if b, err := fs.ReadFile(docs.Files, e.Name()); err == nil {
			out["warren-docs/"+e.Name()] = string(b)
		}
	}
	return out
}

// PrepareSystemKnowledge puts Warren's documentation in the memory store
// and embeds it, once per process: on the first search_system_knowledge,
// or at the window's start. Processes that never ask (most CLI commands,
// tests) skip the work.
func (w *Warren) PrepareSystemKnowledge(ctx context.Context) error {
	w.systemMu.Lock()
	defer w.systemMu.Unlock()
	if w.systemDone {
		return nil
	}
	err := w.memory.SyncSystem(ctx, systemDocs())
	if err == nil {
		err = w.memory.IndexNow(ctx)
	}
	if err != nil {
		// Not marked done: the next call tries again.
		w.log.Warn("memory: Warren's documentation for search_system_knowledge", "err", err)
		return err
	}
	w.systemDone = true
	return nil
}

// Memory returns the memory store.
func (w *Warren) Memory() *memory.Store { return w.memory }

// memoryFiles lets the file tools' memory interceptor read and write the
// store: a read finds the user's copy first, then the agent's, then the
// global one; a write goes to the user's copy (and, with memory.kg_extract,
// feeds the knowledge graph).
type memoryFiles struct {
	s *memory.Store
	w *Warren
}

func (m memoryFiles) GetMemory(ctx context.Context, agent, user, rel string) (string, bool, error) {
	d, ok, err := m.s.Resolve(ctx, agent, user, rel)
	return d.Content, ok, err
}

func (m memoryFiles) PutMemory(ctx context.Context, agent, user, rel, content string) error {
	d, err := m.s.Put(ctx, memory.PutDoc{Agent: agent, User: user, Path: rel, Content: content})
	if err == nil && m.w != nil && m.w.settings.bool(SettingMemoryGraph) {
		go m.w.extractGraph(agent, d)
	}
	return err
}

// extractGraph feeds a memory write to the knowledge graph with the
// agent's own model, in the background; a failure is logged and shown in
// the memory status, never the write's.
func (w *Warren) extractGraph(agentKey string, d memory.Doc) {
	ctx, cancel := context.WithTimeout(w.life, 5*time.Minute)
	defer cancel()
	a, err := w.db.GetAgent(ctx, agentKey)
	if err != nil {
		return
	}
	prov, model, _, err := w.provider(ctx, a, RunRequest{Agent: agentKey})
	if err != nil {
		w.log.Warn("memory: knowledge graph extraction has no model", "agent", agentKey, "err", err)
		return
	}
	res, err := w.memory.ExtractGraph(ctx, agentKey, d, memory.Model{Provider: prov, Name: model})
	if err != nil {
		w.log.Warn("memory: knowledge graph extraction", "agent", agentKey, "doc", d.Path, "err", err)
		return
	}
	w.log.Info("memory: knowledge graph", "agent", agentKey, "doc", d.Path, "entities", res.Entities, "relations", res.Relations)
}

// importDiskMemory copies MEMORY.md, memory.md and memory/**.md from the
// default workspace into the store as global documents, once: they were
// written before memory lived in the database, by whichever agent ran
// there, so every agent keeps reading them. The files stay on disk.
func (w *Warren) importDiskMemory(ctx context.Context) error {
	if _, done, err := w.db.GetSetting(ctx, settingMemoryDiskImported); err != nil || done {
		return err
	}
	root, err := os.OpenRoot(w.workspace)
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	var files []string
	for _, name := range []string{"MEMORY.md", "memory.md"} {
		if fi, err := root.Stat(name); err == nil && fi.Mode().IsRegular() {
			files = append(files, name)
		}
	}
	err = fs.WalkDir(root.FS(), "memory", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "memory" {
				return fs.SkipAll
			}
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(strings.ToLower(p), ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range files {
		b, err := root.ReadFile(f)
		if err != nil {
			return err
		}
		if _, err := w.memory.Put(ctx, memory.PutDoc{Path: filepath.ToSlash(f), Content: string(b)}); err != nil {
			return err
		}
	}
	if len(files) > 0 {
		w.log.Info("memory: imported the workspace's memory files as global documents", "files", len(files))
	}
	return w.db.SetSetting(ctx, settingMemoryDiskImported, "true")
}
