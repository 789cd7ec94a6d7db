//go:build windows

package fs

import (
	iofs "io/fs"
	"os"
	"syscall"
)

// nonBlock is not needed: Windows has no FIFOs in the file system.
const nonBlock = 0

// entryLinkCount returns how many hard links name has: Lstat on Windows
// carries no count, so the file is opened through root and asked.
func entryLinkCount(root *os.Root, name string, _ iofs.FileInfo) (uint64, error) {
	f, err := root.Open(name)
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }() // read-only handle
	return linkCount(f, nil)
}

// linkCount returns how many hard links (NTFS names) the open file has.
func linkCount(f *os.File, _ iofs.FileInfo) (uint64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var info syscall.ByHandleFileInformation
	var infoErr error
	if err := rc.Control(func(h uintptr) {
		infoErr = syscall.GetFileInformationByHandle(syscall.Handle(h), &info)
	}); err != nil {
		return 0, err
	}
	if infoErr != nil {
		return 0, infoErr
	}
	return uint64(info.NumberOfLinks), nil
}
