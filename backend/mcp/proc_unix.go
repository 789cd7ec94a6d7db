//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ownProcess puts a stdio server in its own process group so closing it
// kills everything it started, and (on Linux) asks the kernel to kill it if
// Warren dies first.
func ownProcess(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup asks the process group to stop, then kills what is left.
func killGroup(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// ProcessAlive reports whether a process with this id exists (EPERM: it
// exists but belongs to another user).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
