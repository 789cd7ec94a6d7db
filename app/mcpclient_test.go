package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
)

// TestMCPClientFeaturesInTheWindow: resources and prompts as the chat's
// agent may use them, and a server's question shown and answered in the
// window (which attaches itself as the place to ask at Startup).
func TestMCPClientFeaturesInTheWindow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	core, err := warren.Open(ctx, warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	questions := make(chan warren.ElicitationRequest, 4)
	a := app.New(core, app.Options{Emit: func(ctx context.Context, name string, data ...any) {
		if name != app.EventMCPElicitation {
			return
		}
		if q, ok := data[0].(events.Event).Payload.(warren.ElicitationRequest); ok {
			questions <- q
		}
	}})
	actx, cancel := context.WithCancel(ctx)
	a.Startup(actx)
	t.Cleanup(func() { a.Shutdown(actx); cancel() })

	if err := a.AddMCPServer(mcp.Server{Name: "ev", Transport: mcp.TransportStdio, Command: everythingBin(t), Args: []string{"stdio"}, Enabled: true}, true); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	if err := core.ConnectMCP(wctx, "ev"); err != nil {
		t.Fatal(err)
	}

	list, err := a.MCPResources("ev", "default")
	if err != nil || !slices.ContainsFunc(list.Resources, func(r mcpgo.Resource) bool { return strings.HasSuffix(r.URI, "/features.md") }) || len(list.Templates) == 0 {
		t.Fatalf("resources: %v %+v", err, list)
	}
	uri := "demo://resource/static/document/features.md"
	contents, err := a.ReadMCPResource("ev", "default", uri)
	if err != nil || len(contents) != 1 || !strings.Contains(contents[0].Text, "Everything Server") {
		t.Fatalf("read: %v %+v", err, contents)
	}
	att, err := a.AttachMCPResource("ev", "default", uri)
	if err != nil || att.Path != "attachments/features.md" || att.Size == 0 {
		t.Fatalf("attach: %v %+v", err, att)
	}
	// A blob resource is attached decoded.
	blob, err := a.AttachMCPResource("ev", "default", "demo://resource/dynamic/blob/1")
	if err != nil || blob.Size == 0 {
		t.Fatalf("attach blob: %v %+v", err, blob)
	}

	prompts, err := a.MCPChatPrompts("default")
	if err != nil || !slices.ContainsFunc(prompts, func(p warren.MCPChatPrompt) bool { return p.Server == "ev" && p.Prompt.Name == "args-prompt" }) {
		t.Fatalf("prompts: %v %+v", err, prompts)
	}
	text, err := a.RenderMCPPrompt("ev", "default", "args-prompt", map[string]string{"city": "Paris"})
	if err != nil || text != "What's weather in Paris?" {
		t.Fatalf("render: %q %v", text, err)
	}
	chatRes, err := a.MCPChatResources("default")
	if err != nil || !slices.ContainsFunc(chatRes, func(r warren.MCPChatResource) bool { return r.Server == "ev" && r.Resource.URI == uri }) {
		t.Fatalf("chat resources: %v %d", err, len(chatRes))
	}
	// Another agent that may not use the server gets nothing.
	if _, err := a.MCPResources("ev", "nobody"); err == nil {
		t.Fatal("an unknown agent read the server's resources")
	}

	done := make(chan string, 1)
	go func() {
		res, err := core.CallTool(ctx, warren.CallRequest{Name: "mcp_ev_trigger-elicitation-request", Args: []byte(`{}`), Agent: "default"})
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.ForLLM
	}()
	var q warren.ElicitationRequest
	select {
	case q = <-questions:
	case <-time.After(20 * time.Second):
		t.Fatal("the window was not asked")
	}
	if q.Server != "ev" || q.Agent != "default" || len(q.Fields) == 0 || len(a.PendingElicitations()) != 1 {
		t.Fatalf("question = %+v", q)
	}
	if ok, err := a.AnswerElicitation(warren.ElicitationAnswer{ID: q.ID, Action: "accept", Content: map[string]any{"name": "Grace", "check": true}}); !ok || err != nil {
		t.Fatalf("answer: %v %v", ok, err)
	}
	if out := <-done; !strings.Contains(out, "Grace") || !strings.Contains(out, "accept") {
		t.Fatalf("tool result = %s", out)
	}
}
