//go:build unix

package warren_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
)

// A status snapshot speaks for its writer only while the writer lives and
// reports: a stopped (SIGSTOP) window is "has not reported", a killed one
// "is gone", and neither is shown as connected.
func TestMCPSnapshotOfAGoneWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := open(t, dir)
	ctx := context.Background()
	if err := w.SaveMCPServer(ctx, wmcp.Server{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true}, wmcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	window := exec.Command(os.Args[0], "-test.run=^TestHelperMCPWindow$") //nolint:gosec // the test binary itself
	window.Env = append(os.Environ(), "WARREN_TEST_WINDOW_PROCESS=1", "WARREN_TEST_DIR="+dir)
	if err := window.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = window.Process.Kill(); _ = window.Wait() })

	waitView(t, w, "the window's connected report", func(v warren.MCPServerView) bool {
		return v.Source != "" && v.Status.State == wmcp.StateConnected
	})
	if err := window.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	v := waitView(t, w, "a stale heartbeat", func(v warren.MCPServerView) bool { return v.WriterGone })
	if !strings.Contains(v.Status.Warning, "has not reported since") || v.Status.State != wmcp.StateStopped {
		t.Fatalf("stopped window: %+v", v)
	}
	if err := window.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	waitView(t, w, "the window's report after SIGCONT", func(v warren.MCPServerView) bool {
		return v.Source != "" && v.Status.State == wmcp.StateConnected
	})
	if err := window.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = window.Wait()
	v = waitView(t, w, "a gone writer", func(v warren.MCPServerView) bool { return v.WriterGone })
	if !strings.Contains(v.Status.Warning, "is gone") || !strings.Contains(v.Status.Warning, "it last said connected") ||
		v.Status.State != wmcp.StateStopped || v.Source != "" {
		t.Fatalf("killed window: %+v", v)
	}
}

// waitView polls the one server's view until ok or a deadline.
func waitView(t *testing.T, w *warren.Warren, what string, ok func(warren.MCPServerView) bool) warren.MCPServerView {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var last warren.MCPServerView
	for time.Now().Before(deadline) {
		views, err := w.MCPServerViews(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(views) == 1 {
			last = views[0]
			if ok(last) {
				return last
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("never saw %s; last view %+v", what, last)
	return last
}

// TestHelperMCPWindow plays the window: it runs the servers and writes the
// status snapshot until killed.
func TestHelperMCPWindow(t *testing.T) {
	if os.Getenv("WARREN_TEST_WINDOW_PROCESS") == "" {
		t.Skip("helper process")
	}
	w, err := warren.Open(context.Background(), warren.Options{DataDir: os.Getenv("WARREN_TEST_DIR")})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_ = w.RunMCP(context.Background())
}
