package warren

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/warren-dev/warren/backend/store"
)

// AttachmentDir is the workspace folder files dropped into the chat go to.
const AttachmentDir = "attachments"

// MaxAttachmentSize bounds one attached file: the file travels through the
// window's bridge in one piece, and a model reads it through read_file.
const MaxAttachmentSize = 10 << 20

// maxAttachmentName bounds an attachment's file name, in runes.
const maxAttachmentName = 100

// ErrAttachmentTooLarge is returned for a file over MaxAttachmentSize.
var ErrAttachmentTooLarge = errors.New("the file is too large to attach")

// Attachment is a file copied into an agent's workspace for a chat.
type Attachment struct {
	// Path is relative to the workspace, with forward slashes: what the
	// agent passes to read_file.
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Attach copies a file the user dropped into the chat into the agent's
// workspace, under attachments/, with a safe name. An existing file is never
// overwritten: the copy gets the next free name ("notes (2).txt"). The
// write goes through os.Root, so no name or symlink reaches outside the
// workspace.
func (w *Warren) Attach(ctx context.Context, agentKey, name string, data []byte) (Attachment, error) {
	if len(data) > MaxAttachmentSize {
		return Attachment{}, fmt.Errorf("%w: %s is %.1f MB, the limit is %d MB", ErrAttachmentTooLarge,
			safeFileName(name), float64(len(data))/(1<<20), MaxAttachmentSize>>20)
	}
	a, err := w.db.GetAgent(ctx, cmp.Or(agentKey, "default"))
	if errors.Is(err, store.ErrNotFound) {
		return Attachment{}, fmt.Errorf("%w %q", ErrUnknownAgent, agentKey)
	}
	if err != nil {
		return Attachment{}, err
	}
	ws, err := filepath.Abs(cmp.Or(a.Workspace, w.workspace))
	if err != nil {
		return Attachment{}, err
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return Attachment{}, fmt.Errorf("open the workspace: %w", err)
	}
	defer func() { _ = root.Close() }()
	// 0755: the sandbox's own user must be able to read what the agent is told to read.
	if err := root.Mkdir(AttachmentDir, 0o755); err != nil && !errors.Is(err, iofs.ErrExist) {
		return Attachment{}, fmt.Errorf("create %s in the workspace: %w", AttachmentDir, err)
	}
	base := safeFileName(name)
	for i := 1; i <= 1000; i++ {
		rel := path.Join(AttachmentDir, numbered(base, i))
		f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, iofs.ErrExist) {
			continue
		}
		if err != nil {
			return Attachment{}, fmt.Errorf("attach %s: %w", base, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = root.Remove(rel)
			return Attachment{}, fmt.Errorf("attach %s: %w", base, werr)
		}
		return Attachment{Path: rel, Size: int64(len(data))}, nil
	}
	return Attachment{}, fmt.Errorf("attach %s: too many files with that name in %s", base, AttachmentDir)
}

// safeFileName turns a dropped file's name into one plain file name: no
// folders, no control or reserved characters, not hidden, not a Windows
// device name, at most maxAttachmentName runes (the extension kept).
func safeFileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r): // Cf: bidi overrides that disguise extensions
		case strings.ContainsRune(`<>:"|?*`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.Trim(strings.TrimSpace(b.String()), ". ")
	if name == "" {
		name = "attachment"
	}
	stem, ext := splitExt(name)
	if reservedName(stem) {
		stem = "_" + stem
	}
	if r := []rune(stem); len(r)+len([]rune(ext)) > maxAttachmentName {
		if e := []rune(ext); len(e) > 20 {
			ext = ""
		}
		stem = string(r[:min(len(r), maxAttachmentName-len([]rune(ext)))])
	}
	return stem + ext
}

// numbered is name for the first copy, "stem (i).ext" for later ones.
func numbered(name string, i int) string {
	if i == 1 {
		return name
	}
	stem, ext := splitExt(name)
	return fmt.Sprintf("%s (%d)%s", stem, i, ext)
}

func splitExt(name string) (string, string) {
	ext := path.Ext(name)
	if ext == name {
		return name, ""
	}
	return strings.TrimSuffix(name, ext), ext
}

// reservedName reports Windows device names, which cannot be files there.
func reservedName(stem string) bool {
	s := strings.ToUpper(stem)
	switch s {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(s) == 4 && (strings.HasPrefix(s, "COM") || strings.HasPrefix(s, "LPT")) && s[3] >= '1' && s[3] <= '9'
}
