package gateway_test

import (
	"context"
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

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
)

func everythingBin(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../testdata/servers/node_modules/.bin/mcp-server-everything")
	must(t, err)
	if _, err := os.Stat(p); err != nil {
		t.Fatal("server-everything is not installed: run ./scripts/bootstrap.sh")
	}
	return p
}

// addPassThrough configures server-everything as "ev" (offered to agents)
// and a restricted copy "secret" the default agent has no grant for.
func addPassThrough(t *testing.T, core *warren.Warren) {
	t.Helper()
	ctx := context.Background()
	for _, s := range []wmcp.Server{
		{Name: "ev", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true},
		{Name: "secret", Transport: wmcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true, Restricted: true},
	} {
		must(t, core.SaveMCPServer(ctx, s, wmcp.ReplaceSecrets))
		must(t, core.SetAlsoAllow(ctx, "group:mcp:"+s.Name, true))
	}
}

// progressLog records the progress notifications a client receives.
type progressLog struct {
	mu    sync.Mutex
	steps []float64
	token []any
}

func (p *progressLog) handle(n mcp.JSONRPCNotification) {
	if n.Method != string(mcp.MethodNotificationProgress) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	v, _ := n.Params.AdditionalFields["progress"].(float64)
	p.steps = append(p.steps, v)
	p.token = append(p.token, n.Params.AdditionalFields["progressToken"])
}

// TestPassThroughHTTP: the gateway serves the configured servers the agent
// may use, under the same policy and grants, and forwards progress and
// tools/list_changed; an ungranted server's tool is refused by name.
func TestPassThroughHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	core := openCore(t, warren.Options{})
	addPassThrough(t, core)
	g := gateway.New(core, gateway.Options{RefreshInterval: 50 * time.Millisecond})
	url := serveHTTP(t, g)
	c, err := client.NewStreamableHttpClient(url,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithContinuousListening()) //nolint:staticcheck // SA1019: list_changed over the GET stream
	must(t, err)
	t.Cleanup(func() { _ = c.Close() })
	var notes notifications
	var progress progressLog
	c.OnNotification(notes.handle)
	c.OnNotification(progress.handle)
	must(t, c.Start(ctx))
	initialize(t, c)

	names := toolNames(t, c)
	if !slices.Contains(names, "mcp_ev_echo") || !slices.Contains(names, "read_file") {
		t.Fatalf("tools/list lacks the pass-through or built-in tools: %v", names)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "mcp_secret_") {
			t.Fatalf("the ungranted server's tool %s is listed", n)
		}
	}
	text, isErr := call(t, c, "mcp_ev_echo", map[string]any{"message": "through the gateway"})
	if isErr || !strings.Contains(text, "through the gateway") {
		t.Fatalf("mcp_ev_echo: %v %q", isErr, text)
	}

	t.Run("an ungranted server's tool called by name is refused with the reason", func(t *testing.T) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "mcp_secret_echo", map[string]any{"message": "x"}
		_, err := c.CallTool(ctx, req)
		if err == nil || !strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "restricted") {
			t.Fatalf("mcp_secret_echo: %v", err)
		}
	})

	t.Run("progress of a pass-through call reaches the client", func(t *testing.T) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "mcp_ev_trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3}
		req.Params.Meta = &mcp.Meta{ProgressToken: "client-token-7"}
		res, err := c.CallTool(ctx, req)
		must(t, err)
		if res.IsError {
			t.Fatalf("long-running operation: %s", wmcp.ResultText(res))
		}
		waitFor(t, "three progress notifications", func() bool {
			progress.mu.Lock()
			defer progress.mu.Unlock()
			return len(progress.steps) >= 3
		})
		progress.mu.Lock()
		defer progress.mu.Unlock()
		if progress.steps[0] != 1 || progress.steps[2] != 3 || progress.token[0] != "client-token-7" {
			t.Fatalf("progress = %v tokens %v", progress.steps, progress.token)
		}
	})

	t.Run("resources and prompts pass through, namespaced by server", func(t *testing.T) {
		var rs *mcp.ListResourcesResult
		waitFor(t, "ev's resources", func() bool {
			var err error
			rs, err = c.ListResources(ctx, mcp.ListResourcesRequest{})
			must(t, err)
			return len(rs.Resources) > 0
		})
		for _, r := range rs.Resources {
			if !strings.HasPrefix(r.URI, "mcp://ev/") {
				t.Fatalf("resource %q is not ev's (or not namespaced)", r.URI)
			}
		}
		req := mcp.ReadResourceRequest{}
		req.Params.URI = rs.Resources[0].URI
		read, err := c.ReadResource(ctx, req)
		must(t, err)
		if len(read.Contents) == 0 {
			t.Fatalf("read %s: no contents", req.Params.URI)
		}
		req.Params.URI = "mcp://secret/demo://resource/static/document/x.md"
		if _, err := c.ReadResource(ctx, req); err == nil || !strings.Contains(err.Error(), "restricted") {
			t.Fatalf("reading an ungranted server's resource: %v", err)
		}
		tl, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
		must(t, err)
		var evTemplate string
		for _, rt := range tl.ResourceTemplates {
			if raw := rt.URITemplate.Raw(); strings.HasPrefix(raw, "mcp://ev/") {
				evTemplate = raw
			}
		}
		if evTemplate == "" {
			t.Fatalf("ev's resource templates are not listed (namespaced): %+v", tl.ResourceTemplates)
		}
		req.Params.URI = "mcp://ev/demo://resource/dynamic/text/7" // made from one of ev's templates
		read, err = c.ReadResource(ctx, req)
		must(t, err)
		if text, ok := mcp.AsTextResourceContents(read.Contents[0]); !ok || text.URI != req.Params.URI || text.Text == "" {
			t.Fatalf("templated resource: %+v", read.Contents)
		}
		ps, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
		must(t, err)
		var names []string
		for _, p := range ps.Prompts {
			names = append(names, p.Name)
		}
		if !slices.Contains(names, "ev_simple-prompt") || slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "secret_") }) {
			t.Fatalf("prompts: %v", names)
		}
		preq := mcp.GetPromptRequest{}
		preq.Params.Name = "ev_simple-prompt"
		got, err := c.GetPrompt(ctx, preq)
		must(t, err)
		if len(got.Messages) == 0 {
			t.Fatal("ev_simple-prompt rendered no messages")
		}
	})

	t.Run("tools/list_changed when a server's tools change", func(t *testing.T) {
		before := notes.count(string(mcp.MethodNotificationToolsListChanged))
		must(t, core.SetMCPToolEnabled(ctx, "ev", "get-sum", false))
		waitFor(t, "tools/list_changed", func() bool {
			return notes.count(string(mcp.MethodNotificationToolsListChanged)) > before
		})
		if slices.Contains(toolNames(t, c), "mcp_ev_get-sum") {
			t.Fatal("a switched-off tool is still listed")
		}
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "mcp_ev_get-sum", map[string]any{"a": 1, "b": 2}
		if _, err := c.CallTool(ctx, req); err == nil || !strings.Contains(err.Error(), "switched off") {
			t.Fatalf("switched-off tool by name: %v", err)
		}
	})
}
