//go:build linux

package warren_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/sandbox/podman"
)

// These tests run sandboxed MCP servers through the real wiring (the
// core's mcp.Manager calling mcpSandboxCommand) on the real rootless
// Podman service. They skip where no Podman answers, unless the machine was
// set up for the sandbox (scripts/podman-setup.sh's env file exists) or
// WARREN_REQUIRE_PODMAN is set.

// sbxServerBin is a real MCP server installed from npm by bootstrap.
func sbxServerBin(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "mcp", "testdata", "servers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed: run ./scripts/bootstrap.sh", name)
	}
	return p
}

// sbxWarren opens a Warren whose workspace the Podman service's user can
// use (tests run as root against an unprivileged user's service, as CI
// does), and returns it with a directory outside every mount.
func sbxWarren(t testing.TB) (w *warren.Warren, ws, outside string) {
	t.Helper()
	ctx := context.Background()
	base, err := os.MkdirTemp("", "warren-mcp-sandbox-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	ws, outside = filepath.Join(base, "workspace"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	w, err = warren.Open(ctx, warren.Options{DataDir: t.TempDir(), Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })

	st := w.SandboxStatus(ctx).Podman
	if !st.Connected {
		msg := "no Podman service answered (" + st.Error + "); run scripts/podman-setup.sh as root to set one up"
		if _, err := os.Stat(podman.DefaultEnvFile); err == nil || os.Getenv("WARREN_REQUIRE_PODMAN") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if u, err := url.Parse(st.Endpoint); err == nil && u.Scheme == "unix" && os.Getuid() == 0 {
		var fi syscall.Stat_t
		if err := syscall.Stat(u.Path, &fi); err == nil && fi.Uid != 0 {
			if err := os.Chown(ws, int(fi.Uid), int(fi.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w, ws, outside
}

// sbxName makes server names (hence container keys) unique on the service.
func sbxName(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), time.Now().UnixNano()%100000)
}

// sbxConnect saves and connects a server, failing with its log unless it
// connected; it returns how long the connection took (spawn, initialize,
// tools/list).
func sbxConnect(t testing.TB, w *warren.Warren, s mcp.Server) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s.Transport, s.Enabled = mcp.TransportStdio, true
	if err := w.SaveMCPServer(ctx, s, mcp.ReplaceSecrets); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := w.ConnectMCP(ctx, s.Name); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	st := sbxStatus(t, w, s.Name)
	if st.State != mcp.StateConnected || st.Tools == 0 {
		logs, _ := mcp.ReadLog(w.MCPLogDir(), s.Name, 20)
		t.Fatalf("%s: %+v\nlog:\n%s", s.Name, st, strings.Join(logs, "\n"))
	}
	return took
}

func sbxStatus(t testing.TB, w *warren.Warren, name string) mcp.Status {
	t.Helper()
	sts, err := w.MCP().Statuses(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sts {
		if st.Name == name {
			return st
		}
	}
	t.Fatalf("no status for %s", name)
	return mcp.Status{}
}

// sbxCall calls a tool and returns its text and whether it is an error result.
func sbxCall(t testing.TB, w *warren.Warren, server, tool string, args any) (string, bool) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.MCP().Call(context.Background(), server, tool, b)
	if err != nil {
		t.Fatalf("%s %s: %v", server, tool, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

// sbxContainers lists the containers of a server on the service.
func sbxContainers(t testing.TB, pod *podman.Manager, server string) []podman.ContainerStatus {
	t.Helper()
	var out []podman.ContainerStatus
	for _, c := range pod.Status(context.Background()).Containers {
		if c.Key == "mcp:"+server {
			out = append(out, c)
		}
	}
	return out
}

// sbxWaitGone waits until no container of server other than keep is left.
func sbxWaitGone(t testing.TB, pod *podman.Manager, server string, ids ...string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		left := sbxContainers(t, pod, server)
		if len(ids) > 0 {
			left = slices.DeleteFunc(left, func(c podman.ContainerStatus) bool { return !slices.Contains(ids, c.ID) })
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("containers of %s left behind: %+v", server, left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// probeManager looks at the service independently of the Warren under test.
func probeManager(t testing.TB) *podman.Manager {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pod := podman.New(ctx, podman.Options{NoAutoStart: true})
	t.Cleanup(func() { _ = pod.Close(context.Background()); cancel() })
	return pod
}

func TestSandboxedMCPEverything(t *testing.T) {
	t.Parallel()
	w, _, _ := sbxWarren(t)
	pod := probeManager(t)
	bin := sbxServerBin(t, "mcp-server-everything")
	host, boxed := sbxName("ev-host"), sbxName("ev-box")

	hostTook := sbxConnect(t, w, mcp.Server{Name: host, Command: bin, Args: []string{"stdio"}})
	boxTook := sbxConnect(t, w, mcp.Server{Name: boxed, Command: bin, Args: []string{"stdio"}, Sandboxed: true,
		Env: map[string]string{"WARREN_TEST_SECRET": "not-in-argv"}})
	t.Logf("server-everything connect (spawn, initialize, tools/list): host %s, sandboxed %s", hostTook.Round(time.Millisecond), boxTook.Round(time.Millisecond))

	for _, name := range []string{host, boxed} {
		if text, isErr := sbxCall(t, w, name, "echo", map[string]string{"message": "hello " + name}); isErr || !strings.Contains(text, "hello "+name) {
			t.Fatalf("%s echo: %q %v", name, text, isErr)
		}
	}
	cs := sbxContainers(t, pod, boxed)
	if len(cs) != 1 || cs[0].State != "running" || cs[0].Network {
		t.Fatalf("container of %s: %+v", boxed, cs)
	}
	if len(sbxContainers(t, pod, host)) != 0 {
		t.Fatal("the host server got a container")
	}

	// Killing the client (what a crash of the attach does): the container
	// goes, and the manager reconnects in a new one.
	first := cs[0].ID
	if err := syscall.Kill(sbxStatus(t, w, boxed).PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sbxWaitGone(t, pod, boxed, first)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for sbxStatus(t, w, boxed).State != mcp.StateConnected || sbxStatus(t, w, boxed).Restarts == 0 {
		if ctx.Err() != nil {
			t.Fatalf("no reconnect: %+v", sbxStatus(t, w, boxed))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if text, _ := sbxCall(t, w, boxed, "echo", map[string]string{"message": "again"}); !strings.Contains(text, "again") {
		t.Fatalf("echo after reconnect: %q", text)
	}

	// Stopping the server removes its container.
	w.MCP().Stop(boxed)
	sbxWaitGone(t, pod, boxed)

	// So does closing Warren with a sandboxed server running.
	again := sbxName("ev-close")
	sbxConnect(t, w, mcp.Server{Name: again, Command: bin, Args: []string{"stdio"}, Sandboxed: true})
	if len(sbxContainers(t, pod, again)) != 1 {
		t.Fatal("no container")
	}
	_ = w.Close()
	sbxWaitGone(t, pod, again)
}

// server-filesystem in the sandbox sees the workspace and nothing else of
// the host: a directory it is given outside the workspace does not exist
// inside (the same server on the host serves it), and without network the
// container has only loopback.
func TestSandboxedMCPFilesystemIsolation(t *testing.T) {
	t.Parallel()
	w, ws, outside := sbxWarren(t)
	pod := probeManager(t)
	bin := sbxServerBin(t, "mcp-server-filesystem")
	if err := os.WriteFile(filepath.Join(ws, "hello.txt"), []byte("hello from the workspace\n"), 0o644); err != nil { //nolint:gosec // read by the container user
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("host secret\n"), 0o644); err != nil { //nolint:gosec // must be readable to prove it is not mounted
		t.Fatal(err)
	}
	args := []string{ws, outside, "/sys/class/net"}
	host, boxed, netOn := sbxName("fs-host"), sbxName("fs-box"), sbxName("fs-net")
	hostTook := sbxConnect(t, w, mcp.Server{Name: host, Command: bin, Args: args})
	boxTook := sbxConnect(t, w, mcp.Server{Name: boxed, Command: bin, Args: args, Sandboxed: true})
	sbxConnect(t, w, mcp.Server{Name: netOn, Command: bin, Args: args, Sandboxed: true, SandboxNetwork: true})
	t.Logf("server-filesystem connect: host %s, sandboxed %s", hostTook.Round(time.Millisecond), boxTook.Round(time.Millisecond))

	// The workspace, at its own path, in both.
	for _, name := range []string{host, boxed} {
		if text, isErr := sbxCall(t, w, name, "read_text_file", map[string]string{"path": filepath.Join(ws, "hello.txt")}); isErr || !strings.Contains(text, "hello from the workspace") {
			t.Fatalf("%s read workspace file: %q %v", name, text, isErr)
		}
	}
	// The outside directory: served on the host, absent in the container.
	if text, isErr := sbxCall(t, w, host, "read_text_file", map[string]string{"path": filepath.Join(outside, "secret.txt")}); isErr || !strings.Contains(text, "host secret") {
		t.Fatalf("host control: %q %v", text, isErr)
	}
	allowed, _ := sbxCall(t, w, boxed, "list_allowed_directories", map[string]string{})
	if !strings.Contains(allowed, ws) || strings.Contains(allowed, outside) {
		t.Fatalf("allowed directories in the sandbox: %q", allowed)
	}
	if text, isErr := sbxCall(t, w, boxed, "read_text_file", map[string]string{"path": filepath.Join(outside, "secret.txt")}); !isErr || strings.Contains(text, "host secret") {
		t.Fatalf("sandbox read the host file: %q %v", text, isErr)
	}
	logs, _ := mcp.ReadLog(w.MCPLogDir(), boxed, 50)
	if !slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, "Cannot access directory "+outside) }) {
		t.Fatalf("the server saw %s inside the container; log:\n%s", outside, strings.Join(logs, "\n"))
	}
	// Network off: only loopback; on: another interface too.
	if text, _ := sbxCall(t, w, boxed, "list_directory", map[string]string{"path": "/sys/class/net"}); strings.TrimSpace(text) != "[DIR] lo" && strings.TrimSpace(text) != "[FILE] lo" {
		t.Fatalf("network off: interfaces %q", text)
	}
	if text, _ := sbxCall(t, w, netOn, "list_directory", map[string]string{"path": "/sys/class/net"}); len(strings.Fields(text)) < 4 {
		t.Fatalf("network on: interfaces %q", text)
	}
	if cs := sbxContainers(t, pod, netOn); len(cs) != 1 || !cs[0].Network {
		t.Fatalf("network label: %+v", cs)
	}
	w.MCP().Stop(boxed)
	w.MCP().Stop(netOn)
	sbxWaitGone(t, pod, boxed)
	sbxWaitGone(t, pod, netOn)
}

// A Python server runs sandboxed from the host's interpreter with its
// library tree mounted (extension modules and their shared libraries
// included), from the system Python and from a venv, and still sees
// nothing of the host outside its mounts.
func TestSandboxedMCPPython(t *testing.T) {
	t.Parallel()
	w, _, outside := sbxWarren(t)
	pod := probeManager(t)
	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s is missing: run ./scripts/bootstrap.sh (it installs python3)", python)
	}
	script, err := filepath.Abs(filepath.Join("..", "mcp", "testdata", "python", "echo_server.py"))
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("host secret\n"), 0o644); err != nil { //nolint:gosec // must be readable to prove it is not mounted
		t.Fatal(err)
	}
	// A venv where the Podman service's user can read it.
	base, err := os.MkdirTemp("", "warren-py-venv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil { //nolint:gosec // read by the container user
		t.Fatal(err)
	}
	venv := filepath.Join(base, "venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("make a venv: %v\n%s", err, out)
	}

	type where struct {
		Prefix   string `json:"prefix"`
		SSL      string `json:"ssl"`
		SQLite   string `json:"sqlite"`
		SHA256   string `json:"sha256"`
		SeesPath bool   `json:"sees_path"`
	}
	ask := func(server string) where {
		t.Helper()
		text, isErr := sbxCall(t, w, server, "whereami", map[string]string{"path": secret})
		var got where
		if isErr || json.Unmarshal([]byte(text), &got) != nil {
			t.Fatalf("%s whereami: %q %v", server, text, isErr)
		}
		return got
	}
	host, system, inVenv := sbxName("py-host"), sbxName("py-box"), sbxName("py-venv")
	sbxConnect(t, w, mcp.Server{Name: host, Command: python, Args: []string{script}})
	sbxConnect(t, w, mcp.Server{Name: system, Command: python, Args: []string{script}, Sandboxed: true})
	sbxConnect(t, w, mcp.Server{Name: inVenv, Command: filepath.Join(venv, "bin", "python"), Args: []string{script}, Sandboxed: true})

	if text, isErr := sbxCall(t, w, system, "echo", map[string]string{"message": "hi"}); isErr || text != "py echo: hi" {
		t.Fatalf("echo: %q %v", text, isErr)
	}
	if got := ask(host); !got.SeesPath {
		t.Fatalf("host control does not see %s: %+v", secret, got)
	}
	for _, name := range []string{system, inVenv} {
		got := ask(name)
		if got.SSL == "" || got.SQLite == "" || got.SHA256 == "" {
			t.Fatalf("%s: extension modules missing: %+v", name, got)
		}
		if got.SeesPath {
			t.Fatalf("%s sees the host file %s", name, secret)
		}
		if want := map[string]string{system: "/usr", inVenv: venv}[name]; got.Prefix != want {
			t.Fatalf("%s runs with prefix %q, want %q", name, got.Prefix, want)
		}
		if cs := sbxContainers(t, pod, name); len(cs) != 1 {
			t.Fatalf("%s containers: %+v", name, cs)
		}
	}
	w.MCP().Stop(system)
	w.MCP().Stop(inVenv)
	sbxWaitGone(t, pod, system)
	sbxWaitGone(t, pod, inVenv)
}

// BenchmarkSandboxedMCPStart compares starting server-everything (spawn,
// initialize, tools/list) on the host and in the sandbox:
// go test ./backend/warren/ -run '^$' -bench SandboxedMCPStart -benchtime 10x
func BenchmarkSandboxedMCPStart(b *testing.B) {
	w, _, _ := sbxWarren(b)
	bin := sbxServerBin(b, "mcp-server-everything")
	for _, sandboxed := range []bool{false, true} {
		b.Run(map[bool]string{false: "host", true: "sandboxed"}[sandboxed], func(b *testing.B) {
			name := sbxName("bench")
			for b.Loop() {
				sbxConnect(b, w, mcp.Server{Name: name, Command: bin, Args: []string{"stdio"}, Sandboxed: sandboxed})
				b.StopTimer()
				w.MCP().Stop(name)
				b.StartTimer()
			}
		})
	}
}
