//go:build unix

package script

import (
	"os/exec"
	"syscall"
)

// setGroup starts the program in a process group of its own, so killing it
// on cancellation reaches its children too.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

func signaled(ee *exec.ExitError) (uint8, bool) {
	if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		return uint8(st.Signal()), true //nolint:gosec // signal numbers are small
	}
	return 0, false
}
