//go:build !unix && !windows

package approvals

// pidAlive cannot check here; requests still drop out at their deadline.
func pidAlive(pid int) bool { return pid > 0 }
