package runtime

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed process.md
var processDoc string

// ProcessParams are the arguments of process.
type ProcessParams struct {
	Action      string `json:"action" enum:"list|poll|kill" description:"list, poll or kill"`
	ID          string `json:"id,omitempty" description:"Process id from exec (for poll and kill)"`
	WaitSeconds int    `json:"wait_seconds,omitempty" description:"poll: wait up to this many seconds (max 60) for the process to end"`
}

func newProcess(d Deps) (tools.Tool, error) {
	t := d.Processes
	return tools.New(tools.Spec{
		Name: "process", Group: group, LongDescription: processDoc,
		Description: "List, poll the output of, or kill background commands started by exec.",
		Danger:      tools.DangerWarning,
	}, func(ctx context.Context, p ProcessParams) (tools.Result, error) {
		if p.Action == "list" {
			return listProcesses(t), nil
		}
		if p.ID == "" {
			return tools.Errorf(tools.CodeValidation, "%s needs the process id", p.Action), nil
		}
		var proc Process
		var ok bool
		switch p.Action {
		case "kill":
			proc, ok = t.Kill(p.ID)
			if ok {
				proc, _ = t.Wait(ctx, p.ID)
			}
		default:
			if p.WaitSeconds < 0 || p.WaitSeconds > 60 {
				return tools.Errorf(tools.CodeValidation, "wait_seconds must be between 0 and 60"), nil
			}
			wctx, cancel := context.WithTimeout(ctx, time.Duration(p.WaitSeconds)*time.Second)
			proc, ok = t.Wait(wctx, p.ID)
			cancel()
		}
		if !ok {
			return tools.Errorf(tools.CodeNotFound, "no background process %q (see process {\"action\":\"list\"})", p.ID), nil
		}
		return describe(proc), nil
	})
}

func listProcesses(t *Processes) tools.Result {
	procs := t.List()
	if len(procs) == 0 {
		return tools.Text("no background processes")
	}
	var b strings.Builder
	for _, p := range procs {
		state := "running"
		if p.Killed {
			state = "killed"
		} else if p.Done {
			state = fmt.Sprintf("exited %d", p.Result.ExitCode)
		}
		fmt.Fprintf(&b, "%s  %-10s  %s  %s  %s\n", p.ID, state, p.Where, p.Started.Format(time.TimeOnly), p.Command)
	}
	return tools.Text(b.String())
}

func describe(p Process) tools.Result {
	if !p.Done {
		return tools.Text(fmt.Sprintf("%s is running (%s, started %s ago): %s", p.ID, p.Where,
			time.Since(p.Started).Round(time.Second), p.Command))
	}
	if p.Killed {
		return tools.Text(fmt.Sprintf("%s finished: killed after %s: %s", p.ID, time.Since(p.Started).Round(time.Millisecond), p.Command))
	}
	if p.Err != "" {
		return tools.Errorf(tools.CodeExecution, "%s failed to run: %s", p.ID, p.Err)
	}
	r := FormatRun(p.Result, 0)
	prefix := fmt.Sprintf("%s finished: %s\n", p.ID, p.Command)
	r.ForLLM, r.ForUser = prefix+r.ForLLM, prefix+r.ForUser
	return r
}
