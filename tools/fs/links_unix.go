//go:build unix

package fs

import (
	"errors"
	iofs "io/fs"
	"os"
	"syscall"
)

// nonBlock opens FIFOs without waiting for a peer, so they can be refused.
const nonBlock = syscall.O_NONBLOCK

// linkCount returns how many hard links the open file has; fi is its fstat.
func linkCount(_ *os.File, fi iofs.FileInfo) (uint64, error) { return statLinks(fi) }

// entryLinkCount returns how many hard links name has; fi is its Lstat
// through root, which already carries the count.
func entryLinkCount(_ *os.Root, _ string, fi iofs.FileInfo) (uint64, error) { return statLinks(fi) }

func statLinks(fi iofs.FileInfo) (uint64, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, errors.New("no link count in the file's status")
	}
	return uint64(st.Nlink), nil // Nlink is uint16 on darwin, uint32 or uint64 elsewhere
}
