package guard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// ScriptShell reports whether the file at path is a script a shell would
// run, and which shell: a #! line naming one (directly, or through a
// program that starts it: env, busybox, setsid, nice…), or a text file
// without a #! line, which shells run themselves (as sh). Binaries are not.
func ScriptShell(path string) (string, bool) {
	f, err := os.Open(path) //nolint:gosec // only its first bytes are read
	if err != nil {
		return "", false
	}
	defer func() { _ = f.Close() }()
	head := make([]byte, 256)
	n, _ := f.Read(head)
	head = head[:n]
	if n == 0 {
		return "sh", true // an empty file: a shell runs it and does nothing
	}
	if !bytes.HasPrefix(head, []byte("#!")) {
		line, _, _ := bytes.Cut(head, []byte("\n"))
		if bytes.HasPrefix(head, []byte("\x7fELF")) || bytes.HasPrefix(head, []byte("MZ")) || bytes.IndexByte(line, 0) >= 0 {
			return "", false
		}
		return "sh", true
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	words := strings.Fields(string(line))
	if len(words) == 0 {
		return "sh", true
	}
	for _, w := range words {
		if ClassOf(w) == Shell {
			return filepath.Base(w), true
		}
	}
	return "", false
}

// isShellScript: run by a wrapper, the system shell runs it.
func isShellScript(path string) bool {
	_, ok := ScriptShell(path)
	return ok
}
