package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/sandbox/podman"
)

func runSandbox(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: status, doctor, image build, prune or set")
	}
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	from := fs.String("from", "", "image build: pull this image instead of building offline")
	all := fs.Bool("all", false, "prune: also remove other running Warren processes' containers")
	mode := fs.String("mode", "", "set: podman or host")
	fallback := fs.String("fallback", "", "set: deny or host")
	image := fs.String("image", "", "set: the image sandbox containers run")
	agent := fs.String("agent", "", "doctor: check this agent's workspace and network setting (default: the default workspace, network included)")
	sub := args[0]
	rest := args[1:]
	if sub == "image" {
		if len(rest) == 0 || rest[0] != "build" {
			return usagef("want `sandbox image build [--from IMAGE]`")
		}
		rest = rest[1:]
	}
	pos, err := parse(fs, rest)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	switch sub {
	case "status":
		st := w.SandboxStatus(ctx)
		if *asJSON {
			return printJSON(env, st)
		}
		printSandboxStatus(env, st)
		return nil
	case "doctor":
		fmt.Fprintln(env.Stderr, "checking the sandbox (this starts real containers)…")
		checks, err := w.SandboxDoctor(ctx, *agent)
		if err != nil {
			return usagef("%v", err)
		}
		if *asJSON {
			if err := printJSON(env, checks); err != nil {
				return err
			}
		} else {
			podman.PrintChecks(env.Stdout, checks)
		}
		if podman.Failed(checks) {
			return errors.New("the sandbox does not fully work: each FAIL above says what fixes it")
		}
		return nil
	case "image":
		fmt.Fprintln(env.Stderr, "building the sandbox image…")
		rep, err := w.BuildSandboxImage(ctx, *from)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "image %s ready (%s, id %.12s)\n", rep.Image, rep.Source, rep.ID)
		return nil
	case "prune":
		pruned, err := w.PruneSandbox(ctx, *all)
		if err != nil {
			return err
		}
		for _, p := range pruned {
			fmt.Fprintf(env.Stdout, "removed %s (session %s, Warren pid %d)\n", p.Name, p.Key, p.OwnerPID)
		}
		fmt.Fprintf(env.Stdout, "%d container(s) removed\n", len(pruned))
		return nil
	case "set":
		s := w.SandboxSettings()
		if *mode != "" {
			s.Mode = *mode
		}
		if *fallback != "" {
			s.Fallback = *fallback
		}
		if *image != "" {
			s.Image = *image
		}
		if err := w.SetSandboxSettings(ctx, s); err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(env.Stdout, "sandbox: mode=%s fallback=%s image=%s\n", s.Mode, s.Fallback, orDash(s.Image))
		return nil
	}
	return usagef("unknown subcommand %q (want status, doctor, image build, prune or set)", sub)
}

func printSandboxStatus(env Env, st warren.SandboxStatus) {
	out := env.Stdout
	p := st.Podman
	switch {
	case st.Settings.Mode == warren.SandboxHost:
		fmt.Fprintln(out, "Commands run ON THIS MACHINE (sandbox mode: host).")
	case st.Available:
		fmt.Fprintln(out, "Commands run in Podman containers.")
	default:
		fmt.Fprintf(out, "Sandbox UNAVAILABLE: commands are %s.\n",
			map[string]string{"deny": "refused (fallback=deny)", "host": "run on this machine, flagged (fallback=host)"}[st.Settings.Fallback])
	}
	fmt.Fprintf(out, "mode: %s   fallback: %s\n", st.Settings.Mode, st.Settings.Fallback)
	if p.Connected {
		fmt.Fprintf(out, "podman: %s (%s), version %s, rootless %v, runtime %s, cgroup %s\n",
			p.Endpoint, p.Source, p.ServiceVersion, p.Rootless, p.Runtime, p.CgroupVersion)
	}
	fmt.Fprintf(out, "image: %s (present: %v)\n", p.Image, p.ImagePresent)
	if p.Runner != "" {
		fmt.Fprintf(out, "runner: %s\n", p.Runner)
	}
	for _, pr := range st.Problems {
		fmt.Fprintf(out, "problem: %s\n", pr)
	}
	for _, wr := range st.Warnings {
		fmt.Fprintf(out, "warning: %s\n", wr)
	}
	fmt.Fprintf(out, "containers: %d\n", len(p.Containers))
	for _, c := range p.Containers {
		fmt.Fprintf(out, "  %.12s  session=%s  state=%s  age=%s  idle=%s  mine=%v\n", c.ID, c.Key, c.State, c.Age.Round(1e9), c.Idle.Round(1e9), c.Mine)
	}
}
