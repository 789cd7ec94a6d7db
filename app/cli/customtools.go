package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/tools/custom"
)

// multiFlag collects repeated flags.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func runCustomTools(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, add or remove")
	}
	switch args[0] {
	case "list":
		return customList(ctx, env, args[1:])
	case "add":
		return customAdd(ctx, env, args[1:])
	case "remove":
		return customRemove(ctx, env, args[1:])
	}
	return usagef("unknown subcommand %q (want list, add or remove)", args[0])
}

func customList(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("custom-tools list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	defs, err := w.CustomTools().List(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		if defs == nil {
			defs = []custom.Definition{}
		}
		return printJSON(env, defs)
	}
	for _, p := range w.CustomToolProblems() {
		fmt.Fprintf(env.Stderr, "warning: %s\n", p)
	}
	if len(defs) == 0 {
		fmt.Fprintln(env.Stdout, "no custom tools (add one with `warren custom-tools add`)")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tAGENT\tENABLED\tENV\tCOMMAND")
	for _, d := range defs {
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\n", d.Name, orDash(d.Agent), d.Enabled, orDash(strings.Join(d.EnvKeys, ",")), d.Command)
	}
	return tw.Flush()
}

func customAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("custom-tools add", flag.ContinueOnError)
	file := fs.String("file", "", "JSON definition file (seed §11 format)")
	desc := fs.String("description", "", "what the tool does")
	command := fs.String("command", "", "shell command with {{.name}} placeholders")
	timeout := fs.Int("timeout", 0, "timeout in seconds (default 60)")
	agent := fs.String("agent", "", "only this agent sees the tool (default: all)")
	disabled := fs.Bool("disabled", false, "store it disabled")
	var params, required, envs multiFlag
	fs.Var(&params, "param", "parameter NAME=DESCRIPTION (repeatable; string type)")
	fs.Var(&required, "required", "required parameter NAME (repeatable)")
	fs.Var(&envs, "env", "environment variable K=V, stored encrypted (repeatable)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	var d custom.Definition
	switch {
	case *file != "" && len(pos) == 0:
		raw, err := os.ReadFile(*file)
		if err != nil {
			return fmt.Errorf("read %s: %w", *file, err)
		}
		d.Enabled = true // the seed's files say "enabled": true; absent means on
		if err := json.Unmarshal(raw, &d); err != nil {
			return usagef("%s is not a valid definition: %v", *file, err)
		}
	case *file == "" && len(pos) == 1:
		d = custom.Definition{Name: pos[0], Description: *desc, Command: *command, Enabled: !*disabled}
		d.Parameters, err = paramsSchema(params, required)
		if err != nil {
			return err
		}
	default:
		return usagef("give either --file F or NAME with --description and --command")
	}
	if *timeout != 0 {
		d.TimeoutSeconds = *timeout
	}
	if *agent != "" {
		d.Agent = *agent
	}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return usagef("--env %q: want K=V", kv)
		}
		if d.Env == nil {
			d.Env = map[string]string{}
		}
		d.Env[k] = v
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if err := w.SaveCustomTool(ctx, d); err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(env.Stdout, "saved custom tool %s\n", d.Name)
	return nil
}

// paramsSchema builds a JSON schema of string parameters from flags.
func paramsSchema(params, required []string) (json.RawMessage, error) {
	props := map[string]any{}
	for _, p := range params {
		name, desc, _ := strings.Cut(p, "=")
		props[name] = map[string]string{"type": "string", "description": desc}
	}
	for _, r := range required {
		if _, ok := props[r]; !ok {
			return nil, usagef("--required %s: no --param %s", r, r)
		}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return json.Marshal(schema)
}

func customRemove(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("custom-tools remove", flag.ContinueOnError)
	agent := fs.String("agent", "", "the agent the tool belongs to")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one tool NAME")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if err := w.DeleteCustomTool(ctx, pos[0], *agent); err != nil {
		if errors.Is(err, custom.ErrNotFound) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "removed custom tool %s\n", pos[0])
	return nil
}
