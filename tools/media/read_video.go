package media

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed read_video.md
var readVideoDoc string

const (
	// maxVideoBytes caps a video read_video takes apart.
	maxVideoBytes = 2 << 30
	defaultFrames = 4
	maxFrames     = 8
)

// ReadVideoParams are read_video's parameters.
type ReadVideoParams struct {
	Path   string `json:"path" description:"Workspace path of a video file (mp4, webm, mkv, mov…)"`
	Frames int    `json:"frames,omitempty" description:"How many evenly spaced frames to look at (default 4, at most 8)"`
	Prompt string `json:"prompt,omitempty" description:"What to ask about the frames (default: describe what happens)"`
}

func newReadVideo(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "read_video", Group: "media_read", LongDescription: readVideoDoc,
		Description: "Describe a workspace video: sampled frames go to a vision model, its audio to transcription.",
	}, e.readVideo)
}

// probe is what ffprobe says about a video.
type probe struct {
	duration float64
	hasVideo bool
	hasAudio bool
}

func (e *env) readVideo(ctx context.Context, p ReadVideoParams) (tools.Result, error) {
	n := p.Frames
	switch {
	case n == 0:
		n = defaultFrames
	case n < 1 || n > maxFrames:
		return tools.Errorf(tools.CodeValidation, "frames must be between 1 and %d, got %d", maxFrames, p.Frames), nil
	}
	ffmpeg, err1 := e.LookPath("ffmpeg")
	ffprobe, err2 := e.LookPath("ffprobe")
	if err1 != nil || err2 != nil {
		return tools.Errorf(tools.CodeNotFound, "read_video needs ffmpeg and ffprobe on this machine: install the apt package ffmpeg"), nil
	}
	if strings.TrimSpace(p.Path) == "" {
		return tools.Errorf(tools.CodeValidation, "path is required"), nil
	}
	f, display, fail, ok := e.Files.Open(ctx, p.Path, maxVideoBytes)
	if !ok {
		return fail, nil
	}
	defer func() { _ = f.Close() }() // read-only
	info, err := ffprobeFile(ctx, ffprobe, f)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "%s is not a video ffprobe can read: %v", display, err), nil
	}
	if !info.hasVideo && !info.hasAudio {
		return tools.Errorf(tools.CodeValidation, "%s has neither video nor audio streams", display), nil
	}
	tmp, err := os.MkdirTemp("", "warren-video-")
	if err != nil {
		return tools.Result{}, fmt.Errorf("read_video: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	if err := extractMedia(ctx, ffmpeg, f, tmp, info, n); err != nil {
		return tools.Errorf(tools.CodeExecution, "ffmpeg could not take %s apart: %v", display, err), nil
	}
	return e.videoReport(ctx, display, tmp, info, n, p.Prompt), nil
}

// videoReport hands the frames to the vision chain and the audio to the
// transcription chain; either may fail, and the report says why.
func (e *env) videoReport(ctx context.Context, display, dir string, info probe, n int, prompt string) tools.Result {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%.1f s", display, info.duration)
	if !info.hasAudio {
		b.WriteString(", no audio")
	}
	b.WriteString(")\n")
	anyOK := false
	if info.hasVideo {
		pics, times := loadFrames(dir, info.duration, n)
		if len(pics) == 0 {
			b.WriteString("\nFrames: ffmpeg produced none.\n")
		} else {
			ask := strings.TrimSpace(prompt)
			if ask == "" {
				ask = "Describe what happens in this video."
			}
			ask = fmt.Sprintf("These %d images are frames of one video, in order, taken at %s seconds. %s", len(pics), strings.Join(times, ", "), ask)
			if text, used, fail, ok := e.describe(ctx, ask, pics); ok {
				anyOK = true
				fmt.Fprintf(&b, "\nFrames (%d, via %s):\n%s\n", len(pics), used, strings.TrimSpace(text))
			} else {
				fmt.Fprintf(&b, "\nFrames not described: %s\n", fail.ForUser)
			}
		}
	}
	if info.hasAudio {
		data, err := os.ReadFile(filepath.Join(dir, "audio.wav"))
		switch {
		case err != nil:
			fmt.Fprintf(&b, "\nAudio: ffmpeg extracted none (%v).\n", err)
		case len(data) > maxAudioBytes:
			fmt.Fprintf(&b, "\nAudio not transcribed: %d MB of audio is over the %d MB limit.\n", len(data)>>20, maxAudioBytes>>20)
		default:
			if text, used, fail, ok := e.transcribe(ctx, "audio.wav", data, ""); ok {
				anyOK = true
				fmt.Fprintf(&b, "\nAudio transcript (via %s):\n%s\n", used, text)
			} else {
				fmt.Fprintf(&b, "\nAudio not transcribed: %s\n", fail.ForUser)
			}
		}
	}
	if !anyOK {
		return tools.Errorf(tools.CodeNotFound, "%s", strings.TrimSpace(b.String()))
	}
	return tools.Text(strings.TrimSpace(b.String()))
}

// fdInput is how ffmpeg reads the checked file: the open descriptor
// itself (so the file checked is the file read), or on Windows its name.
func fdInput(cmd *exec.Cmd, f *os.File) string {
	if runtime.GOOS == "windows" {
		return f.Name()
	}
	// Where /dev/fd/N is a dup (macOS) the child shares the offset the
	// last run left: start it at the beginning.
	_, _ = f.Seek(0, io.SeekStart) // a regular file: seeking does not fail
	cmd.ExtraFiles = []*os.File{f}
	return "/dev/fd/3"
}

func ffprobeFile(ctx context.Context, bin string, f *os.File) (probe, error) {
	cmd := exec.CommandContext(ctx, bin, "-v", "error", "-show_entries", "format=duration:stream=codec_type", "-of", "json")
	cmd.Args = append(cmd.Args, fdInput(cmd, f))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return probe{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	var raw struct {
		Streams []struct {
			CodecType string `json:"codec_type"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		return probe{}, err
	}
	var info probe
	info.duration, _ = strconv.ParseFloat(raw.Format.Duration, 64)
	for _, s := range raw.Streams {
		info.hasVideo = info.hasVideo || s.CodecType == "video"
		info.hasAudio = info.hasAudio || s.CodecType == "audio"
	}
	return info, nil
}

// extractMedia writes n evenly spaced JPEG frames (768 px wide at most)
// and the audio as 16 kHz mono WAV into dir, in one ffmpeg run.
func extractMedia(ctx context.Context, bin string, f *os.File, dir string, info probe, n int) error {
	cmd := exec.CommandContext(ctx, bin, "-nostdin", "-v", "error", "-y")
	cmd.Args = append(cmd.Args, "-i", fdInput(cmd, f))
	if info.hasVideo {
		rate := "1"
		if info.duration > 0 {
			rate = strconv.FormatFloat(float64(n)/info.duration, 'f', 6, 64)
		}
		cmd.Args = append(cmd.Args, "-map", "0:v:0", "-vf", "fps="+rate+",scale='min(768,iw)':-2",
			"-frames:v", strconv.Itoa(n), filepath.Join(dir, "frame_%02d.jpg"))
	}
	if info.hasAudio {
		cmd.Args = append(cmd.Args, "-map", "0:a:0", "-ac", "1", "-ar", "16000", filepath.Join(dir, "audio.wav"))
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	return nil
}

// loadFrames reads the frames ffmpeg wrote, with the time each was taken.
func loadFrames(dir string, duration float64, n int) ([]picture, []string) {
	var pics []picture
	var times []string
	for i := 1; i <= n; i++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("frame_%02d.jpg", i)))
		if err != nil {
			break
		}
		pics = append(pics, picture{mime: "image/jpeg", data: data})
		times = append(times, strconv.FormatFloat(duration*float64(i-1)/float64(n), 'f', 1, 64))
	}
	return pics, times
}
