package cli

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/mcp/gateway"
	"github.com/warren-dev/warren/backend/warren"
)

// defaultMCPApprovalTimeout stays under the 60 s request timeout of common
// MCP clients, so a call nobody approves ends with a result that says so
// rather than a client-side timeout.
const defaultMCPApprovalTimeout = 50 * time.Second

// mcpServe runs `warren mcp serve`: Warren's policy-filtered tools for one
// agent, served to MCP clients over stdio (the default) or streamable HTTP
// on a loopback address with a bearer token. In stdio mode stdout carries
// only the protocol; everything else goes to stderr.
func mcpServe(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp serve", flag.ContinueOnError)
	stdio := fs.Bool("stdio", false, "serve one client over stdin/stdout (the default)")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this loopback address, e.g. 127.0.0.1:8765")
	agent := fs.String("agent", "default", "agent whose tools and policy are served")
	profile := fs.String("profile", "", "policy profile the tools are listed and judged by (default: the active profile)")
	token := fs.String("token", "", "HTTP bearer token (default: $"+gateway.EnvToken+", else one kept in the data directory)")
	approve := fs.String("approve", "", "answer approval requests: yes (allow once), always, or no (default: wait, then deny)")
	approvalTimeout := fs.Duration("approval-timeout", defaultMCPApprovalTimeout, "how long an unanswered approval waits before it is denied")
	printToken := fs.Bool("print-token", false, "print the HTTP bearer token (--token, else $"+gateway.EnvToken+", else the one kept in the data directory, made on first use) and exit")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if *printToken {
		tok, _, err := mcpToken(env, *token)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, tok)
		return nil
	}
	if *stdio && *httpAddr != "" {
		return usagef("choose one transport: --stdio or --http ADDR")
	}
	if *httpAddr == "" && *token != "" {
		return usagef("--token applies to --http only (stdio needs no token)")
	}
	if *approvalTimeout <= 0 {
		return usagef("--approval-timeout must be positive")
	}
	var decision *approvals.Decision
	if *approve != "" {
		d, err := approvals.ParseDecision(*approve)
		if err != nil {
			return usagef("--approve: %v", err)
		}
		decision = &d
	}
	var bearer, tokenFrom string
	if *httpAddr != "" {
		if err := gateway.CheckLoopback(*httpAddr); err != nil {
			return usagef("--http: %v", err)
		}
		if bearer, tokenFrom, err = mcpToken(env, *token); err != nil {
			return err
		}
	}

	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	w, err := warren.Open(ctx, warren.Options{DataDir: env.DataDir, Logger: logger, ApprovalTimeout: *approvalTimeout})
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	g := gateway.New(w, gateway.Options{Agent: *agent, Profile: *profile, Logger: logger, Approve: decision})
	if err := g.Refresh(ctx); err != nil {
		return err // unknown agent or profile: a usage error (isUsage)
	}
	how := "approval requests are denied after " + approvalTimeout.String() + " unless answered (see --approve)"
	if decision != nil {
		how = "approval requests are answered " + decision.String() + " (--approve)"
	}
	if *httpAddr == "" {
		fmt.Fprintf(env.Stderr, "warren mcp: serving agent %q over stdio; %s\n", g.Agent(), how)
		return g.ServeStdio(ctx, env.Stdin, env.Stdout)
	}
	ln, err := gateway.ListenLoopback(ctx, *httpAddr)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "warren mcp: serving agent %q over streamable HTTP; %s\n", g.Agent(), how)
	fmt.Fprintf(env.Stderr, "  URL:    %s\n", gateway.URL(ln))
	fmt.Fprintf(env.Stderr, "  header: Authorization: Bearer %s\n", tokenFrom)
	return g.ServeListener(ctx, ln, bearer)
}

// mcpToken picks the HTTP bearer token: --token, else $WARREN_MCP_TOKEN,
// else the one kept in the data directory (created on first use). shown is
// how the startup banner names it: the token itself only when Warren made
// it, since the user has no other way to learn it.
func mcpToken(env Env, flagToken string) (token, shown string, err error) {
	switch {
	case flagToken != "":
		token, shown = flagToken, "<the --token value>" //nolint:gosec // G101: a placeholder shown instead of the token
	case os.Getenv(gateway.EnvToken) != "":
		token, shown = os.Getenv(gateway.EnvToken), "$"+gateway.EnvToken
	default:
		tok, path, _, err := gateway.LoadOrCreateToken(env.DataDir)
		if err != nil {
			return "", "", err
		}
		return tok, tok + "   (kept in " + path + "; set --token or $" + gateway.EnvToken + " to choose your own)", nil
	}
	token = strings.TrimSpace(token)
	if err := gateway.CheckToken(token); err != nil {
		return "", "", usagef("%v", err)
	}
	return token, shown, nil
}
