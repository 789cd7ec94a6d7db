// Package runnertest builds warren-runner for tests that run sandboxed
// commands: a built warren finds the runner next to itself, a test binary
// has none.
package runnertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Build compiles sandbox/cmd/warren-runner (static) into dir and returns
// its path.
func Build(dir string) (string, error) {
	out := filepath.Join(dir, "warren-runner")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "github.com/warren-dev/warren/sandbox/cmd/warren-runner")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build warren-runner: %w\n%s", err, b)
	}
	return out, nil
}

// Main builds the runner into a temporary directory, points $WARREN_RUNNER
// at it (unless set) for the whole test binary, and runs the tests: call it
// from TestMain.
func Main(run func() int) int {
	if os.Getenv("WARREN_RUNNER") != "" {
		return run()
	}
	dir, err := os.MkdirTemp("", "warren-runner-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	runner, err := Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_ = os.Setenv("WARREN_RUNNER", runner)
	return run()
}
