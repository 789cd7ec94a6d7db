package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools/custom"
)

const awsKeyID = "AKIAIOSFODNN7EXAMPLE"

// buildWarren builds the real warren binary into a temporary directory.
func buildWarren(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "warren")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/warren-dev/warren").CombinedOutput()
	if err != nil {
		t.Fatalf("go build warren: %v\n%s", err, out)
	}
	return bin
}

// serveCommand returns the argv and extra environment of
// `warren --data-dir DIR mcp serve ARGS`.
func serveCommand(dataDir string, args ...string) (argv, env []string) {
	return append([]string{"--data-dir", dataDir, "mcp", "serve"}, args...), []string{gateway.EnvToken + "="}
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// prepareDataDir gives a data directory the policy and files the tests
// use: coding profile, custom tools allowed, get_env denied to the default
// agent, a plain file and one holding an AWS key id.
func prepareDataDir(t *testing.T) (string, *warren.Warren) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	w, err := warren.Open(ctx, warren.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	check(t, w.SetSandboxSettings(ctx, warren.SandboxSettings{Mode: warren.SandboxHost}))
	check(t, w.SetPolicy(ctx, policy.Config{
		Profile: "coding", AlsoAllow: []string{"group:custom"},
		Agents: map[string]policy.AgentPolicy{"default": {Deny: []string{"get_env"}}},
	}))
	check(t, os.WriteFile(filepath.Join(w.Workspace(), "notes.txt"), []byte("hello over mcp\n"), 0o600))
	check(t, os.WriteFile(filepath.Join(w.Workspace(), "creds.txt"), []byte("aws_access_key_id = "+awsKeyID+"\n"), 0o600))
	return dir, w
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func callText(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return wmcp.ResultText(res), res.IsError
}

func listNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func initClient(t *testing.T, c *client.Client, name string) {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}

// TestMCPServeProcess runs the real binary, built with go build, as MCP
// clients such as Claude Desktop do.
func TestMCPServeProcess(t *testing.T) {
	t.Parallel()
	bin := buildWarren(t)
	t.Run("stdio client", func(t *testing.T) { t.Parallel(); stdioClient(t, bin) })
	t.Run("stdout is protocol only", func(t *testing.T) { t.Parallel(); stdoutProtocolOnly(t, bin) })
}

// stdioClient runs `warren mcp serve --stdio --approve no` and drives it
// with the mcp-go client. The custom tool is added by the test process, so
// the hot reload crosses processes.
func stdioClient(t *testing.T, bin string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, core := prepareDataDir(t)
	argv, env := serveCommand(dir, "--stdio", "--approve", "no")
	var stderr syncBuffer
	// Cancelling ctx (deferred) kills the process if Close did not end it.
	c := client.NewClient(transport.NewStdioWithOptions(bin, env, argv, transport.WithCommandStderrWriter(&stderr)))
	defer c.Close()
	var mu sync.Mutex
	changed := 0
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			mu.Lock()
			changed++
			mu.Unlock()
		}
	})
	defer func() {
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()
	check(t, c.Start(ctx))
	initClient(t, c, "Claude Desktop")

	names := listNames(t, c)
	for _, want := range []string{"read_file", "current_time", "exec"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list lacks %s: %v", want, names)
		}
	}
	if slices.Contains(names, "get_env") || slices.Contains(names, "cron") {
		t.Fatalf("tools/list shows blocked tools: %v", names)
	}
	if text, isErr := callText(t, c, "read_file", map[string]any{"path": "notes.txt"}); isErr || !strings.Contains(text, "hello over mcp") {
		t.Fatalf("read_file: %v %q", isErr, text)
	}
	if text, isErr := callText(t, c, "read_file", map[string]any{"path": "creds.txt"}); isErr || strings.Contains(text, awsKeyID) || !strings.Contains(text, "[REDACTED]") {
		t.Fatalf("not scrubbed: %v %q", isErr, text)
	}
	if text, isErr := callText(t, c, "get_env", map[string]any{"name": "HOME"}); !isErr || !strings.Contains(text, "PolicyDenied") || !strings.Contains(text, "get_env") {
		t.Fatalf("denied tool: %v %q", isErr, text)
	}
	if text, isErr := callText(t, c, "exec", map[string]any{"command": "ldd /bin/true"}); !isErr || !strings.Contains(text, "not approved") {
		t.Fatalf("exec needing approval: %v %q", isErr, text)
	}
	if text, _ := callText(t, c, "session_status", nil); !strings.Contains(text, "mcp:claude-desktop") {
		t.Fatalf("session key: %q", text)
	}

	// The newest protocol delivers notifications only to a subscription.
	if c.ProtocolVersion() == mcp.ProtocolVersion20260728 {
		stop, err := c.ListenAsync(ctx, mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) { t.Errorf("listen: %v", err) })
		check(t, err)
		defer stop()
	}
	// A change made before the subscription took hold is not announced, so
	// change the tool list (from this other process) until a notice arrives.
	deadline := time.Now().Add(15 * time.Second)
	for edit := 1; ; edit++ {
		check(t, core.SaveCustomTool(ctx, custom.Definition{
			Name: "greet", Description: fmt.Sprintf("Greets someone (edit %d)", edit), Enabled: true, Command: `echo hello {{.who}}`,
			Parameters: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`),
		}))
		time.Sleep(250 * time.Millisecond) // the other process reloads custom tools every second
		mu.Lock()
		n := changed
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no tools/list_changed after a custom tool was added in another process")
		}
	}
	if names := listNames(t, c); !slices.Contains(names, "greet") {
		t.Fatalf("greet not listed: %v", names)
	}
	if text, isErr := callText(t, c, "greet", map[string]any{"who": "Bo"}); isErr || !strings.Contains(text, "hello Bo") {
		t.Fatalf("greet: %v %q", isErr, text)
	}
	if !strings.Contains(stderr.String(), "approval answered by --approve") {
		t.Fatalf("stderr does not report the approval answer:\n%s", stderr.String())
	}
}

// stdoutProtocolOnly speaks raw JSON-RPC to `warren mcp serve` and checks
// every stdout line is a JSON-RPC message; the banner and logs must go to
// stderr. Closing stdin ends the server with exit code 0.
func stdoutProtocolOnly(t *testing.T, bin string) {
	dir, _ := prepareDataDir(t)
	argv, env := serveCommand(dir)
	cmd := exec.Command(bin, argv...)
	cmd.Env = append(os.Environ(), env...)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	check(t, err)
	stdout, err := cmd.StdoutPipe()
	check(t, err)
	check(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	_, err = io.WriteString(stdin, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"current_time","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_env","arguments":{"name":"HOME"}}}`,
	}, "\n")+"\n")
	check(t, err)

	type message struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      *float64        `json:"id"`
		Result  json.RawMessage `json:"result"`
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	results := map[float64]json.RawMessage{}
	timeout := time.After(30 * time.Second)
	for len(results) < 4 {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed after %d responses\nstderr:\n%s", len(results), stderr.String())
			}
			var msg message
			if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("stdout line is not JSON-RPC: %q", line)
			}
			if msg.ID != nil {
				results[*msg.ID] = msg.Result
			}
		case <-timeout:
			t.Fatalf("got %d of 4 responses\nstderr:\n%s", len(results), stderr.String())
		}
	}
	check(t, stdin.Close()) // EOF: the server exits
	for line := range lines {
		var msg message
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit at EOF: %v\nstderr:\n%s", err, stderr.String())
	}
	if !bytes.Contains(results[2], []byte(`"read_file"`)) || bytes.Contains(results[2], []byte(`"get_env"`)) {
		t.Fatalf("tools/list: %s", results[2])
	}
	if bytes.Contains(results[3], []byte(`"isError":true`)) || !bytes.Contains(results[3], []byte("rfc3339")) {
		t.Fatalf("current_time: %s", results[3])
	}
	if !bytes.Contains(results[4], []byte(`"isError":true`)) || !bytes.Contains(results[4], []byte("PolicyDenied")) {
		t.Fatalf("get_env: %s", results[4])
	}
	if !strings.Contains(stderr.String(), `serving agent "default" over stdio`) {
		t.Fatalf("banner missing from stderr:\n%s", stderr.String())
	}
}

var bannerURL = regexp.MustCompile(`URL:\s+(http://\S+)`)

// serveInProcess runs mcpServe with args until the returned stop is called,
// and returns the endpoint URL printed on stderr.
func serveInProcess(t *testing.T, dir string, args ...string) (url string, stderr *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr = &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- mcpServe(ctx, Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr, DataDir: dir}, args)
	}()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if m := bannerURL.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("mcp serve ended early: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no URL on stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return url, stderr, stop
}

// TestMCPServeHTTP serves over streamable HTTP with a generated token: it
// is printed with the URL, kept 0600 in the data directory, the same after
// a restart, and required by the server.
func TestMCPServeHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, _ := prepareDataDir(t)
	url, stderr, stop := serveInProcess(t, dir, "--http", "127.0.0.1:0", "--approve", "yes")
	tokenPath := filepath.Join(dir, gateway.TokenFile)
	raw, err := os.ReadFile(tokenPath)
	check(t, err)
	token := strings.TrimSpace(string(raw))
	if info, _ := os.Stat(tokenPath); info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", info.Mode())
	}
	if !strings.Contains(stderr.String(), "Authorization: Bearer "+token) {
		t.Fatalf("banner lacks the header:\n%s", stderr.String())
	}

	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	check(t, err)
	defer c.Close()
	check(t, c.Start(ctx))
	initClient(t, c, "vscode")
	if names := listNames(t, c); !slices.Contains(names, "current_time") || slices.Contains(names, "get_env") {
		t.Fatalf("tools: %v", names)
	}
	if text, _ := callText(t, c, "session_status", nil); !strings.Contains(text, "mcp:vscode") {
		t.Fatalf("session key: %q", text)
	}
	// --approve yes lets an always-confirmed delete run.
	if text, isErr := callText(t, c, "delete_file", map[string]any{"path": "notes.txt"}); isErr {
		t.Fatalf("delete_file with --approve yes: %q\n%s", text, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "workspace", "notes.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("notes.txt not deleted: %v", err)
	}

	bad, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token + "x"}))
	check(t, err)
	defer bad.Close()
	check(t, bad.Start(ctx))
	if _, err := bad.Initialize(ctx, mcp.InitializeRequest{}); err == nil || !strings.Contains(err.Error(), "--print-token") {
		t.Fatalf("a wrong token: %v", err)
	}
	// --print-token prints the token the clients need.
	var out strings.Builder
	check(t, mcpServe(ctx, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard, DataDir: dir}, []string{"--print-token"}))
	if strings.TrimSpace(out.String()) != token {
		t.Fatalf("--print-token printed %q, want the kept token", out.String())
	}
	if err := stop(); err != nil {
		t.Fatalf("serve ended with %v", err)
	}

	// A restart keeps the token, so configured clients keep working.
	_, stderr2, _ := serveInProcess(t, dir, "--http", "127.0.0.1:0")
	if !strings.Contains(stderr2.String(), "Authorization: Bearer "+token) {
		t.Fatalf("token changed across restarts:\n%s", stderr2.String())
	}
}

// TestMCPServeHTTPTokenSources covers --token and $WARREN_MCP_TOKEN: the
// banner never echoes a token the user supplied. Not parallel: it sets env.
func TestMCPServeHTTPTokenSources(t *testing.T) {
	dir, _ := prepareDataDir(t)
	const flagToken, envToken = "flag-token-0123456789", "env-token-0123456789"
	t.Setenv(gateway.EnvToken, envToken)
	for _, tc := range []struct {
		name  string
		args  []string
		token string
	}{
		{"env", nil, envToken},
		{"flag wins over env", []string{"--token", flagToken}, flagToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, stderr, _ := serveInProcess(t, dir, append([]string{"--http", "127.0.0.1:0"}, tc.args...)...)
			if strings.Contains(stderr.String(), flagToken) || strings.Contains(stderr.String(), envToken) {
				t.Fatalf("banner echoes the token:\n%s", stderr.String())
			}
			c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tc.token}))
			check(t, err)
			defer c.Close()
			check(t, c.Start(context.Background()))
			initClient(t, c, "curl")
		})
	}
	if _, err := os.Stat(filepath.Join(dir, gateway.TokenFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a token file was written although a token was given: %v", err)
	}
}

func TestMCPServeUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--stdio", "--http", "127.0.0.1:0"}, "choose one"},
		{[]string{"--token", "abcdefghijklmnopqrstu"}, "--http only"},
		{[]string{"--approve", "maybe"}, "--approve"},
		{[]string{"--http", "0.0.0.0:8765"}, "loopback"},
		{[]string{"--http", ":8765"}, "every interface"},
		{[]string{"--http", "192.168.1.2:8765"}, "127.0.0.1"},
		{[]string{"--http", "127.0.0.1:0", "--token", "short"}, "at least"},
		{[]string{"--approval-timeout", "0s"}, "positive"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			err := mcpServe(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, DataDir: dir}, tc.args)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want a usage error containing %q", err, tc.want)
			}
		})
	}
	// Through the dispatcher: a usage error exits 2 and prints the usage.
	var stderr bytes.Buffer
	if code := Run(context.Background(), Env{Stdout: io.Discard, Stderr: &stderr, DataDir: dir}, []string{"mcp", "serve", "--http", "0.0.0.0:8765"}); code != ExitUsage || !strings.Contains(stderr.String(), "loopback") {
		t.Fatalf("warren mcp serve --http 0.0.0.0:8765: exit %d\n%s", code, stderr.String())
	}
	for _, args := range [][]string{{"--agent", "ghost"}, {"--profile", "turbo"}} {
		err := mcpServe(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, DataDir: dir}, args)
		if !isUsage(err) {
			t.Fatalf("%v: %v, want an error Run reports as usage", args, err)
		}
	}
}
