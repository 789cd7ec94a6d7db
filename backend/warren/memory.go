package warren

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/memory"
	memtools "github.com/warren-dev/warren/tools/memory"
)

// TopicMemoryIndex carries memory.IndexStatus while vectors are built.
const TopicMemoryIndex events.Topic = "memory.index"

// settingMemoryDiskImported (stored, not a user setting) marks the one-time import of memory files the
// workspace held from before memory lived in the database.
const settingMemoryDiskImported = "memory.disk_imported"

// newMemory opens the memory store (before the file tools, whose memory
// interceptor writes into it).
func (w *Warren) newMemory() {
	w.memory = memory.New(w.db.SQL(), memory.Options{
		Log: w.log,
		OnProgress: func(st memory.IndexStatus) {
			w.bus.Publish(events.Event{Topic: TopicMemoryIndex, Payload: st})
		},
	})
}

// initMemory registers memory_search and memory_get, imports old memory
// files once, and starts the background indexer for Warren's lifetime.
func (w *Warren) initMemory(ctx context.Context) error {
	ts, err := memtools.Tools(memtools.Deps{Store: w.memory})
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := w.registry.Register(t); err != nil {
			return err
		}
	}
	if err := w.importDiskMemory(ctx); err != nil {
		w.log.Warn("memory: importing the workspace's memory files", "err", err)
	}
	w.memoryDone = make(chan struct{})
	go func() {
		defer close(w.memoryDone)
		_ = w.memory.Run(w.life)
	}()
	return nil
}

// Memory returns the memory store.
func (w *Warren) Memory() *memory.Store { return w.memory }

// memoryFiles lets the file tools' memory interceptor read and write the
// store: a read finds the user's copy first, then the agent's, then the
// global one; a write goes to the user's copy.
type memoryFiles struct{ s *memory.Store }

func (m memoryFiles) GetMemory(ctx context.Context, agent, user, rel string) (string, bool, error) {
	d, ok, err := m.s.Resolve(ctx, agent, user, rel)
	return d.Content, ok, err
}

func (m memoryFiles) PutMemory(ctx context.Context, agent, user, rel, content string) error {
	_, err := m.s.Put(ctx, memory.PutDoc{Agent: agent, User: user, Path: rel, Content: content})
	return err
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
