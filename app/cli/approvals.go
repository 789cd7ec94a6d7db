package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/warren"
)

// answerApprovals answers approval requests published while a command runs:
// with --approve, automatically; on a terminal, by asking (a Warren window
// may answer first: it shows this process's requests too). Without either,
// the request waits for the window when one is running, and is denied at
// once otherwise, with a word on how to approve from a script.
func answerApprovals(ctx context.Context, env Env, w *warren.Warren, approve string) func() {
	ch, unsubscribe := w.Bus().Subscribe(64)
	ctx, cancel := context.WithCancel(ctx)
	a := &cliAnswerer{env: env, w: w, approve: approve, events: ch}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.run(ctx)
	}()
	return func() { cancel(); unsubscribe(); <-done }
}

// cliAnswerer answers one command's approval requests, one at a time.
type cliAnswerer struct {
	env     Env
	w       *warren.Warren
	approve string
	events  <-chan events.Event
	// queue holds requests that arrived while a prompt was open.
	queue []approvals.Request
	// lines carries terminal input, read by one goroutine for the whole
	// command so a prompt answered elsewhere leaves no reader behind that
	// would swallow the next answer.
	lines chan string
}

func (a *cliAnswerer) run(ctx context.Context) {
	for {
		var req approvals.Request
		if len(a.queue) > 0 {
			req, a.queue = a.queue[0], a.queue[1:]
		} else {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-a.events:
				if !ok {
					return
				}
				if q, ok := ev.Payload.(warren.ElicitationRequest); ok && ev.Topic == warren.TopicElicitation {
					if !a.elicit(ctx, q) {
						return
					}
					continue
				}
				r, isReq := ev.Payload.(approvals.Request)
				if ev.Topic != approvals.TopicRequested || !isReq {
					continue
				}
				req = r
			}
		}
		if !a.handle(ctx, req) {
			return
		}
	}
}

// handle answers (or leaves to the window) one request; false when the
// command is over.
func (a *cliAnswerer) handle(ctx context.Context, req approvals.Request) bool {
	env := a.env
	fmt.Fprintf(env.Stderr, "\napproval needed: %s\n  why: %s\n", req.Summary, req.Reason)
	if req.Cwd != "" {
		fmt.Fprintf(env.Stderr, "  cwd: %s\n", req.Cwd)
	}
	if a.approve != "" {
		d, _ := approvals.ParseDecision(a.approve) // validated when parsing flags
		fmt.Fprintf(env.Stderr, "  answered %s by --approve\n", d)
		a.w.Approvals().Answer(req.ID, d)
		return true
	}
	if env.Stdin != nil && isTerminal(env.Stdin) {
		return a.prompt(ctx, req)
	}
	windows, err := a.w.Approvals().Watchers(ctx)
	if err == nil && len(windows) > 0 {
		fmt.Fprintf(env.Stderr, "  waiting: answer it in the Warren window, or pass --approve yes|no (denied in %s)\n",
			time.Until(req.Deadline).Round(time.Second))
		return true
	}
	fmt.Fprintln(env.Stderr, "  denied: no terminal to ask on and no Warren window running (pass --approve yes|no)")
	a.w.Approvals().Answer(req.ID, approvals.Deny)
	return true
}

// prompt asks on the terminal until an answer is typed or the request is
// settled elsewhere (the Warren window, the timeout).
func (a *cliAnswerer) prompt(ctx context.Context, req approvals.Request) bool {
	if a.lines == nil {
		a.lines = make(chan string)
		go readLines(a.env.Stdin, a.lines)
	}
	fmt.Fprint(a.env.Stderr, "  allow? [y]es once, [a]lways, [N]o (or answer in the Warren window): ")
	for {
		select {
		case <-ctx.Done():
			return false
		case line, ok := <-a.lines:
			d, err := approvals.ParseDecision(line)
			if !ok || err != nil || strings.TrimSpace(line) == "" {
				d = approvals.Deny
			}
			if !a.w.Approvals().Answer(req.ID, d) {
				fmt.Fprintln(a.env.Stderr, "  already answered elsewhere")
			}
			return true
		case ev, ok := <-a.events:
			if !ok {
				return false
			}
			switch p := ev.Payload.(type) {
			case approvals.Request:
				if ev.Topic == approvals.TopicRequested {
					a.queue = append(a.queue, p)
				}
			case approvals.Resolution:
				if p.Request.ID == req.ID {
					fmt.Fprintf(a.env.Stderr, "\n  settled elsewhere: %s (%s)\n", p.Outcome.Decision, p.Outcome.By)
					return true
				}
				// A queued request settled meanwhile needs no prompt.
				a.queue = slices.DeleteFunc(a.queue, func(q approvals.Request) bool { return q.ID == p.Request.ID })
			}
		}
	}
}

// readLines sends r's lines to out until r ends, then closes out.
func readLines(r io.Reader, out chan<- string) {
	defer close(out)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" || err == nil {
			out <- line
		}
		if err != nil {
			return
		}
	}
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func runApprovals(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: pending, answer, list, revoke, audit or mode")
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
	case "pending":
		if len(pos) > 0 {
			return usagef("unexpected argument %q", pos[0])
		}
		return printPending(env, svc.Pending(), *asJSON)
	case "answer":
		return answerPending(env, svc, pos)
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
	return usagef("unknown subcommand %q (want pending, answer, list, revoke, audit or mode)", args[0])
}

// printPending lists the requests waiting for an answer: this process has
// none of its own, so they are other Warren processes' (`warren mcp serve`,
// a run, the window).
func printPending(env Env, reqs []approvals.Request, asJSON bool) error {
	if asJSON {
		if reqs == nil {
			reqs = []approvals.Request{}
		}
		return printJSON(env, reqs)
	}
	if len(reqs) == 0 {
		fmt.Fprintln(env.Stdout, "no approval requests are waiting")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOOL\tAGENT\tFROM\tDENIED IN\tSUMMARY\tWHY")
	for _, r := range reqs {
		from := "-"
		if r.Origin != nil {
			from = r.Origin.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Tool, orDash(r.Agent), from,
			time.Until(r.Deadline).Round(time.Second), tabless(r.Summary), tabless(r.Reason))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "answer with: warren approvals answer ID yes|no|always")
	return nil
}

// answerPending is `warren approvals answer ID yes|no|always`.
func answerPending(env Env, svc *approvals.Service, pos []string) error {
	if len(pos) != 2 {
		return usagef("want ID and an answer: warren approvals answer ID yes|no|always (IDs: warren approvals pending)")
	}
	d, err := approvals.ParseDecision(pos[1])
	if err != nil {
		return usagef("%v", err)
	}
	if !svc.Answer(pos[0], d) {
		return fmt.Errorf("approval request %q is not waiting: unknown, already answered, timed out, or its process ended (see warren approvals pending)", pos[0])
	}
	fmt.Fprintf(env.Stdout, "answered %s: %s\n", pos[0], d)
	return nil
}

// tabless keeps a table cell on one line.
func tabless(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }

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
