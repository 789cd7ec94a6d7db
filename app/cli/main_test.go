package cli_test

import (
	"os"
	"testing"

	"github.com/warren-dev/warren/sandbox/runner/runnertest"
)

// TestMain builds warren-runner, the sandbox's in-container exec service,
// so sandboxed exec calls made through the CLI find it ($WARREN_RUNNER), as
// a built warren finds the copy next to itself.
func TestMain(m *testing.M) {
	if os.Getenv("WARREN_TEST_CLI_ARGS") != "" { // a child process (mcp_test.go)
		os.Exit(m.Run())
	}
	os.Exit(runnertest.Main(m.Run))
}
