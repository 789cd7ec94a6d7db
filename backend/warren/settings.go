package warren

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/warren-dev/warren/tools/media"
)

// Setting is one user setting: `warren settings`, the window's settings.
type Setting struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Default     string `json:"default"`
	Description string `json:"description"`
	// Secret settings (API keys) are stored sealed; Value is "(set)" or "".
	Secret bool `json:"secret,omitempty"`
	// Bool settings are "true" or "false" (the window shows a switch).
	Bool bool `json:"bool,omitempty"`
}

// settingSpec describes a known setting: its default, what it means and how
// a value is checked (and normalised).
type settingSpec struct {
	def, desc string
	check     func(string) (string, error)
	// secret values (API keys) are stored sealed and never listed.
	secret bool
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
	// The network guard and the web tools (web.go).
	SettingWebAllowedHosts: {def: "", check: checkAllowedHosts,
		desc: "hosts on this machine or the LAN the web tools may reach although the network guard refuses local addresses: " +
			"host or host:port entries, comma-separated, e.g. 127.0.0.1:8080,wiki.lan (a redirect elsewhere is still refused)"},
	SettingWebSearchProviders: {def: "duckduckgo", check: checkSearchProviders,
		desc: "web_search's providers in the order they are tried: duckduckgo (no key), brave (web.brave_api_key), " +
			"searxng (web.searxng_url), e.g. searxng,duckduckgo"},
	SettingWebSearXNGURL: {def: "", check: checkSearXNGURL,
		desc: "the SearXNG instance web_search uses, e.g. http://searx.lan:8888 (with JSON output enabled; a local one must be in web.allowed_hosts)"},
	SettingWebBraveKey: {def: "", check: checkSecretValue, secret: true,
		desc: "the Brave Search API key for web_search's brave provider (stored encrypted, never shown)"},
	// Media provider chains (media.go).
	media.SettingKey(media.KindImage):      mediaChainSpec("create_image (/v1/images/generations; default model gpt-image-1)"),
	media.SettingKey(media.KindSpeech):     mediaChainSpec("tts and create_audio (/v1/audio/speech; default model tts-1; empty: espeak-ng on this machine)"),
	media.SettingKey(media.KindTranscribe): mediaChainSpec("read_audio and read_video's audio (/v1/audio/transcriptions; default model whisper-1)"),
	media.SettingKey(media.KindVision):     mediaChainSpec("read_image and read_video's frames (a vision chat model, OpenAI-compatible or Anthropic; the provider's default model unless NAME:MODEL)"),
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
		if spec.secret {
			c.vals[key] = raw // sealed; opened when used (secretSetting)
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
		out = append(out, w.setting(k))
	}
	return out
}

// setting is one known setting as listed: a secret's value shows as
// "(set)" or "".
func (w *Warren) setting(key string) Setting {
	s := settingSpecs[key]
	v := w.settings.get(key)
	if s.secret && v != "" {
		v = "(set)"
	}
	return Setting{Key: key, Value: v, Default: s.def, Description: s.desc, Secret: s.secret,
		Bool: s.def == "true" || s.def == "false"}
}

// settingSections are the groups of settings the window edits together, in
// the order it shows them.
var settingSections = map[string][]string{
	"media": {media.SettingKey(media.KindImage), media.SettingKey(media.KindSpeech),
		media.SettingKey(media.KindTranscribe), media.SettingKey(media.KindVision)},
	"web": {SettingWebAllowedHosts, SettingWebSearchProviders, SettingWebSearXNGURL, SettingWebBraveKey, SettingBrowserHeadless},
}

// SectionSettings lists one section's settings (media, web).
func (w *Warren) SectionSettings(section string) ([]Setting, error) {
	keys, ok := settingSections[section]
	if !ok {
		return nil, fmt.Errorf("no settings section %q", section)
	}
	out := make([]Setting, 0, len(keys))
	for _, k := range keys {
		out = append(out, w.setting(k))
	}
	return out, nil
}

// SetSectionSetting sets a setting of one section: the window's section
// may change only its own settings.
func (w *Warren) SetSectionSetting(ctx context.Context, section, key, value string) error {
	if !slices.Contains(settingSections[section], key) {
		return fmt.Errorf("%q is not a setting of the %s section", key, section)
	}
	return w.SetSetting(ctx, key, value)
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
		if spec.secret && v != "" {
			if v, err = w.box.Seal(v); err != nil {
				return fmt.Errorf("setting %s: %w", key, err)
			}
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
	case SettingWebAllowedHosts:
		return w.applyAllowedHosts()
	}
	return nil
}

// secretSetting opens a secret setting's sealed value ("" when unset).
func (w *Warren) secretSetting(key string) (string, error) {
	sealed := w.settings.get(key)
	if sealed == "" {
		return "", nil
	}
	v, err := w.box.Open(sealed)
	if err != nil {
		return "", fmt.Errorf("setting %s: %w (set it again)", key, err)
	}
	return v, nil
}
