package automation

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed plan_create.md
var planCreateDoc string

// maxPlanSteps caps max_steps whatever the model asks for.
const maxPlanSteps = 20

// PlanCreateParams are the parameters of plan_create.
type PlanCreateParams struct {
	Task     string `json:"task" description:"The task to plan"`
	MaxSteps int    `json:"max_steps,omitempty" description:"Maximum number of steps (default 6, at most 20)"`
	Style    string `json:"style,omitempty" description:"Plan style hint, for example terse or detailed"`
	Model    string `json:"model,omitempty" description:"Model override for planning; ignored when the runtime cannot switch models"`
}

// PlanStep is one step of a plan.
type PlanStep struct {
	Title  string `json:"title"`
	Detail string `json:"detail,omitempty"`
}

// Plan is plan_create's result.
type Plan struct {
	Task     string     `json:"task"`
	Steps    []PlanStep `json:"steps"`
	Warnings []string   `json:"warnings,omitempty"`
}

const planSystem = `You are a planning assistant. Break the user's task into at most %d concrete, ordered steps.
Reply with JSON only, no prose and no code fences, exactly in this shape:
{"steps":[{"title":"short imperative step","detail":"what to do and how to know it is done"}]}`

func newPlanCreate(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "plan_create", Group: "automation", LongDescription: planCreateDoc, Class: tools.ClassRuntime,
		Description: "Create a short, ordered JSON plan (steps with title and detail) for a complex task.",
	}, func(ctx context.Context, p PlanCreateParams) (tools.Result, error) {
		if d.Completer == nil {
			return tools.Errorf(tools.CodeExecution, "plan_create unavailable (missing llm client)"), nil
		}
		task := strings.TrimSpace(p.Task)
		if task == "" {
			return tools.Errorf(tools.CodeValidation, "task is required"), nil
		}
		limit := p.MaxSteps
		if limit <= 0 {
			limit = d.PlanMaxSteps
		}
		limit = min(limit, maxPlanSteps)
		user := "Task: " + task
		if s := strings.TrimSpace(p.Style); s != "" {
			user += "\nStyle: " + s
		}
		system := fmt.Sprintf(planSystem, limit)
		out, err := d.Completer.Complete(ctx, system, user)
		if err != nil {
			return tools.Errorf(tools.CodeExecution, "plan_create: model call failed: %v", err), nil
		}
		plan, perr := parsePlan(out)
		if perr != nil { // one repair round: show the model its mistake
			repair := fmt.Sprintf("%s\n\nYour previous reply was invalid (%v):\n%s\n\nReply again with the JSON only.", user, perr, tools.Clip(out, 2000))
			if out, err = d.Completer.Complete(ctx, system, repair); err != nil {
				return tools.Errorf(tools.CodeExecution, "plan_create: model call failed: %v", err), nil
			}
			if plan, perr = parsePlan(out); perr != nil {
				return tools.Errorf(tools.CodeExecution, "plan_create: the model returned an invalid plan twice: %v", perr), nil
			}
			plan.Warnings = append(plan.Warnings, "plan_repaired")
		}
		if len(plan.Steps) > limit {
			plan.Steps = plan.Steps[:limit]
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("plan_truncated_to_%d_steps", limit))
		}
		if p.Model != "" {
			plan.Warnings = append(plan.Warnings, "model_override_ignored")
		}
		plan.Task = task
		raw, err := json.MarshalIndent(plan, "", "  ")
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(string(raw)), nil
	})
}

// parsePlan extracts and validates the plan JSON from a model reply,
// tolerating code fences and prose around the object.
func parsePlan(out string) (Plan, error) {
	i, j := strings.Index(out, "{"), strings.LastIndex(out, "}")
	if i < 0 || j < i {
		return Plan{}, errors.New("no JSON object in the reply")
	}
	var plan Plan
	if err := json.Unmarshal([]byte(out[i:j+1]), &plan); err != nil {
		return Plan{}, fmt.Errorf("not valid plan JSON: %w", err)
	}
	if len(plan.Steps) == 0 {
		return Plan{}, errors.New(`"steps" is missing or empty`)
	}
	for n, s := range plan.Steps {
		plan.Steps[n].Title, plan.Steps[n].Detail = strings.TrimSpace(s.Title), strings.TrimSpace(s.Detail)
		if plan.Steps[n].Title == "" {
			return Plan{}, fmt.Errorf("step %d has no title", n+1)
		}
	}
	plan.Warnings = nil
	return plan, nil
}
