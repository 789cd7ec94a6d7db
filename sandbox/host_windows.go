//go:build windows

package sandbox

import (
	"os/exec"
	"time"
)

// setProcessGroup relies on CommandContext's kill on Windows.
func setProcessGroup(cmd *exec.Cmd) { cmd.WaitDelay = 2 * time.Second }
