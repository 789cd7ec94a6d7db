package warren

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Setting is one user setting: `warren settings`, the window's settings.
type Setting struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Default     string `json:"default"`
	Description string `json:"description"`
}

// settingSpec describes a known setting: its default, what it means and how
// a value is checked (and normalised).
type settingSpec struct {
	def, desc string
	check     func(string) (string, error)
}

// SettingAllowHardLinks lets the file tools use files with several hard links.
const SettingAllowHardLinks = "fs.allow_hard_links"

var settingSpecs = map[string]settingSpec{
	SettingAllowHardLinks: {def: "false", check: parseBoolSetting,
		desc: "let the file tools read, search, change and delete regular files that have more than one hard link " +
			"(off: such a file can be a second name for a file outside the workspace)"},
	// Memory (memory.go).
	SettingMemoryEmbedder: {def: "builtin", check: checkMemoryEmbedder,
		desc: "what makes memory search's vectors: builtin (offline, shipped with Warren), off (keywords only), " +
			"or provider:NAME (an OpenAI-compatible provider's /embeddings, with memory.embed_model); a change rebuilds the vectors"},
	SettingMemoryEmbedModel: {def: "", check: func(v string) (string, error) { return strings.TrimSpace(v), nil },
		desc: "the embedding model for memory.embedder provider:NAME, e.g. nomic-embed-text"},
	// Automatic deferral behind tool_search (mcpdeferred.go).
	SettingMCPDeferAbove: {def: "40", check: parseDeferAbove,
		desc: "an agent offered more MCP tools than this gets them all behind tool_search (0: only servers marked deferred); " +
			"per-agent values follow, e.g. 40,coder=10,reader=0"},
	SettingMemoryGraph: {def: "false", check: parseBoolSetting,
		desc: "after an agent writes a memory file, its own model extracts people, projects, places and how they relate " +
			"into the knowledge graph (knowledge_graph_search); costs a model call per chunk"},
	// Browser tool (browser.go).
	SettingBrowserHeadless: {def: "true", check: parseBoolSetting,
		desc: "run the agents' browsers without a window (false: show the browser window on the desktop; applies to browsers started after the change)"},
	// First run (onboarding.go).
	SettingFirstRunDone: {def: "false", check: parseBoolSetting,
		desc: "the first-run setup was finished or skipped (false: the window opens it on start)"},
}

func parseBoolSetting(v string) (string, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return "", fmt.Errorf("%q is not true or false", v)
	}
	return strconv.FormatBool(b), nil
}

// settingsCache holds the current values, read by tools on every call.
type settingsCache struct {
	mu   sync.RWMutex
	vals map[string]string
}

func (c *settingsCache) get(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if v, ok := c.vals[key]; ok {
		return v
	}
	return settingSpecs[key].def
}

func (c *settingsCache) bool(key string) bool {
	b, _ := strconv.ParseBool(c.get(key))
	return b
}

func loadSettings(ctx context.Context, w *Warren) (*settingsCache, error) {
	c := &settingsCache{vals: map[string]string{}}
	for key, spec := range settingSpecs {
		raw, ok, err := w.db.GetSetting(ctx, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		v, err := spec.check(raw)
		if err != nil {
			return nil, fmt.Errorf("setting %s: %w", key, err)
		}
		c.vals[key] = v
	}
	return c, nil
}

// Settings lists every known setting with its value.
func (w *Warren) Settings() []Setting {
	keys := make([]string, 0, len(settingSpecs))
	for k := range settingSpecs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Setting, 0, len(keys))
	for _, k := range keys {
		s := settingSpecs[k]
		out = append(out, Setting{Key: k, Value: w.settings.get(k), Default: s.def, Description: s.desc})
	}
	return out
}

// SetSetting checks, stores and applies one setting; an empty value goes
// back to the default.
func (w *Warren) SetSetting(ctx context.Context, key, value string) error {
	spec, ok := settingSpecs[key]
	if !ok {
		known := make([]string, 0, len(settingSpecs))
		for k := range settingSpecs {
			known = append(known, k)
		}
		slices.Sort(known)
		return fmt.Errorf("unknown setting %q (known: %v)", key, known)
	}
	v := ""
	if value != "" {
		var err error
		if v, err = spec.check(value); err != nil {
			return fmt.Errorf("setting %s: %w", key, err)
		}
	}
	w.settings.mu.Lock()
	old, had := w.settings.vals[key]
	w.settings.mu.Unlock()
	if err := w.storeSetting(ctx, key, v); err != nil {
		return err
	}
	// A value that cannot be put to work (a provider that does not exist,
	// say) is refused: the previous one stays, stored and working.
	if err := w.applySetting(ctx, key); err != nil {
		if !had {
			old = ""
		}
		if rerr := w.storeSetting(ctx, key, old); rerr != nil {
			return errors.Join(fmt.Errorf("setting %s: %w", key, err), rerr)
		}
		return fmt.Errorf("setting %s: %w (kept %s)", key, err, firstNonEmpty(old, "the default"))
	}
	return nil
}

// storeSetting saves v ("" deletes, back to the default) and caches it.
func (w *Warren) storeSetting(ctx context.Context, key, v string) error {
	if v == "" {
		if err := w.db.DeleteSetting(ctx, key); err != nil {
			return err
		}
		w.settings.mu.Lock()
		delete(w.settings.vals, key)
		w.settings.mu.Unlock()
		return nil
	}
	if err := w.db.SetSetting(ctx, key, v); err != nil {
		return err
	}
	w.settings.mu.Lock()
	w.settings.vals[key] = v
	w.settings.mu.Unlock()
	return nil
}

// applySetting puts a changed setting to work where reading it on every
// use is not enough.
func (w *Warren) applySetting(ctx context.Context, key string) error {
	switch key {
	case SettingMemoryEmbedder, SettingMemoryEmbedModel:
		return w.applyMemoryEmbedder(ctx)
	}
	return nil
}
