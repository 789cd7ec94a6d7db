package mcp

import "os/exec"

// ownProcess has nothing to set up on Windows.
func ownProcess(*exec.Cmd) {}

// killGroup kills the server process.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
