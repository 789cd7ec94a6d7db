package podman

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox"
)

func run(t testing.TB, m *Manager, req sandbox.Request) sandbox.Result {
	t.Helper()
	res, err := m.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("run %v: %v", req.Argv, err)
	}
	return res
}

func sh(script string) []string { return []string{"sh", "-c", script} }

func TestRunInContainer(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{Inject: map[string]string{"WARREN_INJECTED": "yes"}})
	ws := newWorkspace(t)
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}

	res := run(t, m, sandbox.Request{Key: "s1", Workspace: ws, Dir: filepath.Join(ws, "sub"),
		Argv: sh(`pwd; env; echo oops >&2; echo made > /workspace/made.txt; exit 3`), Env: map[string]string{"FOO": "bar"}})
	if res.ExitCode != 3 || !strings.HasPrefix(res.Stdout, "/workspace/sub\n") || res.Stderr != "oops\n" {
		t.Fatalf("%+v", res)
	}
	if !strings.HasPrefix(res.Where, "podman:") || len(res.Where) != len("podman:")+12 {
		t.Fatalf("where = %q", res.Where)
	}
	for _, want := range []string{"FOO=bar", "WARREN_INJECTED=yes", "HOME=/tmp"} {
		if !strings.Contains(res.Stdout, want) {
			t.Fatalf("env lacks %s: %s", want, res.Stdout)
		}
	}
	// Nothing of the host's environment (API keys…) gets in: only what
	// Warren sets and what sh adds.
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "FOO": true, "WARREN_INJECTED": true, "PWD": true, "SHLVL": true}
	for _, line := range strings.Split(res.Stdout, "\n")[1:] {
		if k, _, ok := strings.Cut(line, "="); ok && !allowed[k] {
			t.Fatalf("unexpected variable %s in the sandbox", k)
		}
	}
	if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "made\n" {
		t.Fatalf("workspace write not on the host: %q %v", b, err)
	}

	// Same key: same container. Another key: another one.
	again := run(t, m, sandbox.Request{Key: "s1", Workspace: ws, Argv: []string{"cat", "made.txt"}})
	other := run(t, m, sandbox.Request{Key: "s2", Workspace: ws, Argv: []string{"true"}})
	if again.Where != res.Where || again.Stdout != "made\n" || other.Where == res.Where {
		t.Fatalf("reuse: %q %q %q", res.Where, again.Where, other.Where)
	}
	st := m.Status(context.Background())
	keys := map[string]bool{}
	for _, c := range st.Containers {
		if c.Mine {
			keys[c.Key] = true
		}
	}
	if !st.Connected || !keys["s1"] || !keys["s2"] || !st.ImagePresent {
		t.Fatalf("status: %+v", st)
	}

	if _, err := m.Run(context.Background(), sandbox.Request{Key: "s1", Workspace: ws, Argv: []string{"no-such-command"}}); err == nil || errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("missing command: %v", err)
	}
	if _, err := m.Run(context.Background(), sandbox.Request{Key: "s1", Workspace: ws, Dir: "/etc", Argv: []string{"true"}}); err == nil {
		t.Fatal("dir outside the workspace accepted")
	}
}

func TestScratchWorkspace(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	res := run(t, m, sandbox.Request{Key: "scratch", Argv: sh("echo hi > /workspace/f && cat /workspace/f")})
	if res.Stdout != "hi\n" || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
}

func TestTimeoutKill(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	res := run(t, m, sandbox.Request{Key: "timeout", Workspace: ws, Timeout: 300 * time.Millisecond, Argv: sh("sleep 30 & sleep 30")})
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	// Nothing of it is left in the container: only the init, the runner
	// and this ps. The group is killed when the timeout fires; on a loaded
	// machine init may not have reaped the background sleep yet, so look
	// again for a moment before calling it a survivor.
	deadline := time.Now().Add(3 * time.Second)
	for {
		ps := run(t, m, sandbox.Request{Key: "timeout", Workspace: ws, Argv: []string{"ps", "-o", "comm"}})
		if !strings.Contains(ps.Stdout, "sleep") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sleep survived the timeout:\n%s", ps.Stdout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestCancelKills(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	run(t, m, sandbox.Request{Key: "cancel", Workspace: ws, Argv: []string{"true"}}) // warm
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := m.Run(ctx, sandbox.Request{Key: "cancel", Workspace: ws, Argv: []string{"sleep", "30"}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		ps := run(t, m, sandbox.Request{Key: "cancel", Workspace: ws, Argv: []string{"ps", "-o", "comm"}})
		if !strings.Contains(ps.Stdout, "sleep") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sleep survived the cancel:\n%s", ps.Stdout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestOutputCap(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	res := run(t, m, sandbox.Request{Key: "cap", MaxOutput: 1000, Argv: sh("yes | head -c 5000000; yes e | head -c 5000 >&2")})
	if len(res.Stdout) != 1000 || len(res.Stderr) != 1000 || !res.Truncated || res.ExitCode != 0 {
		t.Fatalf("stdout %d stderr %d truncated %v exit %d", len(res.Stdout), len(res.Stderr), res.Truncated, res.ExitCode)
	}
}

func TestRecreateDeadContainer(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	first := run(t, m, sandbox.Request{Key: "phoenix", Argv: []string{"true"}})
	m.mu.Lock()
	var id string
	for _, b := range m.boxes {
		if b.key.key == "phoenix" {
			id = b.id
		}
	}
	m.mu.Unlock()
	s, err := m.session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.api.remove(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	second := run(t, m, sandbox.Request{Key: "phoenix", Argv: []string{"true"}})
	if second.Where == first.Where || second.ExitCode != 0 {
		t.Fatalf("%q then %q", first.Where, second.Where)
	}
}

func TestIdleRemovalAndClose(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{IdleTimeout: 300 * time.Millisecond})
	run(t, m, sandbox.Request{Key: "idle", Argv: []string{"true"}})
	if n := mine(t, m); n != 1 {
		t.Fatalf("%d containers after first use", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for mine(t, m) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("idle container not removed")
		}
		time.Sleep(100 * time.Millisecond)
	}

	m2 := newManager(t, Options{})
	run(t, m2, sandbox.Request{Key: "a", Argv: []string{"true"}})
	run(t, m2, sandbox.Request{Key: "b", Argv: []string{"true"}})
	if n := mine(t, m2); n != 2 {
		t.Fatalf("%d containers", n)
	}
	if err := m2.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := mine(t, m2); n != 0 {
		t.Fatalf("%d containers left after Close", n)
	}
	if _, err := m2.Run(context.Background(), sandbox.Request{Argv: []string{"true"}}); err == nil {
		t.Fatal("run after Close")
	}
}

// mine counts the service's containers labelled with m's instance.
func mine(t testing.TB, m *Manager) int {
	t.Helper()
	s, err := m.session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.api.list(context.Background(), labelInstance+"="+m.instance)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}
