package mcp

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/secrets"
	"github.com/warren-dev/warren/backend/store"
)

// serverBin is a real MCP server installed from npm by the test setup.
func serverBin(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed: run ./scripts/bootstrap.sh (it installs backend/mcp/testdata/servers)", name)
	}
	return p
}

type fixture struct {
	store *Store
	db    *store.DB
	bus   *events.Bus
	dir   string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	box, err := secrets.Open(secrets.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{store: NewStore(db.SQL(), box), db: db, bus: events.New(), dir: dir}
}

func (f *fixture) manager(t testing.TB, opts Options) *Manager {
	t.Helper()
	opts.Store, opts.Bus = f.store, f.bus
	if opts.LogDir == "" {
		opts.LogDir = filepath.Join(f.dir, "logs")
	}
	m := NewManager(opts)
	t.Cleanup(m.Close)
	return m
}

func (f *fixture) save(t testing.TB, s Server) {
	t.Helper()
	if err := f.store.Save(context.Background(), s, ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
}

// waitState waits for a status event of server in one of the states.
func waitState(t testing.TB, ch <-chan events.Event, server string, timeout time.Duration, states ...State) Status {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev := <-ch:
			st, ok := ev.Payload.(Status)
			if !ok || st.Name != server {
				continue
			}
			for _, s := range states {
				if st.State == s {
					return st
				}
			}
		case <-deadline:
			t.Fatalf("server %s did not reach %v within %s", server, states, timeout)
		}
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startHTTPServer runs server-everything over sse or streamableHttp on a
// free port and waits until it accepts connections.
func startHTTPServer(t testing.TB, mode string) (port int, cmd *exec.Cmd) {
	t.Helper()
	port = freePort(t)
	cmd = exec.Command(serverBin(t, "mcp-server-everything"), mode) //nolint:gosec // test binary
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			_ = c.Close()
			return port, cmd
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server-everything %s did not listen on %d: %s", mode, port, stderr.String())
	return 0, nil
}

func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscallZero) != nil
}
