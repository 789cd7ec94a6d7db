package podman

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/sandbox"
)

// Scripts run in the container with Warren's interpreter and the sandbox
// policy: the deny categories stop the script however they are reached,
// everything else runs (the container is the boundary).
func TestScriptInContainer(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	ctx := context.Background()
	reset := func() {
		if err := os.MkdirAll(filepath.Join(ws, "victim", "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := handTo(filepath.Join(ws, "victim"), probe.owner); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range []string{`X=rm; $X -rf victim`, `echo 'rm -rf victim' | sh`, `sh -c 'rm -r -f victim'`, `((rm -rf victim)); true &>/dev/null rm -rf victim`} {
		reset()
		res, err := m.Run(ctx, sandbox.Request{Script: src, Key: "script", Workspace: ws})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := os.Stat(filepath.Join(ws, "victim", "sub")); err != nil {
			t.Errorf("%s deleted the victim in the container: %+v", src, res)
		}
		if strings.Contains(src, "X=rm") && !strings.Contains(res.Refused, "destructive") {
			t.Errorf("%s: refused %q", src, res.Refused)
		}
	}
	res, err := m.Run(ctx, sandbox.Request{Script: `unknown-tool-x 2>/dev/null; echo made > f && cat f && sh -c 'echo nested $0' && pwd`, Key: "script", Workspace: ws})
	if err != nil || res.Refused != "" || res.Stdout != "made\nnested sh\n/workspace\n" {
		t.Fatalf("benign script: %+v %v", res, err)
	}
}
