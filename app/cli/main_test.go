package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMain builds warren-runner, the sandbox's in-container exec service,
// so sandboxed exec calls made through the CLI find it ($WARREN_RUNNER), as
// a built warren finds the copy next to itself.
func TestMain(m *testing.M) {
	if os.Getenv("WARREN_TEST_CLI_ARGS") != "" { // a child process (mcp_test.go)
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "warren-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runner := filepath.Join(dir, "warren-runner")
	build := exec.Command("go", "build", "-o", runner, "github.com/warren-dev/warren/sandbox/cmd/warren-runner")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build warren-runner: %v\n%s", err, out)
		os.Exit(1)
	}
	if os.Getenv("WARREN_RUNNER") == "" {
		_ = os.Setenv("WARREN_RUNNER", runner)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
