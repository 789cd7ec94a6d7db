package warren

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/sandbox/podman"
)

// Without Podman a sandboxed server fails with an error that names the
// socket tried and what to run, and never falls back to the host.
func TestSandboxedMCPUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, err := Open(ctx, Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	if err := w.SetSandboxSettings(ctx, SandboxSettings{Fallback: "host"}); err != nil {
		t.Fatal(err)
	}
	w.sandbox.mu.Lock()
	w.sandbox.pod = podman.New(w.life, podman.Options{Endpoint: "unix:///nonexistent/podman.sock", NoAutoStart: true})
	w.sandbox.mu.Unlock()

	_, err = w.MCP().Test(ctx, mcp.Server{Name: "boxed", Transport: mcp.TransportStdio, Command: "/bin/true", Sandboxed: true})
	for _, want := range []string{"server boxed runs in the sandbox, but Podman is unavailable", "/nonexistent/podman.sock", "podman-setup.sh", "systemctl --user start podman.socket"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v\nwant it to say %q", err, want)
		}
	}
}
