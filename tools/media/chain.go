package media

import (
	"context"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

// SettingKey names the setting that orders a kind's providers.
func SettingKey(k Kind) string { return "media." + string(k) + "_providers" }

// defaultModels are used when neither the chain entry nor the provider
// names a model (vision has none: a chat model must be named).
var defaultModels = map[Kind]string{
	KindImage:      "gpt-image-1",
	KindSpeech:     "tts-1",
	KindTranscribe: "whisper-1",
}

// what the user reads in errors for each kind.
var kindWords = map[Kind]string{
	KindImage:      "image generation (/v1/images/generations)",
	KindSpeech:     "speech (/v1/audio/speech)",
	KindTranscribe: "transcription (/v1/audio/transcriptions)",
	KindVision:     "vision (a chat model that accepts images)",
}

// ParseEntry splits a chain entry "NAME" or "NAME:MODEL" (provider names
// hold no colon; model names may, e.g. llava:13b).
func ParseEntry(s string) (name, model string) {
	name, model, _ = strings.Cut(strings.TrimSpace(s), ":")
	return strings.TrimSpace(name), strings.TrimSpace(model)
}

// attemptFunc runs one provider; an error moves on to the next one.
type attemptFunc func(ctx context.Context, p Provider, model string) error

// runChain tries the kind's providers in order until one succeeds and
// returns its name. ok=false comes with a result naming what to configure
// or why each provider failed.
func (e *env) runChain(ctx context.Context, kind Kind, try attemptFunc) (string, tools.Result, bool) {
	entries := e.Chain(kind)
	if len(entries) == 0 {
		return "", notConfigured(kind), false
	}
	var fails []string
	code := tools.CodeNotFound // until a provider that exists fails
	for _, entry := range entries {
		name, model := ParseEntry(entry)
		if name == "" {
			continue
		}
		p, err := e.Provider(ctx, name)
		if err != nil {
			fails = append(fails, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		e.Secret(p.APIKey)
		if model == "" {
			model = p.DefaultModel
		}
		if model == "" {
			model = defaultModels[kind]
		}
		if model == "" {
			fails = append(fails, fmt.Sprintf("%s: no model: give one as %s:MODEL in %s or set the provider's default model", name, name, SettingKey(kind)))
			continue
		}
		code = tools.CodeNetwork
		err = try(ctx, p, model)
		if err == nil {
			return name, tools.Result{}, true
		}
		if ctx.Err() != nil {
			return "", tools.Errorf(tools.CodeTimeout, "%s via %s: %v", kindWords[kind], name, ctx.Err()), false
		}
		fails = append(fails, fmt.Sprintf("%s: %s", name, scrubKey(err.Error(), p.APIKey)))
	}
	return "", tools.Errorf(code, "no provider in %s could do %s: %s",
		SettingKey(kind), kindWords[kind], strings.Join(fails, "; ")), false
}

// notConfigured says what to set for kind.
func notConfigured(kind Kind) tools.Result {
	want := "OpenAI-compatible providers"
	if kind == KindVision {
		want = "OpenAI-compatible or Anthropic providers with a vision model"
	}
	return tools.Errorf(tools.CodeNotFound,
		"no provider is configured for %s: set %s to %s in order of preference "+
			"(warren settings set %s NAME[:MODEL],NAME2…; NAME from warren providers list)",
		kindWords[kind], SettingKey(kind), want, SettingKey(kind))
}

// scrubKey hides a provider's key in text that may echo it back.
func scrubKey(s, key string) string {
	if len(key) < 4 {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}
