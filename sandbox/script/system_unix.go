//go:build unix

package script

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// systemProgram reports whether path is an installed program: under a
// system directory, owned by root and writable by no one else, as is every
// directory above it.
func systemProgram(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	if !strings.HasPrefix(real, "/usr/") && !strings.HasPrefix(real, "/bin/") && !strings.HasPrefix(real, "/sbin/") &&
		!strings.HasPrefix(real, "/lib/") && !strings.HasPrefix(real, "/opt/") {
		return false
	}
	for p := real; p != "/"; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return false
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || st.Uid != 0 || fi.Mode().Perm()&0o022 != 0 {
			return false
		}
	}
	return true
}
