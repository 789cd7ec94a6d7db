// Package system holds small tools about time, environment, the session and
// the workspace.
package system

import (
	"time"

	"github.com/warren-dev/warren/tools"
)

// Deps configures the system tools.
type Deps struct {
	// Workspace is the fallback when the call context carries none.
	Workspace string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Getenv reads the environment; nil means os.Getenv via LookupEnv.
	LookupEnv func(string) (string, bool)
	// Started is when Warren started (for session_status uptime).
	Started time.Time
}

// Tools builds every system tool.
func Tools(deps Deps) ([]tools.Tool, error) {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Started.IsZero() {
		deps.Started = deps.Now()
	}
	builders := []func(Deps) (tools.Tool, error){
		newDatetime, newCurrentTime, newGetEnv, newSessionStatus, newWorkspaceDir,
	}
	out := make([]tools.Tool, 0, len(builders))
	for _, b := range builders {
		t, err := b(deps)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func workspace(ctxWorkspace, fallback string) string {
	if ctxWorkspace != "" {
		return ctxWorkspace
	}
	return fallback
}
