package custom

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/runtime"
)

// Group is the policy group of every custom tool.
const Group = "custom"

// Deps is what a custom tool needs to run.
type Deps struct {
	Shell *runtime.Shell
	Store *Store
	// Secret registers env values with the scrubber so they never reach
	// the model or the user.
	Secret func(values ...string)
}

type tool struct {
	def  Definition
	info tools.Info
	d    Deps
}

// New turns a definition into a registry tool.
func New(def Definition, d Deps) (tools.Tool, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	schema, err := def.Schema()
	if err != nil {
		return nil, err
	}
	long := fmt.Sprintf("Custom tool. Runs: `%s` (arguments are shell-quoted; timeout %ds).", def.Command, def.TimeoutSeconds)
	return &tool{def: def, d: d, info: tools.Info{
		Name: def.Name, Group: Group, Description: def.Description, LongDescription: long,
		Schema: schema, Danger: tools.DangerWarning, Class: tools.ClassStatic,
	}}, nil
}

func (t *tool) Info() tools.Info { return t.info }

func (t *tool) Execute(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&args); err != nil {
			return tools.Errorf(tools.CodeValidation, "arguments: %v", err), nil
		}
	}
	script, err := Render(t.def.Command, args)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "%v", err), nil
	}
	env, err := t.d.Store.Env(ctx, t.def.Name, t.def.Agent)
	if err != nil {
		return tools.Result{}, err
	}
	if t.d.Secret != nil {
		vals := make([]string, 0, len(env))
		for _, v := range env {
			vals = append(vals, v)
		}
		t.d.Secret(vals...)
	}
	timeout := t.def.TimeoutSeconds
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	return t.d.Shell.Run(ctx, runtime.Command{Tool: t.def.Name, Script: script, Timeout: timeout, Env: env}), nil
}
