package mcp

import (
	"os"
	"os/exec"
	"testing"
)

// execTestChild runs this test binary again, running only the named test
// with extra environment.
func execTestChild(t *testing.T, test string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1") //nolint:gosec // the test binary itself
	cmd.Env = append(os.Environ(), env...)
	return cmd
}
