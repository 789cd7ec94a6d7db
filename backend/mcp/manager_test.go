package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/tools"
)

func toolNames(m *Manager, server string) []string {
	ts, _ := m.Tools(server)
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	return names
}

func TestStdioServerEverything(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "everything", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"),
		Args: []string{"stdio"}, Env: map[string]string{"WARREN_TEST_SECRET": "s3cr3t-value"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "everything", 30*time.Second, StateConnected, StateReconnecting)
	if st.State != StateConnected {
		t.Fatalf("state %s: %s", st.State, st.LastError)
	}
	if st.Protocol == "" || st.Tools == 0 || st.PID == 0 || st.ServerName == "" || st.Resources == 0 || st.Prompts == 0 {
		t.Fatalf("status is missing facts: %+v", st)
	}
	if !slices.Contains(toolNames(m, "everything"), "echo") {
		t.Fatalf("tools %v lack echo", toolNames(m, "everything"))
	}

	bridged, problems := m.BridgeTools()
	if len(problems) > 0 {
		t.Fatalf("bridge problems: %v", problems)
	}
	var echo, env Bridged
	for _, b := range bridged {
		switch b.Info().Name {
		case "mcp_everything_echo":
			echo = b
		case "mcp_everything_get-env":
			env = b
		}
		if b.Info().Group != "mcp:everything" {
			t.Errorf("%s is in group %q", b.Info().Name, b.Info().Group)
		}
	}
	if echo == nil || env == nil {
		t.Fatalf("bridged tools lack echo/get-env: %d tools", len(bridged))
	}
	if err := echo.Info().Schema.Validate(json.RawMessage(`{}`)); err == nil {
		t.Error("echo's schema accepted arguments without the required message")
	}
	res, err := echo.Execute(context.Background(), json.RawMessage(`{"message":"hello from warren"}`))
	if err != nil || res.IsError || !strings.Contains(res.ForLLM, "hello from warren") {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	// The sealed env reached the process.
	res, err = env.Execute(context.Background(), json.RawMessage(`{}`))
	if err != nil || !strings.Contains(res.ForLLM, "s3cr3t-value") {
		t.Fatalf("get-env does not show the configured env: %+v, %v", res, err)
	}
	// Invalid arguments come back as an error result, not a Go error.
	res, err = echo.Execute(context.Background(), json.RawMessage(`{"message":42}`))
	if err != nil || !res.IsError {
		t.Fatalf("bad arguments: %+v, %v", res, err)
	}

	// Stopping kills the process and reports stopped.
	pid := st.PID
	m.Stop("everything")
	if !processGone(pid) {
		t.Fatalf("server process %d still alive after Stop", pid)
	}
	sts, err := m.Statuses(context.Background())
	if err != nil || len(sts) != 1 || sts[0].State != StateStopped {
		t.Fatalf("statuses after stop: %+v, %v", sts, err)
	}
	if _, problems := m.BridgeTools(); len(problems) != 0 {
		t.Fatal(problems)
	}
	if b, _ := m.BridgeTools(); len(b) != 0 {
		t.Fatalf("stopped server still bridges %d tools", len(b))
	}
}

// A killed server is noticed at once, reconnected with backoff, and a
// server that keeps dying ends "failed" with its exit code and stderr.
func TestKilledServerReconnects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "victim", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{Backoff: Backoff{Initial: 20 * time.Millisecond, Max: 100 * time.Millisecond, Attempts: 10}})
	if err := m.Start(context.Background(), "victim"); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "victim", 30*time.Second, StateConnected)
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lost := waitState(t, ch, "victim", 5*time.Second, StateReconnecting)
	if !strings.Contains(lost.LastError, "killed") && !strings.Contains(lost.LastError, "exited") {
		t.Errorf("last error %q does not say the process died", lost.LastError)
	}
	back := waitState(t, ch, "victim", 30*time.Second, StateConnected)
	if back.Restarts != 1 || back.PID == st.PID {
		t.Fatalf("after reconnect: restarts=%d pid=%d (old %d)", back.Restarts, back.PID, st.PID)
	}
}

func TestFailingServerEndsFailed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "broken", Transport: TransportStdio, Command: "sh",
		Args: []string{"-c", "echo 'cannot open config.yaml' >&2; exit 3"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(256)
	defer cancel()
	m := f.manager(t, Options{Backoff: Backoff{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, Attempts: 3}})
	if err := m.Start(context.Background(), "broken"); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "broken", 30*time.Second, StateFailed)
	for _, want := range []string{"exited with code 3", "cannot open config.yaml (repeated 4 times)"} {
		if !strings.Contains(st.LastError, want) {
			t.Errorf("last error %q lacks %q", st.LastError, want)
		}
	}
	if st.Attempt != 3 {
		t.Errorf("failed after %d attempts, want 3", st.Attempt)
	}
	// Calls to a failed server say so.
	_, err := m.Call(context.Background(), "broken", "x", nil)
	if err == nil || !strings.Contains(err.Error(), "MCP server broken is down: server process exited with code 3") ||
		!strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("call to failed server: %v", err)
	}
	lines, err := ReadLog(filepath.Join(f.dir, "logs"), "broken", 10)
	if err != nil || !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "cannot open config.yaml") }) {
		t.Fatalf("log %v, %v", lines, err)
	}
	// Retried by hand it starts over.
	if err := m.Restart(context.Background(), "broken"); err != nil {
		t.Fatal(err)
	}
	waitState(t, ch, "broken", 30*time.Second, StateReconnecting)
}

func TestConnectErrorsSayWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.manager(t, Options{})
	for _, tc := range []struct {
		srv  Server
		want string
	}{
		{Server{Name: "nocmd", Transport: TransportStdio, Command: "warren-no-such-mcp-server"}, "command not found: warren-no-such-mcp-server"},
		{Server{Name: "silent", Transport: TransportStdio, Command: "sleep", Args: []string{"30"}, ConnectTimeout: 300 * time.Millisecond}, "no answer to initialize within 300ms"},
		{Server{Name: "exit", Transport: TransportStdio, Command: "sh", Args: []string{"-c", "echo bad flag >&2; exit 2"}}, "exited with code 2: bad flag"},
		{Server{Name: "refused", Transport: TransportHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t))}, "connection refused"},
	} {
		t.Run(tc.srv.Name, func(t *testing.T) {
			_, err := m.Test(context.Background(), tc.srv)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Test(%s) = %v, want %q", tc.srv.Name, err, tc.want)
			}
		})
	}
}

func TestHTTPTransports(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, path string
		transport  Transport
	}{
		{"sse", "/sse", TransportSSE},
		{"streamableHttp", "/mcp", TransportHTTP},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			port, cmd := startHTTPServer(t, tc.mode)
			f := newFixture(t)
			f.save(t, Server{Name: "remote", Transport: tc.transport, URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path),
				Headers: map[string]string{"X-Warren-Test": "1"}, Enabled: true})
			ch, cancel := f.bus.Subscribe(64)
			defer cancel()
			m := f.manager(t, Options{HealthEvery: 200 * time.Millisecond, HealthTimeout: time.Second,
				Backoff: Backoff{Initial: 50 * time.Millisecond, Max: 100 * time.Millisecond, Attempts: 2}})
			if err := m.StartEnabled(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := waitState(t, ch, "remote", 30*time.Second, StateConnected, StateReconnecting)
			if st.State != StateConnected {
				t.Fatalf("%s: %s", st.State, st.LastError)
			}
			res, err := m.Call(context.Background(), "remote", "get-sum", json.RawMessage(`{"a":2,"b":40}`))
			if err != nil || !strings.Contains(ResultText(res), "42") {
				t.Fatalf("get-sum = %v, %v", res, err)
			}
			// The server dies: the health check notices, backoff runs out.
			_ = cmd.Process.Kill()
			st = waitState(t, ch, "remote", 10*time.Second, StateReconnecting)
			if st.LastError == "" {
				t.Error("no last error after the server died")
			}
			waitState(t, ch, "remote", 20*time.Second, StateFailed)
		})
	}
}

func TestFilesystemServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("warren was here"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.save(t, Server{Name: "fs", Transport: TransportStdio, Command: serverBin(t, "mcp-server-filesystem"), Args: []string{root}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := waitState(t, ch, "fs", 30*time.Second, StateConnected, StateReconnecting); st.State != StateConnected {
		t.Fatalf("%s: %s", st.State, st.LastError)
	}
	res, err := m.Call(context.Background(), "fs", "read_text_file", json.RawMessage(fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "notes.txt"))))
	if err != nil || res.IsError || !strings.Contains(ResultText(res), "warren was here") {
		t.Fatalf("read_text_file = %+v, %v", res, err)
	}
	res, err = m.Call(context.Background(), "fs", "read_text_file", json.RawMessage(`{"path":"/etc/passwd"}`))
	if err != nil || !res.IsError {
		t.Fatalf("reading outside the allowed root: %+v, %v", res, err)
	}
}

// Warren's death (even SIGKILL) takes its stdio servers with it.
func TestNoOrphansWhenWarrenDies(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := execTestChild(t, "TestOrphanChild", "WARREN_MCP_ORPHAN_CHILD=1", "WARREN_MCP_PIDFILE="+pidFile,
		"WARREN_MCP_SERVER="+serverBin(t, "mcp-server-everything"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(30 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		if b, err := os.ReadFile(pidFile); err == nil {
			_, _ = fmt.Sscanf(string(b), "%d", &pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		_ = cmd.Process.Kill()
		t.Fatal("child never reported its server pid")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	deadline = time.Now().Add(5 * time.Second)
	for !processGone(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !processGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("server %d outlived the killed Warren process", pid)
	}
}

// TestOrphanChild is the "Warren" process TestNoOrphansWhenWarrenDies kills.
func TestOrphanChild(t *testing.T) {
	if os.Getenv("WARREN_MCP_ORPHAN_CHILD") == "" {
		t.Skip("helper process")
	}
	f := newFixture(t)
	f.save(t, Server{Name: "child", Transport: TransportStdio, Command: os.Getenv("WARREN_MCP_SERVER"), Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "child", 30*time.Second, StateConnected)
	if err := os.WriteFile(os.Getenv("WARREN_MCP_PIDFILE"), fmt.Appendf(nil, "%d", st.PID), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Minute) // killed long before
}

// Bridged tools run through a real registry like built-in ones.
func TestBridgedToolInRegistry(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "ev", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"},
		Enabled: true, ToolDeny: []string{"get-env"}, ToolPrefix: "e"})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	_ = m.StartEnabled(context.Background())
	waitState(t, ch, "ev", 30*time.Second, StateConnected)
	reg := tools.NewRegistry(tools.Options{})
	bridged, _ := m.BridgeTools()
	for _, b := range bridged {
		if err := reg.Register(b); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := reg.Get("mcp_e_get-env"); ok {
		t.Error("a tool switched off for every agent was bridged")
	}
	res, err := reg.ExecuteWithContext(context.Background(), tools.Call{Name: "mcp_e_get-sum", Args: json.RawMessage(`{"a":1,"b":2}`)})
	if err != nil || res.IsError || !strings.Contains(res.ForLLM, "3") {
		t.Fatalf("registry call = %+v, %v", res, err)
	}
	res, _ = reg.ExecuteWithContext(context.Background(), tools.Call{Name: "mcp_e_echo", Args: json.RawMessage(`{}`)})
	if !res.IsError || res.Code() != tools.CodeValidation {
		t.Fatalf("missing required argument: %+v", res)
	}
}

func TestCallTimeoutSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "slow", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"},
		Enabled: true, CallTimeout: 300 * time.Millisecond})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	_ = m.StartEnabled(context.Background())
	waitState(t, ch, "slow", 30*time.Second, StateConnected)
	_, err := m.Call(context.Background(), "slow", "trigger-long-running-operation", json.RawMessage(`{"duration":5,"steps":5}`))
	if !errors.Is(err, ErrCallTimeout) || !strings.Contains(err.Error(), "did not answer trigger-long-running-operation within 300ms") {
		t.Fatalf("slow call = %v", err)
	}
	// The connection survives a timed-out call.
	if res, err := m.Call(context.Background(), "slow", "echo", json.RawMessage(`{"message":"still here"}`)); err != nil || !strings.Contains(ResultText(res), "still here") {
		t.Fatalf("call after timeout = %v, %v", res, err)
	}
}

// A server stopped by hand stays stopped when the store is synced again.
func TestHoldSurvivesSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f.save(t, Server{Name: "held", Transport: TransportStdio, Command: "sh", Args: []string{"-c", "sleep 30"}, Enabled: true})
	m := f.manager(t, Options{})
	state := func() State {
		sts, err := m.Statuses(ctx)
		if err != nil || len(sts) != 1 {
			t.Fatalf("statuses = %+v, %v", sts, err)
		}
		return sts[0].State
	}
	if err := m.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	if state() == StateStopped {
		t.Fatal("Sync did not start the enabled server")
	}
	m.Hold("held")
	if err := m.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	if got := state(); got != StateStopped {
		t.Fatalf("held server is %s after Sync", got)
	}
	if err := m.Start(ctx, "held"); err != nil {
		t.Fatal(err)
	}
	if state() == StateStopped {
		t.Fatal("Start did not release the hold")
	}
}

// A secret's new value under the same key reconnects the running server.
func TestRotatedSecretReconnects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	srv := Server{Name: "rot", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"},
		Env: map[string]string{"WARREN_TEST_TOKEN": "one"}, Enabled: true}
	f.save(t, srv)
	m := f.manager(t, Options{})
	if err := m.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	token := func() string {
		t.Helper()
		m.WaitReady(ctx, "rot")
		res, err := m.Call(ctx, "rot", "get-env", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		var env map[string]string
		if err := json.Unmarshal([]byte(ResultText(res)), &env); err != nil {
			t.Fatal(err)
		}
		return env["WARREN_TEST_TOKEN"]
	}
	if got := token(); got != "one" {
		t.Fatalf("token %q", got)
	}
	srv.Env = map[string]string{"WARREN_TEST_TOKEN": "two"}
	if err := f.store.Save(ctx, srv, MergeSecrets); err != nil {
		t.Fatal(err)
	}
	if err := m.Sync(ctx, true); err != nil {
		t.Fatal(err)
	}
	if got := token(); got != "two" {
		t.Fatalf("after rotation the server still sees %q", got)
	}
}
