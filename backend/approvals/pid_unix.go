//go:build unix

package approvals

import (
	"errors"
	"syscall"
)

// pidAlive reports whether a process exists; EPERM means it does (another
// user's process), which is enough: a reused pid only keeps a request
// listed until its deadline.
func pidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
