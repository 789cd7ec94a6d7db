// Package media holds Warren's media tools: create_image, create_audio,
// create_video and tts (group media_gen), read_image, read_audio,
// read_document and read_video (group media_read), and openai_compat_call.
// Documents are read locally (backend/doctext); speech falls back to the
// system's espeak-ng and video is taken apart with ffmpeg; everything else
// goes to the providers the user configured, in the order the media.*
// settings give, the first that answers winning. Files are reached through
// the fs tools' path checks (fs.Files) and outputs land in the workspace's
// media/ folder.
package media

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"time"

	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/fs"
)

// Kind is a media capability a provider chain is configured for.
type Kind string

// The provider chains, each named by a setting (media.<kind>_providers).
const (
	KindImage      Kind = "image"
	KindSpeech     Kind = "speech"
	KindTranscribe Kind = "transcribe"
	KindVision     Kind = "vision"
)

// Provider kinds as the provider store names them.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
)

// Provider is a configured endpoint as the media tools need it.
type Provider struct {
	Name, Kind, BaseURL, APIKey, DefaultModel string
}

// ErrNoProvider is returned by Deps.Provider for an unknown name.
var ErrNoProvider = errors.New("no such provider")

// Deps is what the media tools need from the rest of Warren.
type Deps struct {
	// Files reaches workspace files with the fs tools' checks.
	Files *fs.Files
	// Provider looks a configured provider up by name, key included.
	Provider func(ctx context.Context, name string) (Provider, error)
	// Chain returns the ordered entries ("NAME" or "NAME:MODEL") of the
	// media.<kind>_providers setting, read at each call.
	Chain func(kind Kind) []string
	// Secret registers values the registry must scrub from every result.
	Secret func(values ...string)
	// HTTP is the client for provider calls; nil means one with Timeout.
	HTTP *http.Client
	// LookPath finds espeak-ng and ffmpeg; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// Now names output files; nil means time.Now.
	Now func() time.Time
	// Summarize is the calling agent's own model, for read_document's
	// summaries; nil: summaries are not available.
	Summarize Summarizer
}

// Timeout bounds one provider request (image generation is slow).
const Timeout = 5 * time.Minute

// env is the state the tools share.
type env struct {
	Deps
}

// Tools builds every media tool.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Files == nil {
		return nil, errors.New("media tools: Files is nil")
	}
	if d.Provider == nil || d.Chain == nil {
		return nil, errors.New("media tools: Provider and Chain are required")
	}
	if d.Secret == nil {
		d.Secret = func(...string) {}
	}
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: Timeout}
	}
	if d.LookPath == nil {
		d.LookPath = exec.LookPath
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	e := &env{Deps: d}
	builders := []func(*env) (tools.Tool, error){
		newReadDocument, newReadImage, newReadAudio, newReadVideo,
		newCreateImage, newTTS, newCreateAudio, newCreateVideo, newOpenAICompatCall,
	}
	out := make([]tools.Tool, 0, len(builders))
	for _, b := range builders {
		t, err := b(e)
		if err != nil {
			return nil, fmt.Errorf("media tools: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}
