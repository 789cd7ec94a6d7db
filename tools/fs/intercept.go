package fs

import (
	"context"
	"fmt"
	iofs "io/fs"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// Interceptor may serve a path from somewhere other than the disk.
//
// rel is the workspace-relative, slash-separated path after policy/paths
// accepted it (so "./SOUL.md" and "/abs/ws/SOUL.md" both arrive as
// "SOUL.md"); paths under alias roots never reach interceptors. handled=false
// passes the path on to the next interceptor and finally the disk. A missing
// routed file is reported as an error wrapping io/fs.ErrNotExist.
type Interceptor interface {
	Read(ctx context.Context, rel string) (content string, handled bool, err error)
	Write(ctx context.Context, rel, content string, appendMode bool) (handled bool, err error)
}

// Defaults for calls whose context names no agent or user.
const (
	DefaultAgent = "default"
	DefaultUser  = "local"
)

// callIdentity returns the agent and user a routed file belongs to.
func callIdentity(ctx context.Context) (agent, user string) {
	agent, user = tools.AgentFrom(ctx), tools.UserFrom(ctx)
	if agent == "" {
		agent = DefaultAgent
	}
	if user == "" {
		user = DefaultUser
	}
	return agent, user
}

// interceptRead asks the chain for res; handled=false means read the disk.
func (e *env) interceptRead(ctx context.Context, res paths.Resolved) (string, bool, error) {
	if res.Alias != "" {
		return "", false, nil
	}
	for _, in := range e.chain {
		content, handled, err := in.Read(ctx, res.Rel)
		if err != nil {
			return "", true, err
		}
		if handled {
			return content, true, nil
		}
	}
	return "", false, nil
}

// interceptWrite offers a write to the chain; handled=false means write the disk.
func (e *env) interceptWrite(ctx context.Context, res paths.Resolved, content string, appendMode bool) (bool, error) {
	if res.Alias != "" {
		return false, nil
	}
	for _, in := range e.chain {
		handled, err := in.Write(ctx, res.Rel, content, appendMode)
		if err != nil {
			return true, err
		}
		if handled {
			return true, nil
		}
	}
	return false, nil
}

// notExist reports a routed file with no stored content.
func notExist(rel string) error {
	return fmt.Errorf("%s: %w", rel, iofs.ErrNotExist)
}
