package warren

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/mcp"
)

// What MCP servers may ask of Warren (client features): roots are the
// asking agent's workspace; sampling runs on that agent's own provider and
// model, only after the user approved it; elicitation is a form the user
// answers (mcpelicit.go).

func (w *Warren) mcpClientHandlers() *mcp.ClientHandlers {
	return &mcp.ClientHandlers{Roots: w.mcpRoots, Sample: w.mcpSample, Elicit: w.mcpElicit}
}

// mcpRoots answers roots/list with the agent's workspace: the one of the
// call in flight, else the agent's configured one, else Warren's. The
// directories the server was configured with (absolute paths among its
// arguments) stay roots too: servers such as server-filesystem replace
// their configured directories with the client's roots, and declaring
// roots must not take away what the user gave the server.
func (w *Warren) mcpRoots(ctx context.Context, from mcp.Requester) ([]mcpgo.Root, error) {
	roots, err := w.workspaceRoot(ctx, from)
	if err != nil {
		return nil, err
	}
	if srv, err := w.MCP().Store().Get(ctx, from.Server); err == nil {
		for _, arg := range srv.Args {
			if !filepath.IsAbs(arg) {
				continue
			}
			if st, err := os.Stat(arg); err != nil || !st.IsDir() {
				continue
			}
			u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(arg))}
			if u.String() != roots[0].URI {
				roots = append(roots, mcpgo.Root{URI: u.String(), Name: "configured: " + arg})
			}
		}
	}
	return roots, nil
}

// workspaceRoot is the asking agent's workspace as a root.
func (w *Warren) workspaceRoot(ctx context.Context, from mcp.Requester) ([]mcpgo.Root, error) {
	ws := from.CallContext().Workspace
	if ws == "" && from.Agent != "" {
		if a, err := w.db.GetAgent(ctx, from.Agent); err == nil {
			ws = a.Workspace
		}
	}
	ws = firstNonEmpty(ws, w.workspace)
	abs, err := filepath.Abs(ws)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return []mcpgo.Root{{URI: u.String(), Name: "workspace"}}, nil
}

// maxSampleTokens caps what a server may ask for in one sampling request.
const maxSampleTokens = 16384

// mcpSample answers sampling/createMessage with the asking agent's model
// once the user approved; a denied or failed request is an error the
// server receives.
func (w *Warren) mcpSample(ctx context.Context, from mcp.Requester, p mcpgo.CreateMessageParams) (*mcpgo.CreateMessageResult, error) {
	agentKey := firstNonEmpty(from.Agent, "default")
	a, err := w.db.GetAgent(ctx, agentKey)
	if err != nil {
		return nil, fmt.Errorf("sampling: agent %s: %w", agentKey, err)
	}
	if p.MaxTokens <= 0 {
		return nil, errors.New("sampling: maxTokens must be positive")
	}
	msgs, err := samplingMessages(p)
	if err != nil {
		return nil, err
	}
	prov, model, _, err := w.provider(ctx, a, RunRequest{})
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	maxTokens := min(p.MaxTokens, maxSampleTokens)
	cc := from.CallContext()
	out, err := w.approvals.Decide(ctx, approvals.Request{
		Tool:     "mcp_sampling",
		Summary:  fmt.Sprintf("MCP server %s asks %s's model %s (%s) for up to %d tokens: %s", from.Server, a.Key, model, prov.Name(), maxTokens, samplePreview(msgs, 300)),
		Commands: [][]string{{"mcp_sampling", from.Server}},
		Cwd:      cc.Workspace,
		Agent:    a.Key,
		Session:  cc.SandboxKey,
		CallID:   cc.CallID,
		Reason:   fmt.Sprintf("a sampling request spends %s's model on the server's prompt", a.Key),
	})
	if err != nil {
		return nil, err
	}
	if !out.Allowed {
		return nil, fmt.Errorf("the user declined the sampling request (%s)", firstNonEmpty(out.Reason, out.By))
	}
	req := llm.Request{Model: model, Messages: msgs, MaxTokens: maxTokens}
	if p.Temperature > 0 {
		t := p.Temperature
		req.Temperature = &t
	}
	res, err := prov.Stream(ctx, req, nil)
	if err != nil {
		return nil, fmt.Errorf("sampling with %s: %w", model, err)
	}
	stop := "endTurn"
	if res.FinishReason == llm.FinishLength {
		stop = "maxTokens"
	}
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent(res.Message.Content)},
		Model:           model, StopReason: stop,
	}, nil
}

// samplingMessages turns a sampling request into model messages; only text
// is supported (Warren's providers take text).
func samplingMessages(p mcpgo.CreateMessageParams) ([]llm.Message, error) {
	var msgs []llm.Message
	if s := strings.TrimSpace(p.SystemPrompt); s != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s})
	}
	for i, m := range p.Messages {
		text, ok := m.Content.(mcpgo.TextContent)
		if !ok {
			return nil, fmt.Errorf("sampling: message %d is not text (%T); Warren samples text only", i, m.Content)
		}
		role := llm.RoleUser
		if m.Role == mcpgo.RoleAssistant {
			role = llm.RoleAssistant
		}
		msgs = append(msgs, llm.Message{Role: role, Content: text.Text})
	}
	if len(msgs) == 0 || msgs[len(msgs)-1].Role == llm.RoleSystem {
		return nil, errors.New("sampling: the request has no messages")
	}
	return msgs, nil
}

// samplePreview is the last user message, shortened, for the approval.
func samplePreview(msgs []llm.Message, n int) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			s := strings.Join(strings.Fields(msgs[i].Content), " ")
			if len(s) > n {
				s = s[:n] + "…"
			}
			return fmt.Sprintf("%q", s)
		}
	}
	return "(no user message)"
}
