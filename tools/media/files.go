package media

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/warren-dev/warren/tools"
)

// OutputDir is the workspace folder generated media land in.
const OutputDir = "media"

// readFile loads a workspace file of at most max bytes through the fs
// checks; display is the path as the agent knows it.
func (e *env) readFile(ctx context.Context, p string, max int64) (data []byte, display string, fail tools.Result, ok bool) {
	if strings.TrimSpace(p) == "" {
		return nil, p, tools.Errorf(tools.CodeValidation, "path is required"), false
	}
	f, display, fail, ok := e.Files.Open(ctx, p, max)
	if !ok {
		return nil, display, fail, false
	}
	defer func() { _ = f.Close() }() // read-only
	data, err := readCapped(f, max)
	if err != nil {
		return nil, display, tools.Errorf(tools.CodeIO, "read %s: %v", display, err), false
	}
	return data, display, tools.Result{}, true
}

// saveOutput writes generated media into media/ under a fresh name made
// of prefix, the time and a random part; it returns the workspace path and
// the MIME type (sniffed from the bytes, not trusted from the provider).
func (e *env) saveOutput(ctx context.Context, prefix string, data []byte) (string, string, tools.Result, bool) {
	mt := Sniff(data)
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	name := fmt.Sprintf("%s/%s-%s-%s%s", OutputDir, prefix, e.Now().UTC().Format("20060102-150405"), hex.EncodeToString(b[:]), extFor(mt))
	display, fail, ok := e.Files.Write(ctx, name, data)
	if !ok {
		return "", "", fail, false
	}
	return display, mt, tools.Result{}, true
}

// Sniff names the type of media bytes; WAV, MP3, OGG and FLAC are told
// apart by their headers, the rest by the standard sniffer.
func Sniff(data []byte) string {
	switch {
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		return "audio/wav"
	case len(data) >= 4 && string(data[:4]) == "fLaC":
		return "audio/flac"
	case len(data) >= 4 && string(data[:4]) == "OggS":
		return "audio/ogg"
	case len(data) >= 3 && (string(data[:3]) == "ID3" || (data[0] == 0xFF && data[1]&0xE0 == 0xE0)):
		return "audio/mpeg"
	}
	mt, _, _ := mime.ParseMediaType(http.DetectContentType(data))
	return mt
}

// extFor picks a file extension for a MIME type.
func extFor(mt string) string {
	switch mt {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "audio/wav":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "audio/flac":
		return ".flac"
	case "application/json":
		return ".json"
	}
	if strings.HasPrefix(mt, "text/") {
		return ".txt"
	}
	return ".bin"
}

// saved is the result text of a generated file; the chat shows a
// workspace image or audio path it finds in a tool result inline.
func saved(what, display, mt string, size int, provider string) tools.Result {
	via := ""
	if provider != "" {
		via = " via " + provider
	}
	return tools.Text(fmt.Sprintf("Saved %s to %s (%s, %d bytes)%s.", what, path.Clean(display), mt, size, via))
}
