//go:build unix

package fs

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// Reading a FIFO would block the call forever; it must be refused at once.
func TestReadFileRefusesFIFO(t *testing.T) {
	w := newWorld(t)
	if err := syscall.Mkfifo(filepath.Join(w.ws, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	wantCode(t, w.call(t, "read_file", args{"path": "pipe"}), tools.CodeValidation, "not a regular file")
	wantCode(t, w.call(t, "edit", args{"path": "pipe", "old_text": "a", "new_text": "b"}), tools.CodeValidation)
	wantCode(t, w.call(t, "write_file", args{"path": "pipe", "content": "x", "mode": "append"}), tools.CodeValidation, "not a regular file")
	if out := wantOK(t, w.call(t, "search", args{"pattern": "x", "path": "."})); out == "" {
		t.Fatal("search over a tree with a FIFO")
	}
}
