package warren

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools/fs"
	"github.com/warren-dev/warren/tools/media"
)

// MaxMediaPreview caps a file the chat shows inline: it crosses the
// window's bridge as one base64 string.
const MaxMediaPreview = 20 << 20

// ErrNotMedia is returned for a file the chat does not show inline.
var ErrNotMedia = errors.New("not an image or audio file the chat can show")

// previewTypes are the types the chat shows. SVG is left out on purpose:
// it can carry scripts.
var previewTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"audio/wav": true, "audio/mpeg": true, "audio/ogg": true, "audio/flac": true,
}

// MediaDataURL returns an image or audio file of an agent's workspace as a
// data: URL for the chat (tool results name such files: generated images,
// speech, screenshots). The path goes through the same checks the file
// tools use, so the window can show nothing an agent could not read; the
// type comes from the bytes, not the name.
func (w *Warren) MediaDataURL(ctx context.Context, agentKey, path string) (string, error) {
	a, err := w.db.GetAgent(ctx, cmp.Or(agentKey, "default"))
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("%w %q", ErrUnknownAgent, agentKey)
	}
	if err != nil {
		return "", err
	}
	ws, err := filepath.Abs(cmp.Or(a.Workspace, w.workspace))
	if err != nil {
		return "", err
	}
	files, err := fs.NewFiles(fs.Deps{Workspace: ws, AllowHardLinks: func() bool { return w.settings.bool(SettingAllowHardLinks) }})
	if err != nil {
		return "", err
	}
	f, display, fail, ok := files.Open(ctx, path, MaxMediaPreview)
	if !ok {
		return "", errors.New(fail.ForUser)
	}
	defer func() { _ = f.Close() }() // read-only
	data, err := io.ReadAll(io.LimitReader(f, MaxMediaPreview+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", display, err)
	}
	if len(data) > MaxMediaPreview {
		return "", fmt.Errorf("%s is over %d MB, too large to show", display, MaxMediaPreview>>20)
	}
	mt := media.Sniff(data)
	if !previewTypes[mt] {
		return "", fmt.Errorf("%s: %w (it is %s)", display, ErrNotMedia, strings.TrimSpace(mt))
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}
