package warren

import (
	"context"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/tools"
)

// MCPToolRefusal explains why agent may not call tool when the name
// belongs to a configured MCP server but is not served: "CODE: reason", or
// "" when the name belongs to no configured server (the caller's own
// "unknown tool" then applies).
func (w *Warren) MCPToolRefusal(ctx context.Context, agent, profile, tool string) string {
	code, why := w.mcpRefusal(ctx, MCPUse{Agent: agent, Profile: profile}, tool)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s: %s", code, why)
}

// unknownTool is the registry's answer to a call of a tool it does not
// have: for an MCP server's tool name, the reason instead of "unknown tool".
func (w *Warren) unknownTool(ctx context.Context, call tools.Call) (tools.Result, bool) {
	// An agent that may use the tool hears why its server is not there
	// (down, stopped, the tool switched off) first.
	if res, ok := w.explainMissingTool(tools.WithCallContext(ctx, call.Context), call.Name); ok {
		return res, true
	}
	cc := call.Context
	code, why := w.mcpRefusal(ctx, MCPUse{Agent: cc.Agent, Profile: cc.Profile, Depth: cc.Depth}, call.Name)
	if why == "" {
		return tools.Result{}, false
	}
	return tools.Errorf(code, "%s", why), true
}

// mcpRefusal finds the configured server a tool name belongs to (the
// longest matching mcp_{prefix}_) and says why the tool is not there.
func (w *Warren) mcpRefusal(ctx context.Context, use MCPUse, tool string) (tools.ErrorCode, string) {
	if !strings.HasPrefix(tool, "mcp_") {
		return "", ""
	}
	verdicts, err := w.mcpVerdicts(ctx, use)
	if err != nil {
		return tools.CodeExecution, fmt.Sprintf("tool %s: cannot check its MCP server: %v", tool, err)
	}
	var best *mcpVerdict
	for i, v := range verdicts {
		p := mcp.ToolName(v.server.Prefix(), "")
		if strings.HasPrefix(tool, p) && (best == nil || len(p) > len(mcp.ToolName(best.server.Prefix(), ""))) {
			best = &verdicts[i]
		}
	}
	if best == nil {
		return "", ""
	}
	name := best.server.Name
	if best.why != "" {
		return tools.CodePolicyDenied, fmt.Sprintf("tool %s belongs to MCP server %s, which agent %s may not use: %s", tool, name, use.Agent, best.why)
	}
	short := strings.TrimPrefix(tool, mcp.ToolName(best.server.Prefix(), ""))
	w.mcp.mu.Lock()
	access, known := w.mcp.access[name]
	w.mcp.mu.Unlock()
	if known {
		// A tool the agent's grant leaves out: the grant's reason, never
		// the server's state.
		if ok, why := access.PermitsSwitchedOn(use.Agent, localUser, short); !ok {
			return tools.CodePolicyDenied, fmt.Sprintf("tool %s of MCP server %s is not granted to agent %s: %s", short, name, use.Agent, why)
		}
	}
	for _, off := range best.server.ToolDeny {
		if mcp.ToolName(best.server.Prefix(), off) == tool {
			// Switched off for everyone: gone, as far as agents are concerned.
			return tools.CodeNotFound, fmt.Sprintf("tool %s of MCP server %s is switched off", off, name)
		}
	}
	sts, err := w.MCP().Statuses(ctx)
	if err != nil {
		return tools.CodeExecution, fmt.Sprintf("tool %s: cannot check MCP server %s: %v", tool, name, err)
	}
	for _, st := range sts {
		if st.Name != name || st.State == mcp.StateConnected {
			continue
		}
		why := fmt.Sprintf("tool %s belongs to MCP server %s, which is %s", tool, name, st.State)
		if st.LastError != "" {
			why += ": " + w.Scrub(st.LastError)
		}
		return tools.CodeNetwork, why
	}
	return tools.CodeNotFound, fmt.Sprintf("MCP server %s offers no tool %s", name, tool)
}
