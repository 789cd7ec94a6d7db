package warren_test

import (
	"os"
	"testing"

	"github.com/warren-dev/warren/sandbox/runner/runnertest"
)

// TestMain builds warren-runner once for the sandboxed exec tests (the
// attack corpus, the approval-fatigue session).
func TestMain(m *testing.M) { os.Exit(runnertest.Main(m.Run)) }
