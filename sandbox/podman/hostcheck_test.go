//go:build linux

package podman

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/warren-dev/warren/sandbox"
)

// nobody is a user that owns none of the test's folders.
var nobody = owner{65534, 65534}

func TestCheckWorkspace(t *testing.T) {
	t.Parallel()
	base, err := os.MkdirTemp(testBase, "check-") // 0700, ours, in a passable folder
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	closedWS := filepath.Join(base, "ws")
	if err := os.Mkdir(closedWS, 0o777); err != nil {
		t.Fatal(err)
	}
	err = checkWorkspace(closedWS, nobody)
	var se *SetupError
	if !errors.As(err, &se) || !strings.Contains(se.Cause, "may not enter "+base) || !strings.Contains(se.Fix, "chmod o+x "+base) {
		t.Fatalf("closed parent: %v", err)
	}
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(closedWS, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := checkWorkspace(closedWS, nobody); !errors.As(err, &se) || !strings.Contains(se.Cause, "cannot use the workspace "+closedWS) ||
		!strings.Contains(se.Cause, "drwx------") || !strings.Contains(se.Fix, "chown -R") {
		t.Fatalf("closed workspace: %v", err)
	}
	if err := os.Chmod(closedWS, 0o777); err != nil { //nolint:gosec // the point of the test
		t.Fatal(err)
	}
	if err := checkWorkspace(closedWS, nobody); err != nil {
		t.Fatalf("open workspace: %v", err)
	}
	if err := checkWorkspace(filepath.Join(base, "missing"), nobody); !errors.As(err, &se) {
		t.Fatalf("missing workspace: %v", err)
	}
	// Root and unknown users are not checked.
	if checkWorkspace("/root", owner{0, 0}) != nil || checkWorkspace("/root", owner{-1, -1}) != nil {
		t.Fatal("root or unknown user checked")
	}
}

func TestAllowedBits(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	fi, err := os.Stat(base)
	if err != nil {
		t.Fatal(err)
	}
	st := statOf(t, fi)
	me := owner{int(st.Uid), int(st.Gid)}
	for _, tc := range []struct {
		name   string
		u      owner
		groups map[int]bool
		perm   os.FileMode
		want   os.FileMode
	}{
		{"owner", me, nil, 0o750, 7},
		{"group", nobody, map[int]bool{int(st.Gid): true}, 0o750, 5},
		{"other", nobody, nil, 0o751, 1},
		{"owner gets owner bits even when others get more", me, nil, 0o077, 0},
	} {
		if got := allowed(tc.perm, st, tc.u, tc.groups); got != tc.want {
			t.Errorf("%s: %o, want %o", tc.name, got, tc.want)
		}
	}
}

// Podman's raw failures whose cause is known become one line with the
// cause and the fix.
func TestExplainStartError(t *testing.T) {
	t.Parallel()
	base := t.TempDir() // 0700: nobody cannot enter it
	ws := filepath.Join(base, "ws")
	if err := os.Mkdir(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	raw := []struct {
		msg string
		in  startCheck
	}{
		{`create container: statfs ` + ws + `: permission denied`, startCheck{Workspace: ws, User: nobody}},
		{`start container: runc create failed: chdir to cwd ("/workspace") set in config.json failed: permission denied`, startCheck{Workspace: ws, User: nobody}},
		{"start container: failed to start slirp4netns: open(\"/dev/net/tun\"): Permission denied\nWARN[0000] …", startCheck{Network: true, User: nobody, Rootless: true}},
	}
	for _, r := range raw {
		err := explainStartError(errors.New(r.msg), r.in)
		var se *SetupError
		if !errors.As(err, &se) || strings.Contains(err.Error(), "\n") || se.Fix == "" || errors.Is(err, sandbox.ErrUnavailable) {
			t.Errorf("%q became %v", r.msg, err)
		}
	}
	other := errors.New("create container: image not known")
	if err := explainStartError(other, startCheck{Workspace: ws, User: nobody}); err != other {
		t.Errorf("an unknown failure was rewritten: %v", err)
	}
}

// A workspace Warren made itself that the sandbox's user cannot use is
// handed to that user; one the user chose is refused with the fix, and the
// refusal is not a reason to fall back to the host.
func TestOwnWorkspaceHandedOver(t *testing.T) {
	t.Parallel()
	requirePodman(t)
	if os.Getuid() != 0 || probe.owner.uid <= 0 {
		t.Skip("only root running an unprivileged user's service hands workspaces over")
	}
	mine, err := os.MkdirTemp(testBase, "own-ws-")
	if err != nil {
		t.Fatal(err)
	}
	chosen, err := os.MkdirTemp(testBase, "chosen-ws-")
	if err != nil {
		t.Fatal(err)
	}
	m := newManager(t, Options{OwnWorkspace: func(d string) bool { return d == mine }})
	ctx := context.Background()
	res, err := m.Run(ctx, sandbox.Request{Argv: []string{"sh", "-c", "touch /workspace/made && echo ok"}, Key: "own-ws", Workspace: mine})
	if err != nil || strings.TrimSpace(res.Stdout) != "ok" {
		t.Fatalf("own workspace: %+v %v", res, err)
	}
	if o := pathOwner(mine); o != probe.owner {
		t.Fatalf("own workspace owner %+v, want %+v", o, probe.owner)
	}
	_, err = m.Run(ctx, sandbox.Request{Argv: []string{"true"}, Key: "chosen-ws", Workspace: chosen})
	var se *SetupError
	if !errors.As(err, &se) || errors.Is(err, sandbox.ErrUnavailable) || !strings.Contains(se.Cause, "cannot use the workspace "+chosen) {
		t.Fatalf("chosen workspace: %v", err)
	}
	if o := pathOwner(chosen); o.uid != 0 {
		t.Fatalf("a workspace the user chose was handed over: %+v", o)
	}
}

// TestDoctor: on a machine the set-up prepared, every check passes, the
// run checks included, and their containers are gone afterwards.
func TestDoctor(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	checks := m.Doctor(context.Background(), DoctorOptions{Workspace: ws, Run: true, Network: true})
	names := map[string]bool{}
	for _, c := range checks {
		names[c.Name] = true
		if !c.OK {
			t.Errorf("FAIL %s: %s (fix: %s)", c.Name, c.Detail, c.Fix)
		}
	}
	for _, want := range []string{"socket", "service", "cgroup limits", "image", "runner", "workspace", "run", "network run"} {
		if !names[want] {
			t.Errorf("no %q check: %+v", want, checks)
		}
	}
	for _, c := range m.Status(context.Background()).Containers {
		if strings.HasPrefix(c.Key, "warren-doctor-") && c.Mine {
			t.Errorf("doctor container left: %+v", c)
		}
	}
}

func statOf(t *testing.T, fi os.FileInfo) *syscall.Stat_t {
	t.Helper()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Fatal("no Stat_t")
	}
	return st
}
