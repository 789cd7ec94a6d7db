package podman

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox"
)

// TestIsolation checks the container's confinement from inside, with the
// tools of the busybox image.
func TestIsolation(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	in := func(script string) sandbox.Result {
		return run(t, m, sandbox.Request{Key: "isolation", Workspace: ws, Argv: sh(script)})
	}

	t.Run("no network", func(t *testing.T) {
		if res := in("ls /sys/class/net"); res.Stdout != "lo\n" {
			t.Fatalf("interfaces: %q", res.Stdout)
		}
	})
	t.Run("writes only to workspace and tmp", func(t *testing.T) {
		for _, p := range []string{"/x", "/etc/x", "/bin/x", "/usr/x", "/var/x", "/root/x", "/.warren/bin/x", "/.warren/bin/warren-runner"} {
			if res := in("echo x > " + p); res.ExitCode == 0 {
				t.Errorf("wrote %s", p)
			}
		}
		for _, p := range []string{"/workspace/ok", "/tmp/ok", "/dev/shm/ok"} {
			if res := in("echo x > " + p); res.ExitCode != 0 {
				t.Errorf("cannot write %s: %s", p, res.Stderr)
			}
		}
	})
	t.Run("no capabilities", func(t *testing.T) {
		res := in("grep -E '^(Cap|NoNewPrivs)' /proc/self/status")
		lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
		if len(lines) != 6 {
			t.Fatalf("status: %q", res.Stdout)
		}
		for _, l := range lines {
			f := strings.Fields(l)
			switch {
			case f[0] == "NoNewPrivs:" && f[1] != "1":
				t.Errorf("no_new_privs off: %s", l)
			case strings.HasPrefix(f[0], "Cap") && f[1] != "0000000000000000":
				t.Errorf("capability set not empty: %s", l)
			}
		}
	})
	t.Run("files stay the user's", func(t *testing.T) {
		res := in("id -u; echo x > /workspace/owned")
		fi, err := os.Stat(filepath.Join(ws, "owned"))
		if err != nil {
			t.Fatal(err)
		}
		uid := int(fi.Sys().(*syscall.Stat_t).Uid)
		if uid != probe.owner.uid || strings.TrimSpace(res.Stdout) != strconv.Itoa(probe.owner.uid) {
			t.Fatalf("file uid %d, container uid %q, service user %d", uid, res.Stdout, probe.owner.uid)
		}
	})
	t.Run("own pid namespace", func(t *testing.T) {
		// init, warren-runner, sh and ps: nothing of the host.
		res := in("ps -o pid,comm")
		if n := len(strings.Split(strings.TrimSpace(res.Stdout), "\n")) - 1; n > 5 {
			t.Fatalf("%d processes visible:\n%s", n, res.Stdout)
		}
	})
}

func TestNetworkOptIn(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	res := run(t, m, sandbox.Request{Key: "net", Network: true, Argv: sh("ls /sys/class/net")})
	if ifaces := strings.Fields(res.Stdout); len(ifaces) < 2 {
		t.Fatalf("network opt-in gave only %v", ifaces)
	}
	plain := run(t, m, sandbox.Request{Key: "net", Argv: []string{"true"}})
	if plain.Where == res.Where {
		t.Fatal("network and no-network commands shared a container")
	}
}

// userProcs counts the host's processes (threads excluded) owned by uid.
func userProcs(uid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if fi, err := os.Stat("/proc/" + e.Name()); err == nil && int(fi.Sys().(*syscall.Stat_t).Uid) == uid {
			n++
		}
	}
	return n
}

func TestForkBombContained(t *testing.T) {
	// Not parallel: it counts the host processes of the service user.
	const limit = 64
	m := newManager(t, Options{Limits: &Limits{Pids: limit}})
	s, err := m.session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !s.info.Host.Security.Rootless && !s.enforced.pids {
		t.Skip("this host enforces no process limit (rootful Podman without the pids cgroup)")
	}
	run(t, m, sandbox.Request{Key: "bomb", Argv: []string{"true"}}) // create outside the measurement
	// The bomb's processes are the container user's on the host.
	uid := probe.owner.uid
	if !s.info.Host.Security.Rootless {
		uid = os.Getuid()
	}
	before := userProcs(uid)
	done := make(chan sandbox.Result, 1)
	go func() {
		res, _ := m.Run(context.Background(), sandbox.Request{Key: "bomb", Timeout: 3 * time.Second, Argv: sh("b() { b | b & }; b; sleep 10")})
		done <- res
	}()
	peak := before
	var res sandbox.Result
wait:
	for {
		select {
		case res = <-done:
			break wait
		case <-time.After(20 * time.Millisecond):
			peak = max(peak, userProcs(uid))
		}
	}
	if grew := peak - before; grew > limit+8 {
		t.Fatalf("fork bomb grew %d processes past a limit of %d", grew, limit)
	}
	after := run(t, m, sandbox.Request{Key: "bomb", Argv: []string{"echo", "alive"}})
	if after.Stdout != "alive\n" {
		t.Fatalf("container unusable after the bomb: %+v", after)
	}
	t.Logf("bomb: %+v exit %d timed out %v; user processes %d -> peak %d; survivor in %s (bomb in %s)", len(res.Stderr), res.ExitCode, res.TimedOut, before, peak, after.Where, res.Where)
}
