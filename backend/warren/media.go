package warren

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/media"
)

// mediaChainSpec describes one media.<kind>_providers setting.
func mediaChainSpec(what string) settingSpec {
	return settingSpec{def: "", check: checkMediaChain,
		desc: "providers for " + what + ", tried in order until one answers: NAME or NAME:MODEL, comma-separated, NAME from warren providers list"}
}

// checkMediaChain normalises "a, b:model" and checks each entry's shape
// (whether the providers exist is checked at each call: they may be added later).
func checkMediaChain(v string) (string, error) {
	var out []string
	for entry := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		name, model := media.ParseEntry(entry)
		if !providerNameOK(name) {
			return "", fmt.Errorf("%q: a provider name is 1-64 lower-case letters, digits, _ or -", name)
		}
		if model != "" {
			name += ":" + model
		}
		out = append(out, name)
	}
	return strings.Join(out, ","), nil
}

func providerNameOK(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// mediaDeps wires the media tools to the provider store and the settings.
func (w *Warren) mediaDeps() *media.Deps {
	return &media.Deps{
		Provider: w.mediaProvider,
		Chain: func(k media.Kind) []string {
			v := w.settings.get(media.SettingKey(k))
			if v == "" {
				return nil
			}
			return strings.Split(v, ",")
		},
		Secret:    w.scrubber.AddValues,
		Summarize: w.agentCompletion,
	}
}

// agentCompletion is one completion by the calling agent's own model
// (read_document's summaries): the agent's provider and default model.
func (w *Warren) agentCompletion(ctx context.Context, system, user string) (string, error) {
	key := tools.AgentFrom(ctx)
	if key == "" {
		key = "default"
	}
	a, err := w.db.GetAgent(ctx, key)
	if err != nil {
		return "", fmt.Errorf("agent %s: %w", key, err)
	}
	prov, model, _, err := w.provider(ctx, a, RunRequest{Agent: key})
	if err != nil {
		return "", err
	}
	return completer{prov, model}.Complete(ctx, system, user)
}

// mediaProvider reads a provider, key included, for the media tools.
func (w *Warren) mediaProvider(ctx context.Context, name string) (media.Provider, error) {
	p, err := w.Providers().Get(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return media.Provider{}, fmt.Errorf("%w %q (see warren providers list)", media.ErrNoProvider, name)
	}
	if err != nil {
		return media.Provider{}, err
	}
	return media.Provider{Name: p.Name, Kind: p.Kind, BaseURL: p.BaseURL, APIKey: p.APIKey, DefaultModel: p.DefaultModel}, nil
}
