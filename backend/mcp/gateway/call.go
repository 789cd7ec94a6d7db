package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

// callTool is the handler of every served tool: it maps an MCP call to
// warren.CallTool and the outcome to an MCP result. It never returns a Go
// error, so a failure reaches the client as an isError result it can read
// rather than a protocol error, and it never panics the server.
func (g *Gateway) callTool(ctx context.Context, req mcp.CallToolRequest) (out *mcp.CallToolResult, _ error) {
	name := req.Params.Name
	defer func() {
		if p := recover(); p != nil {
			g.log.Error("mcp gateway: tool call panicked", "tool", name, "panic", p)
			out = mcp.NewToolResultError(fmt.Sprintf("%s: %s failed unexpectedly inside Warren", tools.CodeExecution, name))
		}
	}()
	args, err := rawArgs(req)
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("%s: %s: %v", tools.CodeValidation, name, err)), nil
	}
	session := SessionPrefix + clientName(ctx)
	ctx = g.forwardProgress(ctx, req)
	callID := fmt.Sprintf("mcp-%d", g.calls.Add(1))
	stopAsking := g.askByElicitation(ctx, callID)
	res, callErr := g.core.CallTool(ctx, warren.CallRequest{
		Name: name, Args: args, Agent: g.opts.Agent, Session: session, Channel: Channel, Profile: g.opts.Profile, CallID: callID,
	})
	stopAsking()
	g.log.LogAttrs(ctx, slog.LevelDebug, "mcp gateway: tool call", slog.String("tool", name),
		slog.String("session", session), slog.String("code", string(res.Code())))
	if callErr != nil {
		// The core's infrastructure failures carry no credentials by design;
		// scrub anyway, since the text leaves the process.
		msg := g.core.Scrub(callErr.Error())
		g.log.Warn("mcp gateway: tool call failed", "tool", name, "err", msg)
		if !res.IsError {
			return mcp.NewToolResultError(fmt.Sprintf("%s: Warren could not run %s: %s", tools.CodeExecution, name, msg)), nil
		}
	}
	if res.IsError {
		return mcp.NewToolResultError(res.ForLLM), nil
	}
	return mcp.NewToolResultText(res.ForLLM), nil
}

// forwardProgress passes the progress a pass-through MCP server reports
// for this call on to the client, when the client asked for progress.
func (g *Gateway) forwardProgress(ctx context.Context, req mcp.CallToolRequest) context.Context {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return ctx
	}
	token := req.Params.Meta.ProgressToken
	return wmcp.WithProgress(ctx, func(progress, total float64, message string) {
		params := map[string]any{"progressToken": token, "progress": progress}
		if total > 0 {
			params["total"] = total
		}
		if message != "" {
			params["message"] = g.core.Scrub(message)
		}
		if err := g.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params); err != nil {
			g.log.Debug("mcp gateway: progress not delivered", "err", err)
		}
	})
}

// rawArgs returns the call's arguments as a JSON object.
func rawArgs(req mcp.CallToolRequest) (json.RawMessage, error) {
	raw := bytes.TrimSpace(req.Params.RawArguments)
	if len(raw) == 0 && req.Params.Arguments != nil {
		b, err := json.Marshal(req.Params.Arguments)
		if err != nil {
			return nil, fmt.Errorf("arguments are not JSON: %v", err)
		}
		raw = b
	}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("arguments must be a JSON object")
	}
	return json.RawMessage(raw), nil
}

type transportKey struct{}

// withTransport records which transport serves the requests of ctx.
func withTransport(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, transportKey{}, name)
}

// transportFrom returns the transport recorded by withTransport.
func transportFrom(ctx context.Context) string {
	if s, ok := ctx.Value(transportKey{}).(string); ok {
		return s
	}
	return "client"
}

// clientName names the calling client for the session key: its declared
// name when it gave one, else the transport. Session keys name rate-limit
// buckets and sandbox containers, so the name is reduced to [a-z0-9._-].
func clientName(ctx context.Context) string {
	name := ""
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		name = info.ClientInfo.Name
	}
	if name == "" {
		if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
			name = s.GetClientInfo().Name
		}
	}
	if name = sanitize(name); name == "" {
		return transportFrom(ctx)
	}
	return name
}

func sanitize(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return strings.Trim(b.String(), "-.")
}
