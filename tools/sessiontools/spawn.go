package sessiontools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/tools"
)

//go:embed spawn.md
var spawnDoc string

// SpawnParams are the arguments of spawn.
type SpawnParams struct {
	Action  string `json:"action" enum:"spawn|run|list|cancel|steer" description:"spawn (background), run (wait), list, cancel or steer"`
	Task    string `json:"task,omitempty" description:"spawn/run: what the subagent should do, with all the context it needs"`
	Label   string `json:"label,omitempty" description:"spawn/run: a short name for the task"`
	ID      string `json:"id,omitempty" description:"cancel: a subagent id, all or last; steer: the subagent id"`
	Message string `json:"message,omitempty" description:"steer: the new instruction"`
}

// Spawn builds the engine-scoped spawn tool over a subagent manager; run
// executes a child with the parent run's model.
func Spawn(m *agent.Subagents, run agent.ChildRunner) (tools.Tool, error) {
	if m == nil || run == nil {
		return nil, errors.New("spawn: subagent manager and runner are required")
	}
	return tools.New(tools.Spec{
		Name: "spawn", Group: "sessions", LongDescription: spawnDoc, Class: tools.ClassEngineScoped,
		Description: "Run subagents on tasks in parallel or in the background; list, cancel or steer them.",
		Danger:      tools.DangerWarning,
	}, func(ctx context.Context, p SpawnParams) (tools.Result, error) {
		cc := tools.CallContextFrom(ctx)
		parent := cc.SandboxKey
		switch p.Action {
		case "spawn", "run":
			if strings.TrimSpace(p.Task) == "" {
				return tools.Errorf(tools.CodeValidation, "%s needs a task", p.Action), nil
			}
			s := agent.Spawn{Parent: parent, Agent: cc.Agent, Depth: cc.Depth + 1, Task: p.Task, Label: p.Label, Runner: run}
			var t agent.Task
			var err error
			if p.Action == "run" {
				t, err = m.Run(ctx, s)
			} else {
				t, err = m.Start(ctx, s)
			}
			if errors.Is(err, agent.ErrLimit) {
				return tools.Errorf(tools.CodeRateLimited, "%v", err), nil
			}
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Text(describeTask(t)), nil
		case "list":
			ts := m.List(parent)
			if len(ts) == 0 {
				return tools.Text("no subagents in this session"), nil
			}
			var b strings.Builder
			for _, t := range ts {
				b.WriteString(describeTask(t))
				b.WriteString("\n")
			}
			return tools.Text(b.String()), nil
		case "cancel":
			if p.ID == "" {
				return tools.Errorf(tools.CodeValidation, "cancel needs id (a subagent id, all or last)"), nil
			}
			ids, err := m.Cancel(parent, p.ID)
			if err != nil {
				return tools.Errorf(tools.CodeNotFound, "%v", err), nil
			}
			return tools.Text(fmt.Sprintf("cancelled %d subagent(s) %s", len(ids), strings.Join(ids, ", "))), nil
		case "steer":
			if p.ID == "" || strings.TrimSpace(p.Message) == "" {
				return tools.Errorf(tools.CodeValidation, "steer needs id and message"), nil
			}
			t, err := m.Steer(ctx, parent, p.ID, p.Message)
			if errors.Is(err, agent.ErrLimit) {
				return tools.Errorf(tools.CodeRateLimited, "%v", err), nil
			}
			if err != nil {
				return tools.Errorf(tools.CodeNotFound, "%v", err), nil
			}
			return tools.Text("steered: " + describeTask(t)), nil
		}
		return tools.Errorf(tools.CodeValidation, "unknown action %q", p.Action), nil
	})
}

func describeTask(t agent.Task) string {
	s := fmt.Sprintf("%s [%s] %s", t.ID, t.Status, firstNonEmpty(t.Label, tools.OneLine(t.Task, 80)))
	switch t.Status {
	case agent.TaskCompleted:
		s += "\nresult: " + t.Result
	case agent.TaskFailed:
		s += "\nerror: " + t.Error
	}
	return s
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
