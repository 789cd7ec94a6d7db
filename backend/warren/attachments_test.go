package warren_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/warren"
)

// TestAttach: a dropped file lands in the workspace's attachments folder
// under a safe name, never outside it and never over another file.
func TestAttach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	ws := w.Workspace()

	for _, tc := range []struct{ name, want string }{
		{"notes.txt", "attachments/notes.txt"},
		{"../../etc/passwd", "attachments/passwd"},
		{`C:\Users\me\report.csv`, "attachments/report.csv"},
		{".bashrc", "attachments/bashrc"},
		{"a\x00b\nc.md", "attachments/abc.md"},
		{"what?<now>.txt", "attachments/what__now_.txt"},
		{"invoice\u202Efdp.exe", "attachments/invoicefdp.exe"}, // no bidi override disguising the extension
		{"CON.txt", "attachments/_CON.txt"},
		{"..", "attachments/attachment"},
		{"", "attachments/attachment (2)"}, // the same safe name as "..": never overwritten
		{strings.Repeat("x", 300) + ".pdf", "attachments/" + strings.Repeat("x", 96) + ".pdf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := w.Attach(ctx, "default", tc.name, []byte("data"))
			if err != nil || got.Path != tc.want || got.Size != 4 {
				t.Fatalf("Attach(%q) = %+v, %v; want %s", tc.name, got, err, tc.want)
			}
			if b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(got.Path))); err != nil || string(b) != "data" {
				t.Fatalf("stored %q %v", b, err)
			}
		})
	}

	// The same name again gets the next free one; the first file is kept.
	first, _ := w.Attach(ctx, "default", "plan.md", []byte("one"))
	second, err := w.Attach(ctx, "default", "plan.md", []byte("two"))
	if err != nil || first.Path != "attachments/plan.md" || second.Path != "attachments/plan (2).md" {
		t.Fatalf("second copy %+v %v", second, err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "attachments", "plan.md")); string(b) != "one" {
		t.Fatalf("the first copy was overwritten: %q", b)
	}

	if _, err := w.Attach(ctx, "default", "big.bin", make([]byte, warren.MaxAttachmentSize+1)); !errors.Is(err, warren.ErrAttachmentTooLarge) {
		t.Fatalf("too large: %v", err)
	}
	if _, err := w.Attach(ctx, "nobody", "a.txt", nil); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
}

// TestAttachStaysInTheWorkspace: an attachments folder that is a symlink to
// elsewhere is not followed out of the workspace.
func TestAttachStaysInTheWorkspace(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(w.Workspace(), "attachments")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Attach(context.Background(), "default", "x.txt", []byte("x")); err == nil {
		t.Fatal("attached through a symlink out of the workspace")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote outside the workspace: %v", entries)
	}
}
