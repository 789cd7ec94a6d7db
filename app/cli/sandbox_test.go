//go:build linux

package cli_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/warren-dev/warren/sandbox/podman"
)

// sandboxOwner returns the uid/gid of the Podman service's user, failing
// (on a machine set up for the sandbox) or skipping when none answers.
func sandboxOwner(t *testing.T, dir string) (uid, gid int) {
	t.Helper()
	r := warren(t, dir, "sandbox", "status", "--json")
	var st struct {
		Podman podman.Status `json:"podman"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil {
		t.Fatalf("sandbox status: %+v", r)
	}
	if !st.Podman.Connected {
		msg := "no Podman service answered (" + st.Podman.Error + "); run scripts/podman-setup.sh as root to set one up"
		if _, err := os.Stat(podman.DefaultEnvFile); err == nil || os.Getenv("WARREN_REQUIRE_PODMAN") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	u, err := url.Parse(st.Podman.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var fi syscall.Stat_t
	if err := syscall.Stat(u.Path, &fi); err != nil {
		t.Fatal(err)
	}
	return int(fi.Uid), int(fi.Gid)
}

// reachableDir makes a directory the sandbox's user owns, under a parent it
// may pass through.
func reachableDir(t *testing.T, uid, gid int) string {
	t.Helper()
	base, err := os.MkdirTemp("", "warren-cli-sbx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	if err := os.Mkdir(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(ws, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// TestToolCallRunsAsTheAgent: `warren tool call exec --agent A` uses A's
// workspace and network switch, as A's own calls do: with the network
// opt-in the sandbox shows an interface besides lo, without it only lo.
func TestToolCallRunsAsTheAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	uid, gid := sandboxOwner(t, dir)
	ws := reachableDir(t, uid, gid)
	if err := os.WriteFile(filepath.Join(ws, "agent-marker"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, network := range []string{"on", "off"} {
		if r := warren(t, dir, "agents", "add", "net-"+network, "--workspace", ws, "--network", network); r.code != 0 {
			t.Fatalf("agents add: %+v", r)
		}
		r := warren(t, dir, "tool", "call", "exec", `{"command":"ls /workspace; echo --; ls /sys/class/net"}`,
			"--agent", "net-"+network, "--approve", "no", "--session", "net-"+network)
		if r.code != 0 || !strings.Contains(r.stdout, "ran in: podman:") {
			t.Fatalf("network %s: %+v", network, r)
		}
		files, ifaces, _ := strings.Cut(strings.SplitN(r.stdout, "--- stdout ---\n", 2)[1], "--\n")
		if !strings.Contains(files, "agent-marker") {
			t.Fatalf("network %s: the call did not run in the agent's workspace: %q", network, files)
		}
		names := strings.Fields(strings.SplitN(ifaces, "--- stderr ---", 2)[0])
		others := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "lo" })
		if (network == "on") != (len(others) > 0) {
			t.Fatalf("network %s: interfaces %v", network, names)
		}
	}
}

// TestUnreachableWorkspaceSaysWhy: a workspace the sandbox's user cannot
// enter (root's 0700 temp folder) is refused before Podman is asked, with
// the cause and the fix, not Podman's raw statfs error.
func TestUnreachableWorkspaceSaysWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	uid, _ := sandboxOwner(t, dir)
	if os.Getuid() == 0 && uid == 0 || os.Getuid() == uid {
		t.Skip("the service runs as this user: every workspace of ours is reachable")
	}
	closed, err := os.MkdirTemp("", "warren-closed-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(closed) })
	r := warren(t, dir, "tool", "call", "exec", `{"command":"true"}`, "--workspace", closed, "--approve", "no")
	if r.code != 1 || !strings.Contains(r.stderr, "cannot use the workspace "+closed) || !strings.Contains(r.stderr, "Fix: ") ||
		strings.Contains(r.stderr, "statfs") || strings.Contains(r.stderr, "Start Podman") {
		t.Fatalf("%+v", r)
	}
}

// TestSandboxDoctor runs every check with real containers; on a machine
// the set-up prepared, all pass.
func TestSandboxDoctor(t *testing.T) {
	t.Parallel()
	// The data directory sits where the sandbox's user may pass, so the
	// workspace Warren makes beside it is handed to that user (as root).
	uid, gid := sandboxOwner(t, t.TempDir())
	dir := filepath.Join(filepath.Dir(reachableDir(t, uid, gid)), "data")
	r := warren(t, dir, "sandbox", "doctor", "--json")
	var checks []podman.Check
	if err := json.Unmarshal([]byte(r.stdout), &checks); err != nil {
		t.Fatalf("doctor --json: %v\n%+v", err, r)
	}
	names := map[string]bool{}
	for _, c := range checks {
		names[c.Name] = true
		if !c.OK {
			t.Errorf("FAIL %s: %s (fix: %s)", c.Name, c.Detail, c.Fix)
		}
	}
	for _, want := range []string{"socket", "service", "image", "runner", "workspace", "run", "network run"} {
		if !names[want] {
			t.Errorf("no %q check in %+v", want, checks)
		}
	}
	if r.code != 0 {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}
