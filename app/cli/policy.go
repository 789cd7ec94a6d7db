package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
)

func runPolicy(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: explain, profile or also-allow")
	}
	switch args[0] {
	case "also-allow":
		return runAlsoAllow(ctx, env, args[1:])
	case "explain":
		return runExplain(ctx, env, args[1:])
	case "profile":
		return runProfile(ctx, env, args[1:])
	}
	return usagef("unknown subcommand %q (want explain, profile or also-allow)", args[0])
}

func runExplain(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("policy explain", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	profile := fs.String("profile", "", "policy profile (default: the active one)")
	agent := fs.String("agent", "", "apply this agent's policy")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one TOOL name")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	connectMCP(ctx, env, w, pos[0])
	x, err := w.ExplainTool(ctx, pos[0], *profile, *agent)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	fmt.Fprintln(env.Stdout, strings.TrimRight(x.String(), "\n"))
	return nil
}

func runProfile(ctx context.Context, env Env, args []string) error {
	if len(args) > 1 {
		return usagef("want at most one profile NAME")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(args) == 1 {
		if err := w.SetActiveProfile(ctx, args[0]); err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(env.Stdout, "active profile: %s\n", args[0])
		return nil
	}
	fmt.Fprintf(env.Stdout, "active profile: %s (available: %v)\n", w.ActiveProfile(), w.Profiles())
	return nil
}

// runAlsoAllow adds (or with --remove drops) a global also-allow entry, the
// way to offer e.g. MCP tools under a profile that does not include them.
func runAlsoAllow(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("policy also-allow", flag.ContinueOnError)
	remove := fs.Bool("remove", false, "remove the entry instead")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) == 0 {
		fmt.Fprintf(env.Stdout, "also-allow: %s\n", strings.Join(w.PolicyConfig().AlsoAllow, ", "))
		return nil
	}
	if len(pos) != 1 {
		return usagef("want one TOOL or group:NAME entry")
	}
	if err := w.SetAlsoAllow(ctx, pos[0], !*remove); err != nil {
		return usagef("%v", err)
	}
	if !*remove {
		for _, warning := range w.EntryWarnings(pos[0:1]) {
			fmt.Fprintf(env.Stderr, "warning: %s\n", strings.TrimPrefix(warning, "also_allow[0]: "))
		}
	}
	fmt.Fprintf(env.Stdout, "also-allow: %s\n", strings.Join(w.PolicyConfig().AlsoAllow, ", "))
	return nil
}
