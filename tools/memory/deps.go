// Package memory holds memory_search and memory_get: the calling agent's
// memory documents (MEMORY.md, memory/**.md), its user's copies first, and
// the global ones, through backend/memory.
package memory

import (
	"errors"

	mem "github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/tools"
)

// Deps configures the memory tools.
type Deps struct {
	// Store is the memory store; required.
	Store *mem.Store
	// DefaultAgent and DefaultUser stand in when a call's context names
	// none (a call from the CLI without --agent).
	DefaultAgent, DefaultUser string
}

// Tools builds memory_search and memory_get.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Store == nil {
		return nil, errors.New("memory tools: no memory store")
	}
	if d.DefaultAgent == "" {
		d.DefaultAgent = "default"
	}
	if d.DefaultUser == "" {
		d.DefaultUser = "local"
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newMemorySearch, newMemoryGet} {
		t, err := b(d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
