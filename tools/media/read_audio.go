package media

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed read_audio.md
var readAudioDoc string

// maxAudioBytes is the transcription endpoints' usual upload limit.
const maxAudioBytes = 25 << 20

// ReadAudioParams are read_audio's parameters.
type ReadAudioParams struct {
	Path     string `json:"path" description:"Workspace path of an audio file (wav, mp3, m4a, ogg, flac, webm)"`
	Language string `json:"language,omitempty" description:"ISO-639-1 language of the speech, e.g. en (default: detected)"`
}

func newReadAudio(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "read_audio", Group: "media_read", LongDescription: readAudioDoc,
		Description: "Transcribe a workspace audio file to text.",
	}, e.readAudio)
}

func (e *env) readAudio(ctx context.Context, p ReadAudioParams) (tools.Result, error) {
	if l := p.Language; l != "" && !validLanguage(l) {
		return tools.Errorf(tools.CodeValidation, "language %q: give a two-letter ISO-639-1 code such as en", l), nil
	}
	data, display, fail, ok := e.readFile(ctx, p.Path, maxAudioBytes)
	if !ok {
		return fail, nil
	}
	text, used, fail, ok := e.transcribe(ctx, path.Base(display), data, p.Language)
	if !ok {
		return fail, nil
	}
	return tools.Text(fmt.Sprintf("Transcript of %s (via %s):\n%s", display, used, text)), nil
}

// transcribe sends audio to the transcription chain.
func (e *env) transcribe(ctx context.Context, name string, data []byte, language string) (string, string, tools.Result, bool) {
	var text string
	used, fail, ok := e.runChain(ctx, KindTranscribe, func(ctx context.Context, p Provider, model string) error {
		if p.Kind == ProviderAnthropic {
			return errors.New("an Anthropic provider has no transcription endpoint")
		}
		var out struct {
			Text string `json:"text"`
		}
		err := e.postFile(ctx, p, "/audio/transcriptions", map[string]string{"model": model, "language": language}, name, data, &out)
		text = strings.TrimSpace(out.Text)
		return err
	})
	return text, used, fail, ok
}

func validLanguage(l string) bool {
	if len(l) != 2 {
		return false
	}
	for _, c := range l {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
