package warren

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/custom"
	"github.com/warren-dev/warren/tools/runtime"
)

// customTools keeps the registry in step with the custom_tools table. Every
// process checks the table's version before using the registry, so a tool
// added from the CLI appears in a running window without a restart.
type customTools struct {
	store *custom.Store
	deps  custom.Deps

	mu       sync.Mutex
	version  string
	global   []string
	perAgent map[string][]tools.Tool
	problems []string
	agentReg map[string]*tools.Registry
	checked  time.Time
}

// reloadEvery bounds how often a process looks for changes made by another
// process; changes made through this Warren reload at once.
const reloadEvery = time.Second

func (w *Warren) initCustomTools(ctx context.Context, sh *runtime.Shell) error {
	store := custom.NewStore(w.db.SQL(), w.box)
	w.custom = &customTools{store: store, deps: custom.Deps{Shell: sh, Store: store, Secret: w.scrubber.AddValues}}
	return w.reloadCustomTools(ctx, true)
}

// SaveCustomTool stores a definition and reloads the registry at once. A
// tool bound to an agent that does not exist is refused: no one could call it.
func (w *Warren) SaveCustomTool(ctx context.Context, d custom.Definition) error {
	if d.Agent != "" {
		if _, err := w.db.GetAgent(ctx, d.Agent); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("custom tool %q: %w %q: choose an existing agent, or none for every agent", d.Name, ErrUnknownAgent, d.Agent)
		} else if err != nil {
			return err
		}
	}
	if err := w.custom.store.Save(ctx, d); err != nil {
		return err
	}
	return w.reloadCustomTools(ctx, true)
}

// DeleteCustomTool removes a definition and reloads the registry at once.
func (w *Warren) DeleteCustomTool(ctx context.Context, name, agent string) error {
	if err := w.custom.store.Delete(ctx, name, agent); err != nil {
		return err
	}
	return w.reloadCustomTools(ctx, true)
}

// CustomTools returns the custom tool store.
func (w *Warren) CustomTools() *custom.Store { return w.custom.store }

// CustomToolProblems lists stored definitions that could not be loaded.
func (w *Warren) CustomToolProblems() []string {
	w.custom.mu.Lock()
	defer w.custom.mu.Unlock()
	return append([]string(nil), w.custom.problems...)
}

// reloadCustomTools re-registers custom tools when the table changed.
func (w *Warren) reloadCustomTools(ctx context.Context, force bool) error {
	c := w.custom
	c.mu.Lock()
	recent := time.Since(c.checked) < reloadEvery
	c.mu.Unlock()
	if recent && !force {
		return nil
	}
	v, err := c.store.Version(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked = time.Now()
	if v == c.version {
		return nil
	}
	defs, err := c.store.List(ctx)
	if err != nil {
		return err
	}
	for _, name := range c.global {
		w.registry.Unregister(name)
	}
	c.global, c.perAgent, c.problems, c.agentReg = nil, map[string][]tools.Tool{}, nil, map[string]*tools.Registry{}
	for _, d := range defs {
		if !d.Enabled {
			continue
		}
		t, err := custom.New(d, c.deps)
		if err != nil {
			c.problems = append(c.problems, err.Error())
			continue
		}
		if d.Agent != "" {
			c.perAgent[d.Agent] = append(c.perAgent[d.Agent], t)
			continue
		}
		if err := w.registry.Register(t); err != nil {
			c.problems = append(c.problems, fmt.Sprintf("custom tool %q: %v (a built-in tool has that name)", d.Name, err))
			continue
		}
		c.global = append(c.global, d.Name)
	}
	c.version = v
	return nil
}

// registryFor returns the registry an agent uses: the base one plus the
// agent's own custom tools, reloaded when definitions changed.
func (w *Warren) registryFor(ctx context.Context, agent string) (*tools.Registry, error) {
	if err := w.reloadCustomTools(ctx, false); err != nil {
		return nil, err
	}
	c := w.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	own := c.perAgent[agent]
	if len(own) == 0 {
		return w.registry, nil
	}
	if r, ok := c.agentReg[agent]; ok {
		return r, nil
	}
	r := w.registry.Clone()
	for _, t := range own {
		if err := r.Register(t); err != nil {
			c.problems = append(c.problems, fmt.Sprintf("custom tool %q for agent %s: %v", t.Info().Name, agent, err))
		}
	}
	c.agentReg[agent] = r
	return r, nil
}
