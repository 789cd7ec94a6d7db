package warren

import (
	"context"
	"errors"
	"os/exec"

	"github.com/warren-dev/warren/backend/mcp"
)

// mcpSandboxCommand builds the command that runs a sandboxed stdio MCP
// server inside a Podman container.
func (w *Warren) mcpSandboxCommand(ctx context.Context, s mcp.Server, env map[string]string) (*exec.Cmd, error) {
	return nil, errors.New("sandboxed MCP servers are not available yet")
}
