package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/warren"
)

// The sandbox test runs a real command in a real container: where the
// workspace works, the test passes and so does the agent's first command.
func TestSandboxTestPassesWhereCommandsRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, _, _ := sbxWarren(t)
	if w.LastSandboxTest() != nil {
		t.Fatal("a test result before any test ran")
	}
	res := w.TestSandbox(ctx)
	if !res.OK || res.Failed != nil || res.At.IsZero() {
		t.Fatalf("test on a working sandbox: %+v (failed %+v)", res, res.Failed)
	}
	if last := w.LastSandboxTest(); last == nil || !last.At.Equal(res.At) {
		t.Fatalf("last test %+v", last)
	}
	call, err := w.CallTool(ctx, warren.CallRequest{Name: "exec", Args: []byte(`{"command":"echo hi > probe && cat probe"}`)})
	if err != nil || call.IsError || !strings.Contains(call.ForLLM, "hi") || !strings.Contains(call.ForLLM, "ran in: podman") {
		t.Fatalf("the first command after a passing test: %v %+v", err, call)
	}
}

// Issue 15 §5: the page said "ready, rootless" while the first command
// failed on a workspace the sandbox user cannot reach. The test names that
// check, with its fix.
func TestSandboxTestNamesTheFailingCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, _ = sbxWarren(t) // skips where no Podman answers
	if os.Getuid() != 0 {
		t.Skip("needs root: a 0700 directory of another user")
	}
	private := t.TempDir() // 0700, owned by root: the rootless sandbox user cannot enter it
	ws := filepath.Join(private, "workspace")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := warren.Open(ctx, warren.Options{DataDir: t.TempDir(), Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	res := w.TestSandbox(ctx)
	if res.OK || res.Failed == nil || res.Failed.Fix == "" {
		t.Fatalf("test on an unreachable workspace: %+v (failed %+v)", res, res.Failed)
	}
	if res.Failed.Name != "workspace" {
		t.Fatalf("failed check %q, want workspace: %+v", res.Failed.Name, res.Failed)
	}
	call, _ := w.CallTool(ctx, warren.CallRequest{Name: "exec", Args: []byte(`{"command":"true"}`)})
	if !call.IsError {
		t.Fatalf("a command ran where the test failed: %+v", call)
	}
}
