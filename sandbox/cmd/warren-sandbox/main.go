// Command warren-sandbox manages Warren's Podman sandbox without the app:
// scripts/podman-setup.sh builds the default image with it, and it shows
// what `warren sandbox status|image build|prune` do (the same functions).
//
//	warren-sandbox status [-json]
//	warren-sandbox image build [-image REF] [-from IMAGE] [-busybox PATH]
//	warren-sandbox prune [-all]
//	warren-sandbox doctor [-json] [-workspace DIR] [-network=false]
//
// doctor without -workspace makes a scratch workspace the way Warren makes
// its own (handed to the sandbox user when Warren runs as root) and runs
// real containers in it; it exits 1 when a check fails.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/warren-dev/warren/sandbox/podman"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "warren-sandbox:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	usage := "usage: warren-sandbox status [-json] | image build [-image REF] [-from IMAGE] [-busybox PATH] | prune [-all] | doctor [-json] [-workspace DIR] [-network=false]"
	if len(args) == 0 {
		return fmt.Errorf("%s", usage)
	}
	cmd, args := args[0], args[1:]
	if cmd == "image" {
		if len(args) == 0 || args[0] != "build" {
			return fmt.Errorf("%s", usage)
		}
		cmd, args = "image build", args[1:]
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	image := fs.String("image", "", "image reference to create (default "+podman.DefaultImage+")")
	from := fs.String("from", "", "pull this image instead of building offline")
	busybox := fs.String("busybox", "", "static busybox for the offline build")
	all := fs.Bool("all", false, "also remove containers of other running Warren processes")
	workspace := fs.String("workspace", "", "doctor: the workspace to check (default: a scratch one)")
	network := fs.Bool("network", true, "doctor: also run a container with the network opt-in")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := podman.Options{}
	if cmd == "doctor" && *workspace == "" {
		dir, err := scratchWorkspace()
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(dir) }()
		*workspace = dir
		opts.OwnWorkspace = func(d string) bool { return d == dir }
	}
	if *image != "" {
		opts.Image = *image
	}
	m := podman.New(ctx, opts)
	defer func() { _ = m.Close(context.WithoutCancel(ctx)) }()

	switch cmd {
	case "status":
		st := m.Status(ctx)
		if *asJSON {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(st)
		}
		printStatus(out, st)
		return nil
	case "image build":
		rep, err := m.BuildImage(ctx, podman.ImageOptions{Image: *image, From: *from, Busybox: *busybox})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "built %s (%s) from %s\n", rep.Image, rep.ID, rep.Source)
		return nil
	case "doctor":
		checks := m.Doctor(ctx, podman.DoctorOptions{Workspace: *workspace, Run: true, Network: *network})
		if *asJSON {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			if err := enc.Encode(checks); err != nil {
				return err
			}
		} else {
			podman.PrintChecks(out, checks)
		}
		if podman.Failed(checks) {
			return fmt.Errorf("the sandbox does not fully work: see FAIL above")
		}
		return nil
	case "prune":
		pruned, err := m.Prune(ctx, *all)
		for _, p := range pruned {
			fmt.Fprintf(out, "removed %s (%s, key %q, owner pid %d)\n", p.Name, p.ID, p.Key, p.OwnerPID)
		}
		fmt.Fprintf(out, "%d container(s) removed\n", len(pruned))
		return err
	}
	return fmt.Errorf("unknown command %q; %s", cmd, usage)
}

func printStatus(out io.Writer, st podman.Status) {
	if !st.Connected {
		fmt.Fprintf(out, "podman: not connected: %s\n", st.Error)
		return
	}
	fmt.Fprintf(out, "podman:     %s (%s), version %s, rootless=%v, runtime %s, cgroup %s\n",
		st.Endpoint, st.Source, st.ServiceVersion, st.Rootless, st.Runtime, st.CgroupVersion)
	fmt.Fprintf(out, "image:      %s (present=%v)\n", st.Image, st.ImagePresent)
	if st.RunnerError != "" {
		fmt.Fprintf(out, "runner:     unavailable: %s\n", st.RunnerError)
	} else {
		fmt.Fprintf(out, "runner:     %s\n", st.Runner)
	}
	fmt.Fprintf(out, "containers: %d\n", len(st.Containers))
	for _, c := range st.Containers {
		fmt.Fprintf(out, "  %s %s key=%q state=%s network=%v owner-pid=%d workspace=%s\n",
			c.ID, c.Name, c.Key, c.State, c.Network, c.OwnerPID, c.Workspace)
	}
	if len(st.Warnings) > 0 {
		fmt.Fprintf(out, "warnings:\n  %s\n", strings.Join(st.Warnings, "\n  "))
	}
	if st.Error != "" {
		fmt.Fprintf(out, "error:      %s\n", st.Error)
	}
}

// scratchWorkspace makes a workspace where Warren would: under a folder
// every user may pass through (the temp dir), owner-only.
func scratchWorkspace() (string, error) {
	return os.MkdirTemp("", "warren-doctor-")
}
