package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/warren-dev/warren/backend/authprofiles"
)

const authUsage = "auth list [--json] | add NAME --host H... [--bearer | --basic USER | --header NAME] (the secret is read from stdin) | edit NAME [--host H...] [--new-secret] | remove NAME   (url_fetch's auth_profile)"

// runAuth manages url_fetch's auth profiles. A secret never travels on
// the command line (shell history, ps): it is read from stdin, without
// echo on a terminal.
func runAuth(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, add, edit or remove")
	}
	fs := flag.NewFlagSet("auth", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	bearer := fs.Bool("bearer", false, "send Authorization: Bearer SECRET")
	basic := fs.String("basic", "", "send Authorization: Basic for this user and SECRET")
	header := fs.String("header", "", "send SECRET in this header, e.g. X-API-Key")
	newSecret := fs.Bool("new-secret", false, "edit: read a new secret from stdin")
	var hosts multiFlag
	fs.Var(&hosts, "host", "a host or host:port the credential may be sent to (repeatable)")
	pos, w, err := parseOpen(ctx, env, fs, args[1:])
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	switch args[0] {
	case "list":
		ps, err := w.AuthProfiles(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, ps)
		}
		if len(ps) == 0 {
			fmt.Fprintln(env.Stdout, "no auth profiles (add one: `warren auth add github --host api.github.com --bearer`, then type the token)")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tKIND\tHOSTS")
		for _, p := range ps {
			kind := p.Kind
			switch p.Kind {
			case authprofiles.KindHeader:
				kind += " " + p.Header
			case authprofiles.KindBasic:
				kind += " " + p.Username
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, kind, strings.Join(p.Hosts, ","))
		}
		return tw.Flush()
	case "add", "edit":
		if len(pos) != 1 {
			return usagef("auth %s: want one profile NAME", args[0])
		}
		p := authprofiles.Profile{Name: pos[0], Hosts: hosts}
		if args[0] == "edit" {
			cur, err := findProfile(ctx, w.AuthProfiles, pos[0])
			if err != nil {
				return err
			}
			p = cur
			if len(hosts) > 0 {
				p.Hosts = hosts
			}
		}
		switch {
		case *bearer:
			p.Kind = authprofiles.KindBearer
		case *basic != "":
			p.Kind, p.Username = authprofiles.KindBasic, *basic
		case *header != "":
			p.Kind, p.Header = authprofiles.KindHeader, *header
		case args[0] == "add":
			return usagef("auth add: say how the secret is sent: --bearer, --basic USER or --header NAME")
		}
		secret := ""
		if args[0] == "add" || *newSecret {
			if secret, err = readSecret(env, "Secret for "+p.Name+": "); err != nil {
				return err
			}
			if secret == "" {
				return usagef("auth %s: no secret on stdin", args[0])
			}
		}
		if err := w.SaveAuthProfile(ctx, p, secret); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "auth profile %s saved (sent only to %s)\n", p.Name, strings.Join(p.Hosts, ", "))
		return nil
	case "remove":
		if len(pos) != 1 {
			return usagef("auth remove: want one profile NAME")
		}
		if err := w.DeleteAuthProfile(ctx, pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "auth profile %s removed\n", pos[0])
		return nil
	}
	return usagef("unknown auth subcommand %q (list, add, edit, remove)", args[0])
}

func findProfile(ctx context.Context, list func(context.Context) ([]authprofiles.Profile, error), name string) (authprofiles.Profile, error) {
	ps, err := list(ctx)
	if err != nil {
		return authprofiles.Profile{}, err
	}
	for _, p := range ps {
		if p.Name == name {
			return p, nil
		}
	}
	return authprofiles.Profile{}, fmt.Errorf("%w: %q", authprofiles.ErrNotFound, name)
}

// readSecret reads one line from stdin: without echo when it is a
// terminal, else the first line of what is piped in.
func readSecret(env Env, prompt string) (string, error) {
	if f, ok := env.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(env.Stderr, prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(env.Stderr)
		return strings.TrimSpace(string(b)), err
	}
	if env.Stdin == nil {
		return "", nil
	}
	line, err := bufio.NewReader(env.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	return strings.TrimSpace(line), nil
}
