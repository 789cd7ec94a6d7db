package media

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/warren-dev/warren/tools"
)

//go:embed tts.md
var ttsDoc string

//go:embed create_audio.md
var createAudioDoc string

// maxSpeechChars is the speech endpoints' usual input limit.
const maxSpeechChars = 4096

// voiceRE keeps voice names to what both the API and espeak-ng accept
// (an espeak-ng voice is also an argument: no leading dash).
var voiceRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_+.-]{0,39}$`)

// TTSParams are the parameters of tts and create_audio.
type TTSParams struct {
	Text  string `json:"text" description:"The text to speak (at most 4096 characters)"`
	Voice string `json:"voice,omitempty" description:"Voice name: the provider's (e.g. alloy) or, with espeak-ng, a language voice such as en or de"`
}

func newTTS(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "tts", Group: "media_gen", LongDescription: ttsDoc,
		Description: "Speak text into an audio file saved in the workspace's media/ folder.",
	}, e.speak)
}

// newCreateAudio is tts under the seed's other name: no common endpoint
// makes music or sound effects, so both make speech.
func newCreateAudio(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "create_audio", Group: "media_gen", LongDescription: createAudioDoc,
		Description: "Create spoken audio from text (same as tts); saved in the workspace's media/ folder.",
	}, e.speak)
}

func (e *env) speak(ctx context.Context, p TTSParams) (tools.Result, error) {
	text := strings.TrimSpace(p.Text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return tools.Errorf(tools.CodeValidation, "text is required"), nil
	case n > maxSpeechChars:
		return tools.Errorf(tools.CodeValidation, "text is %d characters, over the %d limit: split it into several calls", n, maxSpeechChars), nil
	}
	if p.Voice != "" && !voiceRE.MatchString(p.Voice) {
		return tools.Errorf(tools.CodeValidation, "voice %q: letters, digits, _ + . - only", p.Voice), nil
	}
	var audio []byte
	used, fail, ok := "", tools.Result{}, false
	if len(e.Chain(KindSpeech)) > 0 {
		used, fail, ok = e.runChain(ctx, KindSpeech, func(ctx context.Context, pr Provider, model string) error {
			if pr.Kind == ProviderAnthropic {
				return errors.New("an Anthropic provider has no speech endpoint")
			}
			voice := p.Voice
			if voice == "" {
				voice = "alloy"
			}
			data, _, err := e.postBytes(ctx, pr, "/audio/speech", map[string]any{"model": model, "input": text, "voice": voice, "response_format": "wav"})
			if err == nil && !strings.HasPrefix(Sniff(data), "audio/") {
				err = fmt.Errorf("the answer is %s, not audio", Sniff(data))
			}
			audio = data
			return err
		})
	}
	if !ok {
		// No provider, or none answered: speak locally.
		var local tools.Result
		var lok bool
		if audio, local, lok = e.espeak(ctx, text, p.Voice); !lok {
			if fail.IsError {
				local.ForLLM += "\n(providers: " + fail.ForLLM + ")"
			}
			return local, nil
		}
		used = "espeak-ng on this machine"
	}
	display, mt, fail, ok := e.saveOutput(ctx, "speech", audio)
	if !ok {
		return fail, nil
	}
	return saved("speech", display, mt, len(audio), used), nil
}

// espeak renders text to WAV with the system's espeak-ng; the text goes
// on stdin, so nothing in it is read as an option.
func (e *env) espeak(ctx context.Context, text, voice string) ([]byte, tools.Result, bool) {
	bin, err := e.LookPath("espeak-ng")
	if err != nil {
		return nil, tools.Errorf(tools.CodeNotFound,
			"no speech provider answered and espeak-ng is not installed: set %s (warren settings set %s NAME[:MODEL]) "+
				"or install espeak-ng (apt package espeak-ng)", SettingKey(KindSpeech), SettingKey(KindSpeech)), false
	}
	args := []string{"--stdout", "--stdin"}
	if voice != "" {
		args = append(args, "-v", voice)
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(text), &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, tools.Errorf(tools.CodeExecution, "espeak-ng: %v: %s", err, strings.TrimSpace(errb.String())), false
	}
	if Sniff(out.Bytes()) != "audio/wav" {
		return nil, tools.Errorf(tools.CodeExecution, "espeak-ng gave no WAV audio: %s", strings.TrimSpace(errb.String())), false
	}
	return out.Bytes(), tools.Result{}, true
}
