package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/tools/credexec"
)

func runCredentials(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, add or remove")
	}
	fs := flag.NewFlagSet("credentials", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	preset := fs.String("preset", "", "start from a preset: gh, gcloud, aws, kubectl or terraform")
	path := fs.String("path", "", "absolute path of the binary (default: found on PATH now)")
	timeout := fs.Int("timeout", 0, "timeout in seconds")
	tips := fs.String("tips", "", "usage hints shown to the agent")
	var envs, deny multiFlag
	fs.Var(&envs, "env", "credential K=V, stored encrypted (repeatable; K= removes)")
	fs.Var(&deny, "deny", "argument deny regex (repeatable)")
	pos, w, err := parseOpen(ctx, env, fs, args[1:])
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	st := w.Credentials()
	switch args[0] {
	case "list":
		bs, err := st.List(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, bs)
		}
		if len(bs) == 0 {
			fmt.Fprintln(env.Stdout, "no credentialed binaries (add one with `warren credentials add gh --preset gh --env GH_TOKEN=…`)")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "BINARY\tPATH\tCREDENTIALS\tDENY")
		for _, b := range bs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Name, b.Path, orDash(strings.Join(b.EnvKeys, ",")), orDash(strings.Join(b.DenyArgs, " ")))
		}
		return tw.Flush()
	case "add":
		if len(pos) != 1 {
			return usagef("want one binary NAME, e.g. gh")
		}
		b := credexec.Binary{Name: pos[0]}
		if *preset != "" {
			p, ok := credexec.Presets[*preset]
			if !ok {
				return usagef("unknown preset %q (gh, gcloud, aws, kubectl, terraform)", *preset)
			}
			b = p
			b.Name = pos[0]
		}
		if old, err := st.Get(ctx, b.Name); err == nil && *preset == "" {
			b = old
			b.Env = nil
		}
		b.Path = *path
		if b.Path == "" {
			found, err := exec.LookPath(b.Name)
			if err != nil {
				return usagef("%s is not on PATH; pass --path", b.Name)
			}
			if b.Path, err = filepath.Abs(found); err != nil {
				return err
			}
		}
		if *timeout != 0 {
			b.TimeoutSeconds = *timeout
		}
		if *tips != "" {
			b.Tips = *tips
		}
		b.DenyArgs = append(b.DenyArgs, deny...)
		b.Env = map[string]string{}
		for _, kv := range envs {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return usagef("--env %q: want K=V", kv)
			}
			b.Env[k] = v
		}
		if err := st.Save(ctx, b); err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(env.Stdout, "saved %s (%s)\n", b.Name, b.Path)
		return nil
	case "remove":
		if len(pos) != 1 {
			return usagef("want one binary NAME")
		}
		if err := st.Delete(ctx, pos[0]); err != nil {
			if errors.Is(err, credexec.ErrNotFound) {
				return usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(env.Stdout, "removed %s\n", pos[0])
		return nil
	}
	return usagef("unknown subcommand %q (want list, add or remove)", args[0])
}
