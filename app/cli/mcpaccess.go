package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warren-dev/warren/backend/mcp"
)

func mcpAccess(ctx context.Context, env Env, sub string, args []string) error {
	fs := flag.NewFlagSet("mcp "+sub, flag.ContinueOnError)
	agent := fs.String("agent", "", "the agent")
	user := fs.String("user", "", "the user")
	var allow, deny multiFlag
	fs.Var(&allow, "allow", "only these tools (repeatable)")
	fs.Var(&deny, "deny", "never these tools (repeatable; deny wins)")
	disabled := fs.Bool("disabled", false, "store the grant switched off")
	var envs, headers, argv multiFlag
	fs.Var(&envs, "env", "this agent's own env value K=V for a stdio server, stored encrypted (repeatable; K= removes)")
	fs.Var(&headers, "header", "this agent's own HTTP header K=V, stored encrypted (repeatable; K= removes)")
	fs.Var(&argv, "arg", "this agent's own server argument, replacing the server's (repeatable)")
	callTimeout := fs.Duration("call-timeout", 0, "this agent's per-call timeout (whole seconds)")
	reason := fs.String("reason", "", "why access is needed")
	note := fs.String("note", "", "review note")
	all := fs.Bool("all", false, "include reviewed requests")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	scope, subject := mcp.ScopeAgent, *agent
	if *user != "" {
		scope, subject = mcp.ScopeUser, *user
	}
	needSubject := func() error {
		if len(pos) != 1 {
			return usagef("want one SERVER")
		}
		if (*agent == "") == (*user == "") {
			return usagef("give exactly one of --agent A or --user U")
		}
		return nil
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	store := w.MCP().Store()
	switch sub {
	case "grant":
		if err := needSubject(); err != nil {
			return err
		}
		over := mcp.Overrides{Args: argv, CallTimeoutSeconds: int(callTimeout.Round(time.Second) / time.Second)}
		if over.Env, err = keyValues("env", envs); err != nil {
			return err
		}
		if over.Headers, err = keyValues("header", headers); err != nil {
			return err
		}
		g := mcp.Grant{Server: pos[0], Scope: scope, Subject: subject, ToolAllow: allow, ToolDeny: deny, Enabled: !*disabled, ConfigOverrides: over}
		if err := w.SaveMCPGrant(ctx, g); err != nil {
			return notFoundUsage(err)
		}
		fmt.Fprintf(env.Stdout, "granted %s %s access to %s\n", scope, subject, pos[0])
		if !over.Empty() {
			fmt.Fprintf(env.Stdout, "%s gets its own connection to %s with these overrides (stored values not mentioned are kept)\n", subject, pos[0])
		}
	case "revoke":
		if err := needSubject(); err != nil {
			return err
		}
		if err := w.DeleteMCPGrant(ctx, pos[0], scope, subject); err != nil {
			return notFoundUsage(err)
		}
		fmt.Fprintf(env.Stdout, "revoked %s %s's grant on %s\n", scope, subject, pos[0])
	case "grants":
		server := ""
		if len(pos) == 1 {
			server = pos[0]
		}
		gs, err := store.Grants(ctx, server)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, orEmptyList(gs))
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SERVER\tSCOPE\tSUBJECT\tENABLED\tALLOW\tDENY\tOVERRIDES")
		for _, g := range gs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%s\t%s\t%s\n", g.Server, g.Scope, g.Subject, g.Enabled, listOrAll(g.ToolAllow),
				orDash(strings.Join(g.ToolDeny, ",")), orDash(describeOverrides(g.ConfigOverrides)))
		}
		return tw.Flush()
	case "request":
		if err := needSubject(); err != nil {
			return err
		}
		id, err := store.CreateRequest(ctx, mcp.AccessRequest{Server: pos[0], Scope: scope, Subject: subject, ToolAllow: allow, Reason: *reason})
		if err != nil {
			return notFoundUsage(err)
		}
		fmt.Fprintf(env.Stdout, "access request %d filed; approve it with: warren mcp approve %d\n", id, id)
	case "requests":
		status := mcp.StatusPending
		if *all {
			status = ""
		}
		rs, err := store.Requests(ctx, status)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, orEmptyList(rs))
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSERVER\tFOR\tTOOLS\tSTATUS\tREASON")
		for _, r := range rs {
			fmt.Fprintf(tw, "%d\t%s\t%s %s\t%s\t%s\t%s\n", r.ID, r.Server, r.Scope, r.Subject, listOrAll(r.ToolAllow), r.Status, orDash(r.Reason))
		}
		return tw.Flush()
	case "approve", "reject":
		if len(pos) != 1 {
			return usagef("want one request ID")
		}
		var id int64
		if _, err := fmt.Sscanf(pos[0], "%d", &id); err != nil {
			return usagef("request ID %q is not a number", pos[0])
		}
		if err := w.ReviewMCPRequest(ctx, id, sub == "approve", *note); err != nil {
			return notFoundUsage(err)
		}
		fmt.Fprintf(env.Stdout, "request %d %sd\n", id, sub)
	}
	return nil
}

// describeOverrides summarises a grant's overrides without secret values.
func describeOverrides(o mcp.Overrides) string {
	var parts []string
	if len(o.EnvKeys) > 0 {
		parts = append(parts, "env "+strings.Join(o.EnvKeys, ","))
	}
	if len(o.HeaderKeys) > 0 {
		parts = append(parts, "headers "+strings.Join(o.HeaderKeys, ","))
	}
	if len(o.Args) > 0 {
		parts = append(parts, "args "+strings.Join(o.Args, " "))
	}
	if o.CallTimeoutSeconds > 0 {
		parts = append(parts, fmt.Sprintf("timeout %ds", o.CallTimeoutSeconds))
	}
	return strings.Join(parts, "; ")
}

func notFoundUsage(err error) error {
	if errors.Is(err, mcp.ErrNotFound) {
		return usagef("%v", err)
	}
	return err
}

func listOrAll(l []string) string {
	if len(l) == 0 {
		return "all"
	}
	return strings.Join(l, ",")
}

func orEmptyList[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}
