package cli

import (
	"context"
	"flag"
	"fmt"
)

func runSettings(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("settings", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		pos = []string{"list"}
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	switch sub := pos[0]; {
	case sub == "list" && len(pos) == 1:
		if *asJSON {
			return printJSON(env, w.Settings())
		}
		for _, s := range w.Settings() {
			fmt.Fprintf(env.Stdout, "%s = %s   (default %s)\n    %s\n", s.Key, s.Value, s.Default, s.Description)
		}
		return nil
	case sub == "get" && len(pos) == 2:
		for _, s := range w.Settings() {
			if s.Key == pos[1] {
				fmt.Fprintln(env.Stdout, s.Value)
				return nil
			}
		}
		return usagef("unknown setting %q (see warren settings list)", pos[1])
	case sub == "set" && (len(pos) == 2 || len(pos) == 3):
		value := ""
		if len(pos) == 3 {
			value = pos[2]
		}
		if err := w.SetSetting(ctx, pos[1], value); err != nil {
			return usagef("%v", err)
		}
		if value == "" {
			fmt.Fprintf(env.Stdout, "%s back to its default\n", pos[1])
		} else {
			fmt.Fprintf(env.Stdout, "%s = %s\n", pos[1], value)
		}
		return nil
	}
	return usagef("want settings list | get KEY | set KEY [VALUE] (no VALUE: back to the default)")
}
