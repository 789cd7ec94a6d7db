package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitFor polls a server's status in m until ok or a deadline.
func waitFor(t *testing.T, m *Manager, name, what string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, _ := m.status(name)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: never %s; last status %+v", name, what, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A failed server is retried by Start (enable) and by another process's
// request; a restart request restarts a connected server, a retry request
// leaves it be.
func TestRestartAndRetry(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	flag := filepath.Join(t.TempDir(), "ready")
	script := "test -f " + flag + " || { echo 'waiting for the flag file' >&2; exit 3; }; exec " + serverBin(t, "mcp-server-everything") + " stdio"
	f.save(t, Server{Name: "flaky", Transport: TransportStdio, Command: "sh", Args: []string{"-c", script}, Enabled: true})
	ctx := context.Background()
	window := f.manager(t, Options{Backoff: Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Attempts: 2}})
	cli := f.manager(t, Options{})
	if err := window.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	failed := func(st Status) bool { return st.State == StateFailed }
	connected := func(st Status) bool { return st.State == StateConnected }
	waitFor(t, window, "flaky", "failed", failed)

	// Start on a failed server retries it at once.
	if err := window.Start(ctx, "flaky"); err != nil {
		t.Fatal(err)
	}
	if st, _ := window.status("flaky"); st.State == StateFailed {
		t.Fatal("Start left a failed server failed")
	}
	waitFor(t, window, "flaky", "failed", failed)

	// Another process asks for a retry; the window takes it on its next Sync.
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cli.RequestRestart(ctx, "flaky", true); err != nil {
		t.Fatal(err)
	}
	if err := window.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	first := waitFor(t, window, "flaky", "connected after the retry request", connected)

	// A retry request leaves a connected server be; a restart request does not.
	if err := cli.RequestRestart(ctx, "flaky", true); err != nil {
		t.Fatal(err)
	}
	if err := window.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	if st, _ := window.status("flaky"); st.PID != first.PID || st.State != StateConnected {
		t.Fatalf("a retry request touched a connected server: %+v", st)
	}
	if err := cli.RequestRestart(ctx, "flaky", false); err != nil {
		t.Fatal(err)
	}
	if err := window.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, window, "flaky", "connected with a new process", func(st Status) bool {
		return st.State == StateConnected && st.PID != first.PID
	})
	if err := cli.RequestRestart(ctx, "nosuch", false); err == nil {
		t.Fatal("restart of an unknown server did not fail")
	}
}
