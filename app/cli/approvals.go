package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/warren"
)

// answerApprovals answers approval requests published while a command runs:
// with --approve, automatically; on a terminal, by asking; otherwise it
// denies and says how to approve from a script.
func answerApprovals(ctx context.Context, env Env, w *warren.Warren, approve string) func() {
	ch, unsubscribe := w.Bus().Subscribe(16)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-ch:
				if !ok {
					return
				}
				if ev.Topic != approvals.TopicRequested {
					continue
				}
				req := ev.Payload.(approvals.Request)
				w.Approvals().Answer(req.ID, decide(env, req, approve))
			}
		}
	}()
	return func() { cancel(); unsubscribe(); <-done }
}

func decide(env Env, req approvals.Request, approve string) approvals.Decision {
	fmt.Fprintf(env.Stderr, "\napproval needed: %s\n  why: %s\n", req.Summary, req.Reason)
	if req.Cwd != "" {
		fmt.Fprintf(env.Stderr, "  cwd: %s\n", req.Cwd)
	}
	if approve != "" {
		d, _ := approvals.ParseDecision(approve) // validated when parsing flags
		fmt.Fprintf(env.Stderr, "  answered %s by --approve\n", d)
		return d
	}
	in := env.Stdin
	if in == nil || !isTerminal(in) {
		fmt.Fprintln(env.Stderr, "  denied: no terminal to ask on (pass --approve yes|no)")
		return approvals.Deny
	}
	fmt.Fprint(env.Stderr, "  allow? [y]es once, [a]lways, [N]o: ")
	line, _ := bufio.NewReader(in).ReadString('\n')
	d, err := approvals.ParseDecision(line)
	if err != nil || strings.TrimSpace(line) == "" {
		return approvals.Deny
	}
	return d
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func runApprovals(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, revoke, audit or mode")
	}
	fs := flag.NewFlagSet("approvals", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 50, "audit entries to show")
	pos, w, err := parseOpen(ctx, env, fs, args[1:])
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	svc := w.Approvals()
	switch args[0] {
	case "list":
		pats, err := svc.Patterns(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, pats)
		}
		if len(pats) == 0 {
			fmt.Fprintln(env.Stdout, "no stored \"allow always\" patterns")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tTOOL\tAGENT\tCREATED\tPATTERN")
		for _, p := range pats {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", p.ID, p.Tool, orDash(p.Agent), p.Created, p.Display)
		}
		return tw.Flush()
	case "revoke":
		if len(pos) != 1 {
			return usagef("want one pattern ID (see `warren approvals list`)")
		}
		id, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil {
			return usagef("pattern ID %q is not a number", pos[0])
		}
		if err := svc.Revoke(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "revoked pattern %d\n", id)
		return nil
	case "audit":
		entries, err := svc.Audit(ctx, *limit)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, entries)
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "TIME\tTOOL\tDECISION\tBY\tSUMMARY")
		for _, e := range entries {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Created, e.Tool, e.Decision, e.DecidedBy, e.Summary)
		}
		return tw.Flush()
	case "mode":
		if len(pos) > 1 {
			return usagef("want at most one mode: ask, allowlist or deny")
		}
		if len(pos) == 1 {
			if err := w.SetApprovalMode(ctx, pos[0]); err != nil {
				return usagef("%v", err)
			}
		}
		fmt.Fprintf(env.Stdout, "approval mode: %s\n", svc.Mode())
		return nil
	}
	return usagef("unknown subcommand %q (want list, revoke, audit or mode)", args[0])
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func printJSON(env Env, v any) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
