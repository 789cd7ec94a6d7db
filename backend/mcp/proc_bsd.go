//go:build unix && !linux

package mcp

import "syscall"

// setParentDeathSignal has no kernel support outside Linux; servers are
// killed by process group when Warren closes them.
func setParentDeathSignal(*syscall.SysProcAttr) {}
