package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"
)

// MemoryStore keeps an agent's memory documents (MEMORY.md, memory/*) in the
// database. A later issue implements it (per-user first, then global, with
// indexing on write).
type MemoryStore interface {
	GetMemory(ctx context.Context, agent, user, rel string) (content string, ok bool, err error)
	PutMemory(ctx context.Context, agent, user, rel, content string) error
}

// IsMemoryPath reports whether rel is routed to memory: MEMORY.md, memory.md
// or anything under memory/.
func IsMemoryPath(rel string) bool {
	return rel == "MEMORY.md" || rel == "memory.md" || strings.HasPrefix(rel, "memory/")
}

// MemoryInterceptor routes memory paths to a MemoryStore. With a nil store it
// handles nothing, so memory files stay on disk until the store exists.
type MemoryInterceptor struct {
	store MemoryStore
}

// NewMemoryInterceptor returns an interceptor backed by store (may be nil).
func NewMemoryInterceptor(store MemoryStore) *MemoryInterceptor {
	return &MemoryInterceptor{store: store}
}

// Read serves a memory document from the store.
func (m *MemoryInterceptor) Read(ctx context.Context, rel string) (string, bool, error) {
	if m.store == nil || !IsMemoryPath(rel) {
		return "", false, nil
	}
	agent, user := callIdentity(ctx)
	content, ok, err := m.store.GetMemory(ctx, agent, user, rel)
	if err != nil {
		return "", true, fmt.Errorf("read memory %s: %w", rel, err)
	}
	if !ok {
		return "", true, notExist(rel)
	}
	return content, true, nil
}

// Write stores a memory document; appending extends the stored content.
func (m *MemoryInterceptor) Write(ctx context.Context, rel, content string, appendMode bool) (bool, error) {
	if m.store == nil || !IsMemoryPath(rel) {
		return false, nil
	}
	if appendMode {
		current, _, err := m.Read(ctx, rel)
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return true, err
		}
		content = current + content
	}
	agent, user := callIdentity(ctx)
	if err := m.store.PutMemory(ctx, agent, user, rel, content); err != nil {
		return true, fmt.Errorf("write memory %s: %w", rel, err)
	}
	return true, nil
}
