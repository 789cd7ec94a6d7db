package mcp

import (
	"os"
	"os/exec"
)

// ownProcess has nothing to set up on Windows.
func ownProcess(*exec.Cmd) {}

// killGroup kills the server process.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// ProcessAlive reports whether a process with this id exists.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
