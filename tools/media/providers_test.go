package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/fs"
	"github.com/warren-dev/warren/tools/media"
)

func TestCreateImageFallsBackAlongTheChain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.chains[media.KindImage] = []string{"dead", "nosuch", "local:img-model"}
	res := w.call(t, "create_image", map[string]any{"prompt": "a red pixel", "size": "256x256"})
	data, mt := w.savedFile(t, res)
	if mt != "image/png" || !bytes.Equal(data, llmtest.PNG()) || !strings.Contains(res.ForLLM, "via local") {
		t.Fatalf("saved %s (%d bytes): %s", mt, len(data), res.ForLLM)
	}
	reqs := w.srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Path != "/v1/images/generations" || last.Header.Get("Authorization") != "Bearer "+testKey ||
		!strings.Contains(string(last.Body), `"model":"img-model"`) || !strings.Contains(string(last.Body), `"size":"256x256"`) {
		t.Fatalf("request: %s %v %s", last.Path, last.Header, last.Body)
	}
	if len(w.secrets) == 0 || w.secrets[0] != testKey {
		t.Fatalf("the key was not registered for scrubbing: %v", w.secrets)
	}
	wantError(t, w.call(t, "create_image", map[string]any{"prompt": "x", "size": "huge"}), tools.CodeValidation, "size")
}

func TestMediaNotConfigured(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.write(t, "a.png", llmtest.PNG())
	w.write(t, "a.wav", llmtest.WAV())
	wantError(t, w.call(t, "create_image", map[string]any{"prompt": "x"}), tools.CodeNotFound, "media.image_providers", "warren settings set")
	wantError(t, w.call(t, "read_image", map[string]any{"path": "a.png"}), tools.CodeNotFound, "media.vision_providers")
	wantError(t, w.call(t, "read_audio", map[string]any{"path": "a.wav"}), tools.CodeNotFound, "media.transcribe_providers")
	wantError(t, w.call(t, "create_video", map[string]any{"prompt": "x"}), tools.CodeNotFound, "video provider kind")

	// Every provider failing names each and why.
	w.chains[media.KindImage] = []string{"dead", "claude"}
	wantError(t, w.call(t, "create_image", map[string]any{"prompt": "x"}), tools.CodeNetwork, "dead:", "claude: ", "does not generate images")
}

func TestTTSViaProvider(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.chains[media.KindSpeech] = []string{"local"}
	res := w.call(t, "tts", map[string]any{"text": "hello there", "voice": "nova"})
	data, mt := w.savedFile(t, res)
	if mt != "audio/wav" || !bytes.Equal(data, llmtest.WAV()) {
		t.Fatalf("saved %s: %s", mt, res.ForLLM)
	}
	reqs := w.srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, `"voice":"nova"`) || !strings.Contains(body, `"model":"vision-1"`) {
		t.Fatalf("speech request: %s", body)
	}
	wantError(t, w.call(t, "tts", map[string]any{"text": "x", "voice": "-v evil"}), tools.CodeValidation, "voice")
	wantError(t, w.call(t, "tts", map[string]any{"text": strings.Repeat("a", 5000)}), tools.CodeValidation, "4096")
}

// wavSeconds is a WAV file's length from its header.
func wavSeconds(t *testing.T, data []byte) float64 {
	t.Helper()
	if len(data) < 44 || string(data[:4]) != "RIFF" {
		t.Fatalf("not a WAV file (%d bytes)", len(data))
	}
	byteRate := binary.LittleEndian.Uint32(data[28:32])
	// espeak-ng writes to a pipe and cannot fill the sizes in: count the bytes.
	return float64(len(data)-44) / float64(byteRate)
}

func TestTTSFallsBackToEspeak(t *testing.T) {
	t.Parallel()
	needTool(t, "espeak-ng", "espeak-ng")
	w := newWorld(t)
	short := w.call(t, "tts", map[string]any{"text": "Hi."})
	long := w.call(t, "create_audio", map[string]any{"text": "Warren speaks this longer sentence on the local machine without any provider.", "voice": "en"})
	for _, res := range []tools.Result{short, long} {
		if !strings.Contains(res.ForLLM, "espeak-ng on this machine") {
			t.Fatalf("not espeak-ng: %s", res.ForLLM)
		}
	}
	sData, mt := w.savedFile(t, short)
	lData, _ := w.savedFile(t, long)
	s, l := wavSeconds(t, sData), wavSeconds(t, lData)
	if mt != "audio/wav" || s <= 0.1 || l < 2 || l <= s {
		t.Fatalf("durations: short %.2fs, long %.2fs (%s)", s, l, mt)
	}
	// A provider that fails still leaves the local voice, and says why.
	w.chains[media.KindSpeech] = []string{"dead"}
	res := w.call(t, "tts", map[string]any{"text": "fallback"})
	if _, mt := w.savedFile(t, res); mt != "audio/wav" {
		t.Fatal(mt)
	}
}

func TestReadAudioTranscribes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.chains[media.KindTranscribe] = []string{"claude", "local:whisper-x"}
	w.write(t, "rec/a.wav", llmtest.WAV())
	res := w.call(t, "read_audio", map[string]any{"path": "rec/a.wav", "language": "en"})
	want := "llmtest transcript of a.wav (1644 bytes, model whisper-x)"
	if res.IsError || !strings.Contains(res.ForLLM, want) || !strings.Contains(res.ForLLM, "via local") {
		t.Fatalf("got %s", res.ForLLM)
	}
	wantError(t, w.call(t, "read_audio", map[string]any{"path": "rec/a.wav", "language": "english"}), tools.CodeValidation, "ISO-639-1")
}

func TestReadImageOpenAIAndAnthropic(t *testing.T) {
	t.Parallel()
	w := newWorld(t, llmtest.Turn{Chunks: []string{"A red ", "pixel."}}, llmtest.Turn{Chunks: []string{"Claude sees red."}})
	w.write(t, "pic.png", llmtest.PNG())
	w.write(t, "fake.png", []byte("not an image at all"))

	w.chains[media.KindVision] = []string{"local"}
	res := w.call(t, "read_image", map[string]any{"path": "pic.png", "prompt": "What colour?"})
	if res.IsError || !strings.Contains(res.ForLLM, "A red pixel.") {
		t.Fatalf("openai: %s", res.ForLLM)
	}
	reqs := w.srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, `"type":"image_url"`) || !strings.Contains(body, "data:image/png;base64,") || !strings.Contains(body, "What colour?") {
		t.Fatalf("openai request: %.300s", body)
	}

	w.chains[media.KindVision] = []string{"claude"}
	res = w.call(t, "read_image", map[string]any{"path": "pic.png"})
	if res.IsError || !strings.Contains(res.ForLLM, "Claude sees red.") {
		t.Fatalf("anthropic: %s", res.ForLLM)
	}
	last := w.srv.Requests()[len(w.srv.Requests())-1]
	if last.Path != "/v1/messages" || last.Header.Get("x-api-key") != testKey || !strings.Contains(string(last.Body), `"media_type":"image/png"`) {
		t.Fatalf("anthropic request: %s %.300s", last.Path, last.Body)
	}
	wantError(t, w.call(t, "read_image", map[string]any{"path": "fake.png"}), tools.CodeValidation, "not a PNG")
}

func TestReadVideoFramesAndAudio(t *testing.T) {
	t.Parallel()
	needTool(t, "ffmpeg", "ffmpeg")
	w := newWorld(t, llmtest.Turn{Chunks: []string{"A test pattern with a counter."}})
	w.chains[media.KindVision] = []string{"local"}
	w.chains[media.KindTranscribe] = []string{"local"}
	video := filepath.Join(w.ws, "clips", "test.mp4")
	if err := os.MkdirAll(filepath.Dir(video), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=160x120:rate=10",
		"-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-shortest", "-pix_fmt", "yuv420p", video).CombinedOutput()
	if err != nil {
		t.Fatalf("making the test video: %v: %s", err, out)
	}
	res := w.call(t, "read_video", map[string]any{"path": "clips/test.mp4", "frames": 3})
	for _, want := range []string{"clips/test.mp4 (2.0 s)", "Frames (3, via local)", "A test pattern", "llmtest transcript of audio.wav"} {
		if res.IsError || !strings.Contains(res.ForLLM, want) {
			t.Fatalf("lacks %q: %s", want, res.ForLLM)
		}
	}
	var visionBody string
	for _, r := range w.srv.Requests() {
		if r.Path == "/v1/chat/completions" {
			visionBody = string(r.Body)
		}
	}
	if n := strings.Count(visionBody, "data:image/jpeg;base64,"); n != 3 {
		t.Fatalf("%d frames sent, want 3", n)
	}

	// Without a vision provider the transcript still comes back.
	w.chains[media.KindVision] = nil
	res = w.call(t, "read_video", map[string]any{"path": "clips/test.mp4"})
	if res.IsError || !strings.Contains(res.ForLLM, "Frames not described") || !strings.Contains(res.ForLLM, "transcript") {
		t.Fatalf("no vision: %s", res.ForLLM)
	}
	w.write(t, "clips/bad.mp4", []byte("nope"))
	wantError(t, w.call(t, "read_video", map[string]any{"path": "clips/bad.mp4"}), tools.CodeValidation, "ffprobe")
}

func TestOpenAICompatCall(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	res := w.call(t, "openai_compat_call", map[string]any{"provider": "local", "path": "/v1/models"})
	if res.IsError || !strings.Contains(res.ForLLM, "HTTP 200") || !strings.Contains(res.ForLLM, "vision-1") {
		t.Fatalf("models: %s", res.ForLLM)
	}
	res = w.call(t, "openai_compat_call", map[string]any{"provider": "local", "path": "/audio/speech", "body": map[string]any{"input": "x"}})
	if _, mt := w.savedFile(t, res); mt != "audio/wav" {
		t.Fatalf("binary answer: %s", res.ForLLM)
	}
	for _, bad := range []string{"http://evil.example/v1/x", "//evil.example/x", "/v1/../../x", "/v1/%2e%2e/x", "v1/models", "/x#y", "/a\\b"} {
		wantError(t, w.call(t, "openai_compat_call", map[string]any{"provider": "local", "path": bad}), tools.CodeValidation, "path")
	}
	wantError(t, w.call(t, "openai_compat_call", map[string]any{"provider": "nosuch", "path": "/models"}), tools.CodeNotFound, "nosuch")
	wantError(t, w.call(t, "openai_compat_call", map[string]any{"provider": "local", "path": "/models", "method": "DELETE"}), tools.CodeValidation, "GET or POST")
}

// A server that echoes the key back (as some error pages do) must not get
// it into the result.
func TestOpenAICompatCallScrubsEchoedKey(t *testing.T) {
	t.Parallel()
	echo := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`{"you_sent":"` + r.Header.Get("Authorization") + `"}`))
	}))
	t.Cleanup(echo.Close)
	files := newWorld(t) // only for its workspace and file access
	ts, err := media.Tools(media.Deps{
		Files: mustFiles(t, files.ws),
		Provider: func(_ context.Context, _ string) (media.Provider, error) {
			return media.Provider{Name: "echo", Kind: media.ProviderOpenAI, BaseURL: echo.URL + "/v1", APIKey: testKey}, nil
		},
		Chain: func(media.Kind) []string { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	files.tools = map[string]tools.Tool{}
	for _, tl := range ts {
		files.tools[tl.Info().Name] = tl
	}
	res := files.call(t, "openai_compat_call", map[string]any{"provider": "echo", "path": "/v1/anything", "body": map[string]any{}})
	if res.IsError || !strings.Contains(res.ForLLM, "Bearer [REDACTED]") {
		t.Fatalf("got %s", res.ForLLM)
	}
}

func mustFiles(t *testing.T, ws string) *fs.Files {
	t.Helper()
	f, err := fs.NewFiles(fs.Deps{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return f
}
