package podman

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox"
)

// TestWarmExecNoGrowth runs many warm execs and checks that nothing piles
// up: host processes, the runner's children, the runner's memory. Podman's
// own exec API would leave an exec session and a conmon per call.
func TestWarmExecNoGrowth(t *testing.T) {
	// Not parallel: it counts Podman's processes on the host.
	n := 10_000
	if testing.Short() {
		n = 1_000
	}
	m := newManager(t, Options{})
	req := sandbox.Request{Key: "growth", Argv: []string{"sh", "-c", "echo hi"}}
	for range 50 { // warm up: the container, the runner's threads and buffers
		run(t, m, req)
	}
	runnerPID := runnerPid(t, m, "growth")
	procsBefore, rssBefore := hostProcs(), rssKB(runnerPID)
	start := time.Now()
	for i := range n {
		if res := run(t, m, req); res.Stdout != "hi\n" {
			t.Fatalf("exec %d: %+v", i, res)
		}
	}
	elapsed := time.Since(start)
	// Let the last command's group be reaped by the init.
	time.Sleep(200 * time.Millisecond)
	procsAfter, rssAfter := hostProcs(), rssKB(runnerPID)
	kids := children(runnerPID)
	t.Logf("%d execs in %s (%s each); host processes %d -> %d; runner children %d; runner RSS %d -> %d kB",
		n, elapsed.Round(time.Millisecond), elapsed/time.Duration(n), procsBefore, procsAfter, len(kids), rssBefore, rssAfter)
	if procsAfter > procsBefore+3 {
		t.Errorf("host processes grew from %d to %d", procsBefore, procsAfter)
	}
	if len(kids) != 0 {
		t.Errorf("runner still has children %v", kids)
	}
	if rssAfter > rssBefore+8<<10 {
		t.Errorf("runner RSS grew from %d to %d kB", rssBefore, rssAfter)
	}
}

// hostProcs counts the host processes Podman execs leave behind (conmon
// and podman exec sessions). Counting every process would also count other
// test binaries that go test runs at the same time.
func hostProcs() int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil {
			continue
		}
		switch strings.TrimSpace(string(comm)) {
		case "conmon", "podman", "runc", "catatonit":
			n++
		}
	}
	return n
}

// runnerPid finds the key's warren-runner on the host: the child of the
// container's init.
func runnerPid(t testing.TB, m *Manager, key string) int {
	t.Helper()
	var id string
	m.mu.Lock()
	for k, b := range m.boxes {
		if k.key == key {
			id = b.id
		}
	}
	m.mu.Unlock()
	s, err := m.session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.api.inspect(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	kids := children(st.Pid)
	if len(kids) != 1 {
		t.Fatalf("init %d has children %v, want the runner alone", st.Pid, kids)
	}
	return kids[0]
}

func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(s); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

func rssKB(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

func TestPrune(t *testing.T) {
	// Not parallel: Prune(all) removes every other live manager's
	// containers, including those of tests running alongside.
	m := newManager(t, Options{})
	run(t, m, sandbox.Request{Key: "prune-mine", Argv: []string{"true"}})
	s, err := m.session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	// Two leftovers: one of a crashed Warren, one of a live other Warren.
	mk := func(name string, pid int) {
		spec := &containerSpec{Name: name + "-" + randomHex(3), Image: DefaultImage, Entrypoint: []string{"/bin/true"}, Command: []string{},
			Labels: map[string]string{labelSandbox: "1", labelKey: name, labelOwnerPID: strconv.Itoa(pid), labelInstance: "other-" + name}}
		if _, _, err := s.api.create(context.Background(), spec); err != nil {
			t.Fatal(err)
		}
	}
	mk("warren-crashed", dead.Process.Pid)
	mk("warren-alive", os.Getpid())
	// Socket directories without a container: an old one is a leftover; a
	// fresh one may be another Warren's container being created right now.
	old, fresh := filepath.Join(m.opts.StateDir, "warren-leftover-"+randomHex(3)), filepath.Join(m.opts.StateDir, "warren-creating-"+randomHex(3))
	for _, d := range []string{old, fresh} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = os.RemoveAll(fresh) })
	if err := os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}

	keys := func(ps []Pruned) string {
		var k []string
		for _, p := range ps {
			if strings.HasPrefix(p.Key, "warren-") {
				k = append(k, p.Key)
			}
		}
		return strings.Join(k, ",")
	}
	pruned, err := m.Prune(context.Background(), false)
	if err != nil || keys(pruned) != "warren-crashed" {
		t.Fatalf("prune: %v %v", pruned, err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("an old socket directory without a container was kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh socket directory (a container being created) was removed: %v", err)
	}
	// all: other live Warren processes' containers too, never our own. (Other
	// tests' managers are live too; only check ours survive.)
	pruned, err = m.Prune(context.Background(), true)
	if err != nil || !strings.Contains(keys(pruned), "warren-alive") {
		t.Fatalf("prune all: %v %v", pruned, err)
	}
	if res := run(t, m, sandbox.Request{Key: "prune-mine", Argv: []string{"true"}}); res.ExitCode != 0 {
		t.Fatalf("own container pruned: %+v", res)
	}
}

func TestUnavailable(t *testing.T) {
	t.Parallel()
	m := New(context.Background(), Options{Endpoint: "unix:///nonexistent/podman.sock", NoAutoStart: true, Runner: testRunner})
	defer m.Close(context.Background())
	req := sandbox.Request{Argv: []string{"echo", "hi"}}
	if _, err := m.Run(context.Background(), req); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if st := m.Status(context.Background()); st.Connected || st.Error == "" {
		t.Fatalf("status %+v", st)
	}
	deny := &sandbox.Router{Sandbox: m, Host: &sandbox.Host{}}
	if _, err := deny.Run(context.Background(), req); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("fallback=deny ran it: %v", err)
	}
	host := &sandbox.Router{Sandbox: m, Host: &sandbox.Host{}, Fallback: sandbox.FallbackHost}
	res, err := host.Run(context.Background(), req)
	if err != nil || res.Stdout != "hi\n" || !res.Fallback || res.Where != "host" || len(res.Warnings) == 0 {
		t.Fatalf("fallback=host: %+v %v", res, err)
	}
}

// TestStartService starts a service the way Warren does when none runs,
// on a socket of its own, and checks it answers and exits when idle.
func TestStartService(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("podman"); err != nil {
		t.Skip("podman not installed")
	}
	dir, err := os.MkdirTemp(testBase, "xdg-")
	if err != nil {
		t.Fatal(err)
	}
	env := systemEnv(func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return dir
		}
		return os.Getenv(k)
	}, "")
	env.EnvFile = "" // root: no setup file to defer to
	a, ep, err := startService(context.Background(), env, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ep.Source != "started" || ep.SocketPath() != filepath.Join(dir, "podman", "podman.sock") {
		t.Fatalf("endpoint %+v", ep)
	}
	if _, err := a.info(context.Background()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); reachable(context.Background(), ep); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the started service did not exit when idle")
		}
	}
}

// TestBuildImage builds the offline image under a test tag, runs a
// sandbox from it, and checks that --from fails cleanly without a registry.
func TestBuildImage(t *testing.T) {
	t.Parallel()
	ref := "localhost/warren-sandbox-test:" + randomHex(4)
	m := newManager(t, Options{Image: ref})
	rep, err := m.BuildImage(context.Background(), ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s, err := m.session(context.Background()); err == nil {
			_ = s.api.removeImage(context.Background(), ref)
		}
	})
	if rep.Image != ref || rep.ID == "" || !strings.HasPrefix(rep.Source, "busybox-static") {
		t.Fatalf("report %+v", rep)
	}
	res := run(t, m, sandbox.Request{Key: "img", Argv: sh("ls -ld /tmp /workspace | cut -c1-10; readlink /usr/bin/env; cat /etc/passwd | head -1")})
	if res.Stdout != "drwxrwxrwt\ndrwxr-xr-x\n/bin/busybox\nroot:x:0:0:root:/root:/bin/sh\n" {
		t.Fatalf("image contents: %q", res.Stdout)
	}
	if _, err := m.BuildImage(context.Background(), ImageOptions{Image: ref + "-pulled", From: "localhost:1/none:latest"}); err == nil {
		t.Fatal("pull from nowhere succeeded")
	}
	missing := newManager(t, Options{Image: "localhost/warren-no-such-image:1"})
	if _, err := missing.Run(context.Background(), sandbox.Request{Argv: []string{"true"}}); !errors.Is(err, sandbox.ErrUnavailable) || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("missing image: %v", err)
	}
}
