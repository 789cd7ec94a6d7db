package podman

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// stdioProc is a started StdioCommand with its pipes.
type stdioProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Scanner
	stderr *lockedBuilder
}

// lockedBuilder collects a child's stderr: exec's copying goroutine writes
// it while a failing test reads it.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startStdio(t *testing.T, m *Manager, spec StdioSpec) *stdioProc {
	t.Helper()
	cmd, err := m.StdioCommand(context.Background(), spec)
	if err != nil {
		t.Fatalf("StdioCommand: %v", err)
	}
	for k, v := range spec.Env {
		if slices.ContainsFunc(cmd.Args, func(a string) bool { return strings.Contains(a, v) }) || slices.Contains(cmd.Env, k+"="+v) {
			t.Fatalf("env %s leaks into the client's argv or environment: %q %q", k, cmd.Args, cmd.Env)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // as backend/mcp does
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &stdioProc{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout), stderr: &lockedBuilder{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return p
}

func (p *stdioProc) line(t *testing.T) string {
	t.Helper()
	if !p.out.Scan() {
		t.Fatalf("program output ended (%v); stderr: %s", p.out.Err(), p.stderr)
	}
	return p.out.Text()
}

// hostScript writes an executable script where the service's user can read it.
func hostScript(t *testing.T, name, body string) string {
	t.Helper()
	dir, err := os.MkdirTemp(testBase, "prog-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil { //nolint:gosec // a test program
		t.Fatal(err)
	}
	return p
}

// stdioContainers lists the containers of key on the service.
func stdioContainers(t *testing.T, m *Manager, key string) []ContainerStatus {
	t.Helper()
	var out []ContainerStatus
	for _, c := range m.Status(context.Background()).Containers {
		if c.Key == key {
			out = append(out, c)
		}
	}
	return out
}

func waitNoContainer(t *testing.T, m *Manager, key string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		cs := stdioContainers(t, m, key)
		if len(cs) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("container of %s still there after %s: %+v", key, within, cs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const probeScript = `#!/bin/sh
echo "secret=$WARREN_SECRET home=$HOME pwd=$(pwd) user=$(id -u)"
grep -E '^(CapEff|NoNewPrivs)' /proc/self/status | tr -s '\t ' ' ' | tr '\n' ' '; echo
echo "net=$(ls /sys/class/net | tr '\n' ' ')"
touch /rootfs-write 2>/dev/null && echo rootfs=writable || echo rootfs=readonly
echo made > "$WS/made.txt" && echo ws=ok
[ -e "$OUTSIDE" ] && echo outside=visible || echo outside=absent
while read line; do echo "got $line"; done
exit 7
`

func TestStdioCommand(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	ws := newWorkspace(t)
	outside := t.TempDir() // on the host, not mounted
	for _, network := range []bool{false, true} {
		key := "stdio-probe-net-" + map[bool]string{false: "off", true: "on"}[network]
		p := startStdio(t, m, StdioSpec{
			Key: key, Command: hostScript(t, "probe.sh", probeScript), Workspace: ws, Network: network,
			Env: map[string]string{"WARREN_SECRET": "s3cr3t-value", "WS": ws, "OUTSIDE": outside},
		})
		if got, want := p.line(t), "secret=s3cr3t-value home=/tmp pwd="+ws; !strings.HasPrefix(got, want) {
			t.Fatalf("got %q, want %q…", got, want)
		}
		if got := p.line(t); !strings.Contains(got, "CapEff: 0000000000000000") || !strings.Contains(got, "NoNewPrivs: 1") {
			t.Fatalf("privileges: %q", got)
		}
		net := p.line(t)
		if !network && net != "net=lo " || network && (!strings.Contains(net, "lo") || net == "net=lo ") {
			t.Fatalf("network %v: %q", network, net)
		}
		for _, want := range []string{"rootfs=readonly", "ws=ok", "outside=absent"} {
			if got := p.line(t); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		}
		if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "made\n" {
			t.Fatalf("workspace write not on the host: %q %v", b, err)
		}
		if _, err := io.WriteString(p.stdin, "ping\n"); err != nil {
			t.Fatal(err)
		}
		if got := p.line(t); got != "got ping" {
			t.Fatalf("echo: %q", got)
		}
		if cs := stdioContainers(t, m, key); len(cs) != 1 || !cs[0].Mine || cs[0].Network != network || !strings.HasPrefix(cs[0].Name, "warren-stdio-probe") {
			t.Fatalf("status: %+v", cs)
		}
		// EOF ends the program; its exit code is the command's; the
		// service removes the container.
		_ = p.stdin.Close()
		err := p.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
			t.Fatalf("exit: %v; stderr: %s", err, p.stderr)
		}
		if strings.TrimSpace(p.stderr.String()) != "" {
			t.Fatalf("client noise on stderr: %q", p.stderr)
		}
		waitNoContainer(t, m, key, 10*time.Second)
	}
}

// A program that ignores SIGTERM and EOF outlives its killed client: the
// container must still go.
func TestStdioReapsAfterClientKilled(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	prog := hostScript(t, "stubborn.sh", "#!/bin/sh\ntrap '' TERM\necho ready\ncat >/dev/null\nsleep 1000\n")
	p := startStdio(t, m, StdioSpec{Key: "stdio-stubborn", Command: prog})
	if got := p.line(t); got != "ready" {
		t.Fatalf("got %q", got)
	}
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	waitNoContainer(t, m, "stdio-stubborn", 10*time.Second)
}

func TestStdioCloseRemoves(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	prog := hostScript(t, "reader.sh", "#!/bin/sh\necho ready\nexec cat\n")
	p := startStdio(t, m, StdioSpec{Key: "stdio-close", Command: prog})
	if got := p.line(t); got != "ready" {
		t.Fatalf("got %q", got)
	}
	probe := newManager(t, Options{}) // m is about to close: look with another
	if len(stdioContainers(t, probe, "stdio-close")) != 1 {
		t.Fatal("no container")
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitNoContainer(t, probe, "stdio-close", 10*time.Second)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("client still attached to a removed container")
	}
	if _, err := m.StdioCommand(context.Background(), StdioSpec{Key: "x", Command: prog}); err == nil {
		t.Fatal("closed manager made a container")
	}
}

func TestStdioNode(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed on this host")
	}
	m := newManager(t, Options{})
	// A package laid out as npm installs it: node_modules/.bin/hello links
	// to the package's script, which needs a hoisted dependency.
	root, err := os.MkdirTemp(testBase, "npm-")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"node_modules/hello/package.json": `{"name":"hello","bin":{"hello":"index.js"}}`,
		"node_modules/hello/index.js":     "#!/usr/bin/env node\nconst dep = require('dep');\nconsole.log(dep(process.version), process.execPath);\nrequire('readline').createInterface({input: process.stdin}).on('line', l => console.log('got ' + l));\n",
		"node_modules/dep/package.json":   `{"name":"dep","main":"index.js"}`,
		"node_modules/dep/index.js":       "module.exports = v => 'node ' + v;\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil { //nolint:gosec // test package
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "node_modules/.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../hello/index.js", filepath.Join(root, "node_modules/.bin/hello")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	p := startStdio(t, m, StdioSpec{Key: "stdio-node", Command: filepath.Join(root, "node_modules/.bin/hello")})
	if got := p.line(t); !strings.HasPrefix(got, "node v") {
		t.Fatalf("got %q; stderr %s", got, p.stderr)
	}
	if _, err := io.WriteString(p.stdin, "hi\n"); err != nil {
		t.Fatal(err)
	}
	if got := p.line(t); got != "got hi" {
		t.Fatalf("got %q", got)
	}
	_ = p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit: %v; stderr %s", err, p.stderr)
	}
	waitNoContainer(t, m, "stdio-node", 10*time.Second)
}

// stdioHelperEnv makes the test binary a Warren stand-in: it starts the
// stdio program "KEY|COMMAND" as backend/mcp does, prints "ready PID"
// (the podman client's pid) once the program answered, and waits to be
// killed.
const stdioHelperEnv = "WARREN_PODMAN_STDIO_HELPER"

func stdioHelper(spec string) int {
	key, command, _ := strings.Cut(spec, "|")
	m := New(context.Background(), Options{NoAutoStart: true, StateDir: os.Getenv(stdioHelperEnv + "_STATE")})
	cmd, err := m.StdioCommand(context.Background(), StdioSpec{Key: key, Command: command})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if sc := bufio.NewScanner(stdout); !sc.Scan() {
		fmt.Fprintln(os.Stderr, "program output ended")
		return 1
	}
	defer func() { _ = stdin.Close() }() // open until then
	fmt.Println("ready", cmd.Process.Pid)
	select {} // until killed
}

// When Warren dies (SIGKILL; its parent-death signal then kills the
// client), a program that stops on EOF takes its container with it at
// once; one that ignores EOF and SIGTERM stays until the next Warren
// connects and prunes the containers of dead Warren processes.
func TestStdioWarrenKilled(t *testing.T) {
	t.Parallel()
	requirePodman(t)
	for _, tc := range []struct {
		name, body string
		pruned     bool
	}{
		{"stops on EOF", "#!/bin/sh\necho ready\nexec cat\n", false},
		{"ignores EOF and TERM", "#!/bin/sh\ntrap '' TERM\necho ready\ncat >/dev/null\nsleep 1000\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := "stdio-crash-" + strings.Fields(tc.name)[0]
			state, err := os.MkdirTemp(testBase, "state-")
			if err != nil {
				t.Fatal(err)
			}
			helper := exec.Command(os.Args[0], "-test.run=^$") //nolint:gosec // the test binary itself
			helper.Env = append(os.Environ(), stdioHelperEnv+"="+key+"|"+hostScript(t, "p.sh", tc.body), stdioHelperEnv+"_STATE="+state)
			helper.Stderr = os.Stderr
			out, err := helper.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			var client int
			if !sc.Scan() {
				_ = helper.Process.Kill()
				t.Fatalf("helper: %v", helper.Wait())
			}
			if _, err := fmt.Sscanf(sc.Text(), "ready %d", &client); err != nil {
				t.Fatalf("helper said %q", sc.Text())
			}
			_ = helper.Process.Kill()
			_ = helper.Wait()
			_ = syscall.Kill(client, syscall.SIGKILL) // what the parent-death signal does
			m := newManager(t, Options{})
			if tc.pruned {
				// This manager's connect pruned it (if another test's did
				// not already: every connect prunes).
				if cs := stdioContainers(t, m, key); len(cs) != 0 {
					t.Fatalf("not pruned: %+v", cs)
				}
				return
			}
			waitNoContainer(t, m, key, 10*time.Second)
		})
	}
}
