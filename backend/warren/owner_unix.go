//go:build unix

package warren

import (
	"os"
	"syscall"
)

// ownLike gives path the owner of like when Warren runs as root and like
// belongs to another user; otherwise it leaves path as it is.
func ownLike(path, like string) error {
	if os.Getuid() != 0 {
		return nil
	}
	fi, err := os.Stat(like)
	if err != nil {
		return nil // no workspace yet: nothing to follow
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return nil
	}
	return os.Chown(path, int(st.Uid), int(st.Gid))
}
