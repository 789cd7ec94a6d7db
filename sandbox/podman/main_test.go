package podman

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox/runner/runnertest"
)

// The integration tests run against the real Podman service the tests find
// the way Warren does (CONTAINER_HOST, the setup script's env file when
// root, the user's socket). In CI that is the rootless service of the
// unprivileged user scripts/podman-setup.sh creates, while the tests run as
// root: test workspaces and state directories therefore live under one
// base directory (0711) and are chowned to the service's user, as Warren's
// own state directory is (see handTo).
var (
	testRunner string // warren-runner built by TestMain
	testBase   string // parent of test workspaces and state dirs

	probeOnce sync.Once
	probe     struct {
		skip  string
		fail  string
		owner owner
		uri   string
	}
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(stdioHelperEnv); spec != "" {
		os.Exit(stdioHelper(spec)) // a child playing Warren (stdio_test.go)
	}
	code, err := runTests(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "podman tests:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runTests(m *testing.M) (int, error) {
	var err error
	if testBase, err = os.MkdirTemp("", "warren-sandbox-test-"); err != nil {
		return 0, err
	}
	defer os.RemoveAll(testBase)
	if err := os.Chmod(testBase, 0o711); err != nil {
		return 0, err
	}
	if testRunner, err = runnertest.Build(filepath.Join(testBase, "bin")); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

// requirePodman skips when no Podman socket answers, unless the machine
// was set up for the sandbox (the env file exists) or WARREN_REQUIRE_PODMAN
// is set: then a missing service is a failure, not a skip.
func requirePodman(t testing.TB) {
	t.Helper()
	probeOnce.Do(func() {
		m := New(context.Background(), Options{NoAutoStart: true, Runner: testRunner, StateDir: filepath.Join(testBase, "probe")})
		defer m.Close(context.Background())
		st := m.Status(context.Background())
		if !st.Connected {
			msg := "no Podman socket answered (" + st.Error + "); run scripts/podman-setup.sh as root to set one up"
			if _, err := os.Stat(DefaultEnvFile); err == nil || os.Getenv("WARREN_REQUIRE_PODMAN") != "" {
				probe.fail = msg
			} else {
				probe.skip = msg
			}
			return
		}
		probe.uri = st.Endpoint
		probe.owner = pathOwner(Endpoint{URI: st.Endpoint}.SocketPath())
	})
	if probe.fail != "" {
		t.Fatal(probe.fail)
	}
	if probe.skip != "" {
		t.Skip(probe.skip)
	}
}

// newManager returns a manager on the test service, closed at cleanup.
func newManager(t testing.TB, opts Options) *Manager {
	t.Helper()
	requirePodman(t)
	opts.Runner = testRunner
	opts.NoAutoStart = true
	if opts.StateDir == "" {
		d, err := os.MkdirTemp(testBase, "state-")
		if err != nil {
			t.Fatal(err)
		}
		opts.StateDir = d
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := New(ctx, opts)
	t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
		defer ccancel()
		if err := m.Close(cctx); err != nil {
			t.Errorf("close: %v", err)
		}
		cancel()
	})
	return m
}

// newWorkspace makes a workspace the service's user can use.
func newWorkspace(t testing.TB) string {
	t.Helper()
	requirePodman(t)
	d, err := os.MkdirTemp(testBase, "ws-")
	if err != nil {
		t.Fatal(err)
	}
	if err := handTo(d, probe.owner); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
