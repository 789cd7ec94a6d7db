package warren

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/podman"
)

// mcpSandboxCommand builds the command that runs a sandboxed stdio MCP
// server inside a Podman container of its own: the sandbox's hardening,
// the default workspace mounted read-write at its own path, the server's
// files and runtime read-only, the network only when the server asks for
// it (see podman.StdioCommand). There is no fallback to the host, whatever
// the sandbox settings say: a server marked sandboxed is one its user does
// not trust with the host.
func (w *Warren) mcpSandboxCommand(ctx context.Context, s mcp.Server, env map[string]string) (*exec.Cmd, error) {
	cmd, err := w.podman().StdioCommand(ctx, podman.StdioSpec{
		Key:     "mcp:" + s.Name,
		Command: s.Command, Args: s.Args, Env: env, Dir: s.Cwd,
		Workspace: w.workspace, Network: s.SandboxNetwork,
	})
	if errors.Is(err, sandbox.ErrUnavailable) {
		return nil, fmt.Errorf("server %s runs in the sandbox, but Podman is unavailable: %w. "+
			"Start Podman's service (`systemctl --user start podman.socket`, or as root rerun scripts/podman-setup.sh), "+
			"check with `warren sandbox status`, or turn sandboxing off for this server", s.Name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("sandboxed server %s: %w", s.Name, err)
	}
	return cmd, nil
}
