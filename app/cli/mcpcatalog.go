package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/warren"
)

// `warren mcp resources|read|prompts|prompt`: a server's resources and
// prompts as the agent (--agent, default "default") may use them — the
// same policy and grants as its tools.

// catalogServer parses flags and NAME plus extra positional arguments,
// opens Warren and connects the server.
func catalogServer(ctx context.Context, env Env, fs *flag.FlagSet, args []string, minExtra int, usage string) (*warren.Warren, warren.MCPServerRef, []string, error) {
	agent := fs.String("agent", "default", "the agent whose access is used")
	pos, err := parse(fs, args)
	if err != nil {
		return nil, warren.MCPServerRef{}, nil, err
	}
	if len(pos) < 1+minExtra {
		return nil, warren.MCPServerRef{}, nil, usagef("want %s", usage)
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return nil, warren.MCPServerRef{}, nil, err
	}
	if _, err := w.MCP().Store().Get(ctx, pos[0]); err != nil {
		closeQuietly(w)
		return nil, warren.MCPServerRef{}, nil, notFoundUsage(err)
	}
	cctx, cancel := context.WithTimeout(ctx, mcpWaitTimeout)
	defer cancel()
	if err := w.ConnectMCP(cctx, pos[0]); err != nil {
		closeQuietly(w)
		return nil, warren.MCPServerRef{}, nil, err
	}
	return w, warren.MCPServerRef{Agent: *agent, Server: pos[0]}, pos[1:], nil
}

func mcpResources(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp resources", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	w, ref, _, err := catalogServer(ctx, env, fs, args, 0, "NAME")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	res, err := w.MCPResources(ctx, ref)
	if err != nil {
		return err
	}
	templates, err := w.MCPResourceTemplates(ctx, ref)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, map[string]any{"resources": res, "templates": templates})
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "URI\tNAME\tTYPE")
	for _, r := range res {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.URI, r.Name, r.MIMEType)
	}
	for _, t := range templates {
		fmt.Fprintf(tw, "%s\t%s\ttemplate\n", t.URITemplate.Raw(), t.Name)
	}
	if len(res)+len(templates) == 0 {
		fmt.Fprintf(tw, "(MCP server %s lists no resources)\n", ref.Server)
	}
	return tw.Flush()
}

func mcpRead(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp read", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	w, ref, rest, err := catalogServer(ctx, env, fs, args, 1, "NAME URI")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	contents, err := w.ReadMCPResource(ctx, ref, rest[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, contents)
	}
	for _, c := range contents {
		if t, ok := mcpgo.AsTextResourceContents(c); ok {
			fmt.Fprint(env.Stdout, t.Text)
			if !strings.HasSuffix(t.Text, "\n") {
				fmt.Fprintln(env.Stdout)
			}
		} else if b, ok := mcpgo.AsBlobResourceContents(c); ok {
			fmt.Fprintf(env.Stderr, "%s: %s, %d bytes base64 (use --json for the data)\n", b.URI, b.MIMEType, len(b.Blob))
		}
	}
	return nil
}

func mcpPrompts(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp prompts", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	w, ref, _, err := catalogServer(ctx, env, fs, args, 0, "NAME")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	prompts, err := w.MCPPrompts(ctx, ref)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, prompts)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROMPT\tARGUMENTS\tDESCRIPTION")
	for _, p := range prompts {
		var as []string
		for _, a := range p.Arguments {
			n := a.Name
			if !a.Required {
				n += "?"
			}
			as = append(as, n)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, strings.Join(as, " "), shortLine(p.Description, 80))
	}
	if len(prompts) == 0 {
		fmt.Fprintf(tw, "(MCP server %s lists no prompts)\n", ref.Server)
	}
	return tw.Flush()
}

func mcpPrompt(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp prompt", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	w, ref, rest, err := catalogServer(ctx, env, fs, args, 1, "NAME PROMPT [key=value…]")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	kv, err := keyValues("argument", rest[1:])
	if err != nil {
		return err
	}
	res, err := w.GetMCPPrompt(ctx, ref, rest[0], kv)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, res)
	}
	for _, m := range res.Messages {
		fmt.Fprintf(env.Stdout, "[%s]\n%s\n", m.Role, warren.PromptContentText(m.Content))
	}
	return nil
}

func shortLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}
