//go:build !windows

package sandbox

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup puts the command in its own group and makes cancellation
// kill the whole group, so children of a timed-out command die with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 2 * time.Second
}
