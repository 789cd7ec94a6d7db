//go:build unix

package mcp

import "syscall"

var syscallZero = syscall.Signal(0)
