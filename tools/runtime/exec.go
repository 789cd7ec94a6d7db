package runtime

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed exec.md
var execDoc string

// maxTimeout bounds timeout_seconds so a typo cannot pin a sandbox for days.
const maxTimeout = 24 * time.Hour

// ExecParams are the arguments of exec.
type ExecParams struct {
	Command        string `json:"command" description:"Shell command (bash syntax), each program judged as it runs"`
	Cwd            string `json:"cwd,omitempty" description:"Working directory relative to the workspace (default: the workspace)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" description:"Kill the command after this many seconds (default 60 on the host, 300 in the sandbox)"`
	Background     bool   `json:"background,omitempty" description:"Start it and return at once with a process id (see the process tool)"`
}

type execTool struct {
	sh *Shell
	d  Deps
}

func newExec(d Deps) (tools.Tool, error) {
	e := &execTool{sh: NewShell(d), d: d}
	return tools.New(tools.Spec{
		Name: "exec", Group: group, LongDescription: execDoc,
		Description:    "Run a shell command in the workspace (each program judged as it runs; risky ones need approval on the host, destructive ones are blocked).",
		Danger:         tools.DangerDangerous,
		ConfirmsItself: true,
	}, e.run)
}

func (e *execTool) run(ctx context.Context, p ExecParams) (tools.Result, error) {
	if !p.Background {
		return e.sh.Run(ctx, Command{Tool: "exec", Script: p.Command, Cwd: p.Cwd, Timeout: p.TimeoutSeconds}), nil
	}
	prep, bad := e.sh.Prepare(ctx, Command{Tool: "exec", Script: p.Command, Cwd: p.Cwd, Timeout: p.TimeoutSeconds})
	if bad != nil {
		return *bad, nil
	}
	if p.TimeoutSeconds <= 0 {
		prep.req.Timeout = time.Hour
	}
	proc := e.d.Processes.Start(ctx, prep.runner, prep.req, p.Command)
	return tools.Text(fmt.Sprintf("started background process %s (%s); poll it with process {\"action\":\"poll\",\"id\":%q}",
		proc.ID, prep.runner.Name(), proc.ID)), nil
}
