package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/approvals"
	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools/custom"
)

const (
	testToken = "test-token-0123456789abcdef"
	awsKeyID  = "AKIAIOSFODNN7EXAMPLE"
)

// openCore opens a real core in a temporary data directory with the policy
// the tests rely on: the coding profile (no cron), custom tools allowed,
// and get_env denied to the default agent.
func openCore(t *testing.T, opts warren.Options) *warren.Warren {
	t.Helper()
	ctx := context.Background()
	if opts.DataDir == "" {
		opts.DataDir = t.TempDir()
	}
	w, err := warren.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	must(t, w.SetSandboxSettings(ctx, warren.SandboxSettings{Mode: warren.SandboxHost}))
	must(t, w.SetPolicy(ctx, policy.Config{
		Profile:   "coding",
		AlsoAllow: []string{"group:custom"},
		Agents:    map[string]policy.AgentPolicy{"default": {Deny: []string{"get_env"}}},
	}))
	must(t, os.WriteFile(filepath.Join(w.Workspace(), "notes.txt"), []byte("hello from the workspace\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(w.Workspace(), "creds.txt"), []byte("aws_access_key_id = "+awsKeyID+"\n"), 0o600))
	return w
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// serveHTTP serves g on a free loopback port until the test ends.
func serveHTTP(t *testing.T, g *gateway.Gateway) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := gateway.ListenLoopback(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- g.ServeListener(ctx, ln, testToken) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return gateway.URL(ln)
}

// notifications counts the notifications a client receives by method.
type notifications struct {
	mu sync.Mutex
	n  map[string]int
}

func (n *notifications) handle(msg mcp.JSONRPCNotification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.n == nil {
		n.n = map[string]int{}
	}
	n.n[msg.Method]++
}

func (n *notifications) count(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.n[method]
}

func toolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(res.Tools))
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func call(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return wmcp.ResultText(res), res.IsError
}

func initialize(t *testing.T, c *client.Client) *mcp.InitializeResult {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "Gateway Test", Version: "1"}
	res, err := c.Initialize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func greetTool() custom.Definition {
	return custom.Definition{
		Name: "greet", Description: "Greets someone", Enabled: true,
		Command:    `echo hello {{.who}}`,
		Parameters: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string","description":"name"}},"required":["who"]}`),
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPEndToEnd drives the gateway over streamable HTTP with the mcp-go
// client: listing, filtering, calls, scrubbing, policy and approval
// refusals, and tools/list_changed after a custom tool is added.
func TestHTTPEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	core := openCore(t, warren.Options{})
	deny := approvals.Deny
	g := gateway.New(core, gateway.Options{Approve: &deny, RefreshInterval: 50 * time.Millisecond})
	url := serveHTTP(t, g)

	// Continuous listening pins the client to the pre-2026 protocol and its
	// GET stream, which is how most clients in use today receive list_changed.
	c, err := client.NewStreamableHttpClient(url,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithContinuousListening()) //nolint:staticcheck // SA1019: the legacy protocol is the point here
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var notes notifications
	c.OnNotification(notes.handle)
	must(t, c.Start(ctx))
	res := initialize(t, c)
	if res.ServerInfo.Name != "warren" || res.Capabilities.Tools == nil || !res.Capabilities.Tools.ListChanged {
		t.Fatalf("initialize: %+v", res)
	}

	names := toolNames(t, c)
	for _, want := range []string{"read_file", "current_time", "exec", "workspace_dir"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list lacks %s: %v", want, names)
		}
	}
	for _, blocked := range []string{"get_env", "cron"} {
		if slices.Contains(names, blocked) {
			t.Fatalf("tools/list shows blocked %s: %v", blocked, names)
		}
	}
	full, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	must(t, err)
	for _, tool := range full.Tools {
		if tool.Name == "read_file" {
			schema, _ := json.Marshal(tool.InputSchema)
			raw, _ := json.Marshal(tool)
			if !strings.Contains(string(raw), `"path"`) || !strings.Contains(tool.Description, "Read a text file") {
				t.Fatalf("read_file definition lacks schema or description: %s %s", raw, schema)
			}
		}
	}

	t.Run("read_file", func(t *testing.T) {
		text, isErr := call(t, c, "read_file", map[string]any{"path": "notes.txt"})
		if isErr || !strings.Contains(text, "hello from the workspace") {
			t.Fatalf("read_file: %v %q", isErr, text)
		}
	})
	t.Run("scrubbed", func(t *testing.T) {
		text, isErr := call(t, c, "read_file", map[string]any{"path": "creds.txt"})
		if isErr || strings.Contains(text, awsKeyID) || !strings.Contains(text, "[REDACTED]") {
			t.Fatalf("secret not scrubbed: %v %q", isErr, text)
		}
	})
	t.Run("the bearer token is scrubbed too", func(t *testing.T) {
		must(t, os.WriteFile(filepath.Join(core.Workspace(), "leak.txt"), []byte("token: "+testToken+"\n"), 0o600))
		text, isErr := call(t, c, "read_file", map[string]any{"path": "leak.txt"})
		if isErr || strings.Contains(text, testToken) {
			t.Fatalf("token not scrubbed: %v %q", isErr, text)
		}
	})
	t.Run("policy denied", func(t *testing.T) {
		text, isErr := call(t, c, "get_env", map[string]any{"name": "HOME"})
		if !isErr || !strings.Contains(text, "PolicyDenied") || !strings.Contains(text, "get_env") {
			t.Fatalf("denied tool: %v %q", isErr, text)
		}
		text, isErr = call(t, c, "cron", map[string]any{"action": "list"})
		if !isErr || !strings.Contains(text, "PolicyDenied") || !strings.Contains(text, "coding") {
			t.Fatalf("tool outside the profile: %v %q", isErr, text)
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		text, isErr := call(t, c, "read_file", map[string]any{"nope": 1})
		if !isErr || !strings.Contains(text, "ValidationError") {
			t.Fatalf("invalid arguments: %v %q", isErr, text)
		}
	})
	t.Run("approval refused by --approve no", func(t *testing.T) {
		text, isErr := call(t, c, "exec", map[string]any{"command": "ldd /bin/true"})
		if !isErr || !strings.Contains(text, "not approved") || !strings.Contains(text, "denied") {
			t.Fatalf("exec needing approval: %v %q", isErr, text)
		}
		audit, err := core.Approvals().Audit(ctx, 10)
		must(t, err)
		if len(audit) == 0 || audit[0].Session != "mcp:gateway-test" || audit[0].DecidedBy != "user" {
			t.Fatalf("audit: %+v", audit)
		}
	})
	t.Run("list_changed after a custom tool is added", func(t *testing.T) {
		before := notes.count(string(mcp.MethodNotificationToolsListChanged))
		must(t, core.SaveCustomTool(ctx, greetTool()))
		waitFor(t, "tools/list_changed", func() bool {
			return notes.count(string(mcp.MethodNotificationToolsListChanged)) > before
		})
		if names := toolNames(t, c); !slices.Contains(names, "greet") {
			t.Fatalf("greet not listed: %v", names)
		}
		text, isErr := call(t, c, "greet", map[string]any{"who": "Ann"})
		if isErr || !strings.Contains(text, "hello Ann") {
			t.Fatalf("custom tool: %v %q", isErr, text)
		}
	})
}

func TestHTTPRequiresToken(t *testing.T) {
	t.Parallel()
	core := openCore(t, warren.Options{})
	url := serveHTTP(t, gateway.New(core, gateway.Options{}))
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	for _, tc := range []struct {
		name, header string
		want         int
	}{
		{"no header", "", http.StatusOK},
		{"wrong token", "Bearer not-the-token-0123456789", http.StatusOK},
		{"token prefix", "Bearer " + testToken[:len(testToken)-1], http.StatusOK},
		{"wrong scheme", "Basic " + testToken, http.StatusOK},
		{"right token", "Bearer " + testToken, http.StatusOK},
		{"wrong token, GET", "Bearer not-the-token-0123456789", http.StatusForbidden},
		{"scheme is case-insensitive", "bearer " + testToken, http.StatusOK},
		{"DNS rebinding (foreign Host)", "Bearer " + testToken, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodPost
			if strings.HasSuffix(tc.name, "GET") {
				method = http.MethodGet
			}
			req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
			must(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			if strings.HasPrefix(tc.name, "DNS rebinding") {
				req.Host = "attacker.example"
			}
			resp, err := http.DefaultClient.Do(req)
			must(t, err)
			defer resp.Body.Close()
			out, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, out)
			}
			// No 401 and no WWW-Authenticate: those send MCP clients into
			// OAuth discovery instead of showing the message.
			if resp.Header.Get("WWW-Authenticate") != "" {
				t.Fatalf("WWW-Authenticate sent: %v", resp.Header)
			}
			if !strings.HasPrefix(tc.name, "DNS rebinding") && !strings.HasPrefix(tc.name, "right") && !strings.HasPrefix(tc.name, "scheme") {
				var body struct {
					JSONRPC string `json:"jsonrpc"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(out, &body); err != nil || body.JSONRPC != "2.0" || body.Error.Code != gateway.TokenErrorCode ||
					!strings.Contains(body.Error.Message, "token") || !strings.Contains(body.Error.Message, "--print-token") {
					t.Fatalf("refusal body %s (%v)", out, err)
				}
			}
		})
	}

	// The mcp-go client fails cleanly with a wrong token.
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer wrong-token-0123456789"}))
	must(t, err)
	defer c.Close()
	must(t, c.Start(context.Background()))
	if _, err := c.Initialize(context.Background(), mcp.InitializeRequest{}); err == nil || !strings.Contains(err.Error(), "wrong token") {
		t.Fatalf("initialize with a wrong token: %v", err)
	}
}

func TestLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"127.0.0.1:0", "127.8.9.10:0", "[::1]:0", "localhost:0", "LOCALHOST:8765"} {
		if err := gateway.CheckLoopback(addr); err != nil {
			t.Errorf("%s refused: %v", addr, err)
		}
	}
	for _, addr := range []string{":8765", "0.0.0.0:8765", "[::]:8765", "192.168.1.20:8765", "10.0.0.1:80", "example.com:8765", "127.0.0.1.nip.io:80"} {
		if err := gateway.CheckLoopback(addr); !errors.Is(err, gateway.ErrNotLoopback) {
			t.Errorf("%s: %v, want ErrNotLoopback", addr, err)
		}
	}
	if err := gateway.CheckLoopback("127.0.0.1"); err == nil || errors.Is(err, gateway.ErrNotLoopback) {
		t.Errorf("address without a port: %v", err)
	}
	core := openCore(t, warren.Options{})
	g := gateway.New(core, gateway.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := g.ServeHTTP(ctx, "0.0.0.0:0", testToken); !errors.Is(err, gateway.ErrNotLoopback) {
		t.Fatalf("ServeHTTP on every interface: %v", err)
	}
	if err := g.ServeHTTP(ctx, "127.0.0.1:0", " "); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("ServeHTTP without a token: %v", err)
	}
}

// TestStdio serves over an in-process pipe pair, the transport Claude
// Desktop uses, with a client on the newest protocol (which delivers
// list_changed through subscriptions/listen).
func TestStdio(t *testing.T) {
	t.Parallel() // the only stdio test in this package: mcp-go keeps one stdio session per process
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	core := openCore(t, warren.Options{})
	addPassThrough(t, core)
	g := gateway.New(core, gateway.Options{RefreshInterval: 50 * time.Millisecond})
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- g.ServeStdio(ctx, serverIn, serverOut) }()
	c := client.NewClient(transport.NewIO(clientIn, clientOut, io.NopCloser(strings.NewReader(""))))
	var notes notifications
	c.OnNotification(notes.handle)
	must(t, c.Start(ctx))
	initialize(t, c)
	names := toolNames(t, c)
	if !slices.Contains(names, "read_file") || slices.Contains(names, "get_env") {
		t.Fatalf("tools: %v", names)
	}
	text, isErr := call(t, c, "read_file", map[string]any{"path": "notes.txt"})
	if isErr || !strings.Contains(text, "hello from the workspace") {
		t.Fatalf("read_file: %v %q", isErr, text)
	}
	text, isErr = call(t, c, "mcp_ev_echo", map[string]any{"message": "over stdio"})
	if isErr || !strings.Contains(text, "over stdio") {
		t.Fatalf("pass-through mcp_ev_echo: %v %q", isErr, text)
	}
	text, isErr = call(t, c, "session_status", nil)
	if isErr || !strings.Contains(text, "mcp:gateway-test") {
		t.Fatalf("session key: %v %q", isErr, text)
	}
	t.Logf("protocol %s", c.ProtocolVersion())
	if c.ProtocolVersion() == mcp.ProtocolVersion20260728 {
		stop, err := c.ListenAsync(ctx, mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
		must(t, err)
		defer stop()
	}
	// A change made before the subscription took hold is not announced, so
	// change the tool list until a notice arrives.
	edits := 0
	waitFor(t, "tools/list_changed over stdio", func() bool {
		if notes.count(string(mcp.MethodNotificationToolsListChanged)) > 0 {
			return true
		}
		edits++
		g := greetTool()
		g.Description = fmt.Sprintf("Greets someone (edit %d)", edits)
		must(t, core.SaveCustomTool(ctx, g))
		return false
	})
	_ = clientOut.Close() // EOF ends the server
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if _, running := core.MCP().Tools("ev"); running {
		t.Fatal("the server the gateway started outlived it")
	}
}

// TestProfileNarrowsAndApprovalTimeout uses the in-process transport: a
// --profile narrower than the active one hides and refuses tools, a wider
// one offers and allows more, and an
// approval nobody answers ends as a denial that says it timed out.
func TestProfileNarrowsAndApprovalTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	core := openCore(t, warren.Options{ApprovalTimeout: 200 * time.Millisecond})
	g := gateway.New(core, gateway.Options{Profile: "minimal"})
	must(t, g.Refresh(ctx))
	c, err := client.NewInProcessClient(g.Server())
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	initialize(t, c)
	if names := toolNames(t, c); !slices.Equal(names, []string{"session_status"}) {
		t.Fatalf("minimal profile lists %v", names)
	}
	text, isErr := call(t, c, "read_file", map[string]any{"path": "notes.txt"})
	if !isErr || !strings.Contains(text, "PolicyDenied") || !strings.Contains(text, "minimal") {
		t.Fatalf("narrowed tool: %v %q", isErr, text)
	}

	// A wider profile than the active one (coding) widens too: cron is
	// listed and the call passes the gate.
	full := gateway.New(core, gateway.Options{Profile: "full"})
	must(t, full.Refresh(ctx))
	cf, err := client.NewInProcessClient(full.Server())
	must(t, err)
	defer cf.Close()
	must(t, cf.Start(ctx))
	initialize(t, cf)
	if names := toolNames(t, cf); !slices.Contains(names, "cron") {
		t.Fatalf("full profile lacks cron: %v", names)
	}
	if text, isErr := call(t, cf, "cron", map[string]any{"action": "list"}); strings.Contains(text, "PolicyDenied") {
		t.Fatalf("cron under --profile full: %v %q", isErr, text)
	}

	wide := gateway.New(core, gateway.Options{})
	must(t, wide.Refresh(ctx))
	c2, err := client.NewInProcessClient(wide.Server())
	must(t, err)
	defer c2.Close()
	must(t, c2.Start(ctx))
	initialize(t, c2)
	text, isErr = call(t, c2, "exec", map[string]any{"command": "ldd /bin/true"})
	if !isErr || !strings.Contains(text, "not approved") || !strings.Contains(text, "timeout") {
		t.Fatalf("unanswered approval: %v %q", isErr, text)
	}

	if err := gateway.New(core, gateway.Options{Agent: "ghost"}).Refresh(ctx); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
	if err := gateway.New(core, gateway.Options{Profile: "turbo"}).Refresh(ctx); !errors.Is(err, policy.ErrUnknownProfile) {
		t.Fatalf("unknown profile: %v", err)
	}
}

func TestToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tok, path, created, err := gateway.LoadOrCreateToken(dir)
	if err != nil || !created || gateway.CheckToken(tok) != nil {
		t.Fatalf("create: %q %v %v", tok, created, err)
	}
	info, err := os.Stat(path)
	must(t, err)
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", info.Mode())
	}
	again, _, created, err := gateway.LoadOrCreateToken(dir)
	if err != nil || created || again != tok {
		t.Fatalf("second load: %q %v %v", again, created, err)
	}
	must(t, os.Chmod(path, 0o644))
	if _, _, _, err := gateway.LoadOrCreateToken(dir); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("loosened mode kept: %v", info.Mode())
	}
	must(t, os.WriteFile(path, []byte("short\n"), 0o600))
	if _, _, _, err := gateway.LoadOrCreateToken(dir); err == nil {
		t.Fatal("short stored token accepted")
	}
	if gateway.CheckToken("0123456789") == nil {
		t.Fatal("short token accepted")
	}
}
