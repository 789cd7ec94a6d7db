package mcp

import "syscall"

// setParentDeathSignal kills the server when Warren's process dies, even by
// SIGKILL, so a crash leaves no orphaned servers.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
