//go:build windows

package script

import "os/exec"

func setGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func signaled(*exec.ExitError) (uint8, bool) { return 0, false }
