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
	"github.com/warren-dev/warren/backend/warren"
)

const mcpUsage = "mcp list|add|remove|enable|disable|restart|test|tools|logs|resources|read|prompts|prompt|import|export|serve|grant|revoke|grants|request|requests|approve|reject (warren mcp help)"

const mcpHelp = `warren mcp — manage local MCP servers

  list [--json]                          servers with their state
  add NAME [flags] -- COMMAND [ARGS…]    add a stdio server
  add NAME --url URL [--transport sse|http] [--header K=V]…   add an HTTP server
      flags: --env K=V (repeatable, stored encrypted)  --cwd DIR  --prefix P
             --disabled  --sandbox [--network]  --deferred  --restricted
             --connect-timeout 30s  --call-timeout 2m  --replace
  remove NAME | enable NAME | disable NAME
  restart NAME                           restart the server where it runs (a failed one is retried)
  test NAME [--json]                     connect once and list the tools found
  tools NAME [--json]                    the server's tools as Warren registers them
  tools NAME --off TOOL | --on TOOL      switch one tool off or on for every agent
  logs NAME [-n 50]                      the server's stderr log
  resources NAME [--agent A] [--json]    the server's resources and templates (as agent A may use them)
  read NAME URI [--agent A] [--json]     read one resource
  prompts NAME [--agent A] [--json]      the server's prompts and their arguments
  prompt NAME PROMPT [key=value…] [--agent A] [--json]   render a prompt
  import FILE|- [--replace]              import an mcpServers JSON (Claude Desktop, Cursor, VS Code)
  import --claude [--replace]            import Claude Desktop's own config
  export [FILE]                          write an mcpServers JSON (contains secrets)
  serve [--stdio | --http 127.0.0.1:PORT] [--agent A] [--profile P] [--token T] [--approve yes|no|always] [--approval-timeout 50s]
  grant SERVER --agent A|--user U [--allow T]… [--deny T]… [--disabled]
      agent overrides (the agent gets its own connection): --env K=V… --header K=V… --arg X… --call-timeout 5m
  revoke SERVER --agent A|--user U       grants [SERVER] [--json]
  request SERVER --agent A|--user U [--allow T]… [--reason R]
  requests [--all] [--json]              approve ID [--note N] | reject ID [--note N]
`

func runMCP(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, mcpHelp)
		return nil
	case "serve":
		return mcpServe(ctx, env, rest)
	case "add":
		return mcpAdd(ctx, env, rest)
	case "list":
		return mcpList(ctx, env, rest)
	case "remove", "enable", "disable":
		return mcpSwitch(ctx, env, sub, rest)
	case "restart":
		return mcpRestart(ctx, env, rest)
	case "test":
		return mcpTest(ctx, env, rest)
	case "tools":
		return mcpTools(ctx, env, rest)
	case "logs":
		return mcpLogs(ctx, env, rest)
	case "resources":
		return mcpResources(ctx, env, rest)
	case "read":
		return mcpRead(ctx, env, rest)
	case "prompts":
		return mcpPrompts(ctx, env, rest)
	case "prompt":
		return mcpPrompt(ctx, env, rest)
	case "import":
		return mcpImport(ctx, env, rest)
	case "export":
		return mcpExport(ctx, env, rest)
	case "grant", "revoke", "grants", "request", "requests", "approve", "reject":
		return mcpAccess(ctx, env, sub, rest)
	}
	return usagef("unknown subcommand %q", sub)
}

// keyValues turns repeated K=V flags into a map, naming a malformed one.
func keyValues(flagName string, kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--%s %q: want K=V", flagName, kv)
		}
		out[k] = v
	}
	return out, nil
}

func mcpAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp add", flag.ContinueOnError)
	var envs, headers multiFlag
	fs.Var(&envs, "env", "environment variable K=V, stored encrypted (repeatable)")
	fs.Var(&headers, "header", "HTTP header K=V, stored encrypted (repeatable)")
	url := fs.String("url", "", "server URL (sse or streamable HTTP)")
	transport := fs.String("transport", "", "sse or http (streamable HTTP, the default with --url)")
	cwd := fs.String("cwd", "", "working directory of a stdio server")
	prefix := fs.String("prefix", "", "tool name prefix (default: the server name)")
	disabled := fs.Bool("disabled", false, "add without enabling")
	sandboxed := fs.Bool("sandbox", false, "run the stdio server inside a Podman container")
	network := fs.Bool("network", false, "with --sandbox: allow network access")
	deferred := fs.Bool("deferred", false, "hide the tools behind tool_search until the model asks")
	restricted := fs.Bool("restricted", false, "only agents with a grant may use the server")
	connectTimeout := fs.Duration("connect-timeout", mcp.DefaultConnectTimeout, "how long to wait for the server to start")
	callTimeout := fs.Duration("call-timeout", mcp.DefaultCallTimeout, "how long one tool call may take")
	replace := fs.Bool("replace", false, "overwrite a server with the same name")
	offer := fs.Bool("offer", true, "offer the server's tools to agents (the window's add form does too); --offer=false keeps them off until warren policy also-allow group:mcp:NAME")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want NAME, then -- COMMAND [ARGS…] or --url URL")
	}
	srv := mcp.Server{
		Name: pos[0], Cwd: *cwd, URL: *url, ToolPrefix: *prefix, Enabled: !*disabled, Sandboxed: *sandboxed,
		SandboxNetwork: *network, Deferred: *deferred, Restricted: *restricted,
		ConnectTimeout: *connectTimeout, CallTimeout: *callTimeout,
	}
	switch {
	case *url != "" && len(pos) > 1:
		return usagef("give either --url or -- COMMAND, not both")
	case *url != "":
		switch *transport {
		case "", "http", "streamable-http", "streamableHttp":
			srv.Transport = mcp.TransportHTTP
		case "sse":
			srv.Transport = mcp.TransportSSE
		default:
			return usagef("--transport %q: want sse or http", *transport)
		}
	case len(pos) > 1:
		if *transport != "" && *transport != "stdio" {
			return usagef("--transport %s needs --url", *transport)
		}
		srv.Transport, srv.Command, srv.Args = mcp.TransportStdio, pos[1], pos[2:]
	default:
		return usagef("want -- COMMAND [ARGS…] for a stdio server or --url URL")
	}
	if srv.Env, err = keyValues("env", envs); err != nil {
		return err
	}
	if srv.Headers, err = keyValues("header", headers); err != nil {
		return err
	}
	if err := srv.Validate(); err != nil {
		return usagef("%v", err)
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	save := func(ctx context.Context, s mcp.Server) error { return w.AddMCPServerOffered(ctx, s, *offer) }
	if *replace {
		save = func(ctx context.Context, s mcp.Server) error { return w.SaveMCPServer(ctx, s, mcp.ReplaceSecrets) }
	}
	if err := save(ctx, srv); err != nil {
		if errors.Is(err, warren.ErrMCPServerExists) {
			return usagef("%v; add --replace to overwrite it", err)
		}
		if errors.Is(err, mcp.ErrNameTaken) {
			return usagef("%v", err)
		}
		return err
	}
	if *replace && *offer {
		if err := w.SetMCPOffered(ctx, srv.Name, true); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stdout, "added MCP server %s (%s); check it with: warren mcp test %s\n", srv.Name, srv.Transport, srv.Name)
	if *offer {
		fmt.Fprintf(env.Stdout, "its tools are offered to agents (group:mcp:%s); withdraw them with: warren policy also-allow --remove group:mcp:%s\n", srv.Name, srv.Name)
	} else if hint := w.MCPPolicyHint(ctx, srv.Name); hint != "" {
		fmt.Fprintln(env.Stdout, hint)
	}
	return nil
}

func mcpList(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("list takes no arguments")
	}
	views, err := w.MCPServerViews(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, views)
	}
	if len(views) == 0 {
		fmt.Fprintln(env.Stdout, "no MCP servers (add one: warren mcp add everything -- npx -y @modelcontextprotocol/server-everything)")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTRANSPORT\tENABLED\tSTATE\tTOOLS\tTARGET\tNOTE")
	for _, v := range views {
		note := v.Status.LastError
		if note == "" {
			note = v.Status.Warning
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\t%s\t%s\n", v.Server.Name, v.Server.Transport, v.Server.Enabled,
			stateText(v), toolsText(v), target(v.Server), orDash(note))
		for _, ac := range v.Status.AgentConnections {
			fmt.Fprintf(tw, "  └ agent %s\t(own connection)\t\t%s\t\t%s\t%s\n", ac.Agent, ac.State, pidText(ac.PID), orDash(ac.LastError))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(views) > 0 && views[0].Source != "" {
		fmt.Fprintf(env.Stdout, "\nstate as %s\n", views[0].Source)
	}
	return nil
}

func pidText(pid int) string {
	if pid == 0 {
		return ""
	}
	return fmt.Sprintf("pid %d", pid)
}

func stateText(v warren.MCPServerView) string {
	s := string(v.Status.State)
	if v.Status.Via != "" && v.Status.State == mcp.StateConnected {
		s += " via " + string(v.Status.Via)
	}
	if v.Status.State == mcp.StateReconnecting {
		s += fmt.Sprintf(" (%d/%d)", v.Status.Attempt, v.Status.MaxAttempts)
	}
	return s
}

func toolsText(v warren.MCPServerView) string {
	if v.Status.State == mcp.StateStopped && v.Status.Tools == 0 {
		return "-"
	}
	return fmt.Sprint(v.Status.Tools)
}

func target(s mcp.Server) string {
	if s.Transport == mcp.TransportStdio {
		t := strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
		if len(t) > 60 {
			t = t[:57] + "…"
		}
		return t
	}
	return s.URL
}

func mcpSwitch(ctx context.Context, env Env, sub string, args []string) error {
	fs := flag.NewFlagSet("mcp "+sub, flag.ContinueOnError)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one server NAME")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	switch sub {
	case "remove":
		err = w.DeleteMCPServer(ctx, pos[0])
	default:
		err = w.SetMCPServerEnabled(ctx, pos[0], sub == "enable")
	}
	if errors.Is(err, mcp.ErrNotFound) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", map[string]string{"remove": "removed", "enable": "enabled", "disable": "disabled"}[sub], pos[0])
	if sub == "enable" {
		if pid := w.MCPRunner(ctx); pid != 0 {
			fmt.Fprintf(env.Stdout, "the Warren window (pid %d) starts it, or retries it if it had failed\n", pid)
		}
	}
	return nil
}

// mcpRestart asks the process that runs the servers (the window) to
// restart one and waits to see it come back; without such a process it
// says so.
func mcpRestart(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp restart", flag.ContinueOnError)
	srv, w, err := openServer(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	asked := time.Now()
	if err := w.RestartMCPServer(ctx, srv.Name); err != nil {
		return err
	}
	pid := w.MCPRunner(ctx)
	if pid == 0 {
		fmt.Fprintf(env.Stdout, "no Warren window is running MCP servers: %s starts with it (try it now with: warren mcp test %s)\n", srv.Name, srv.Name)
		return nil
	}
	fmt.Fprintf(env.Stdout, "asked the Warren window (pid %d) to restart %s\n", pid, srv.Name)
	wait := srv.ConnectTimeout
	if wait <= 0 {
		wait = mcp.DefaultConnectTimeout
	}
	deadline := time.Now().Add(wait + 5*time.Second)
	for {
		v, ok := serverView(ctx, w, srv.Name)
		// Done once the restarted server's first attempt ended.
		done := ok && v.Status.StartedAt.After(asked) && v.Status.State != mcp.StateConnecting
		if done || !ok || time.Now().After(deadline) {
			if !ok {
				return fmt.Errorf("MCP server %s: the window stopped reporting it", srv.Name)
			}
			fmt.Fprintf(env.Stdout, "%s: %s, %s tools%s\n", srv.Name, stateText(v), toolsText(v), noteText(v))
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// serverView is one server's view as MCPServerViews gives it.
func serverView(ctx context.Context, w *warren.Warren, name string) (warren.MCPServerView, bool) {
	views, err := w.MCPServerViews(ctx)
	if err != nil {
		return warren.MCPServerView{}, false
	}
	for _, v := range views {
		if v.Server.Name == name {
			return v, v.Source != ""
		}
	}
	return warren.MCPServerView{}, false
}

func noteText(v warren.MCPServerView) string {
	if v.Status.LastError != "" {
		return ": " + v.Status.LastError
	}
	if v.Status.Warning != "" {
		return " (" + v.Status.Warning + ")"
	}
	return ""
}

// openServer is the start of commands about one stored server: parse the
// flags, want one NAME, open the core, and fail with a usage error naming
// the server when it does not exist. The caller closes w.
func openServer(ctx context.Context, env Env, fs *flag.FlagSet, args []string) (mcp.Server, *warren.Warren, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return mcp.Server{}, nil, err
	}
	if len(pos) != 1 {
		return mcp.Server{}, nil, usagef("want one server NAME")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return mcp.Server{}, nil, err
	}
	srv, err := w.MCP().Store().Get(ctx, pos[0])
	if err != nil {
		closeQuietly(w)
		return mcp.Server{}, nil, notFoundUsage(err)
	}
	return srv, w, nil
}

func mcpTest(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp test", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	srv, w, err := openServer(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	res, err := w.MCP().Test(ctx, srv)
	if err != nil {
		for _, l := range res.Stderr {
			fmt.Fprintf(env.Stderr, "  stderr: %s\n", l)
		}
		return fmt.Errorf("MCP server %s: %w", srv.Name, err)
	}
	if *asJSON {
		return printJSON(env, res)
	}
	via := ""
	if res.Via != "" {
		via = " over " + string(res.Via)
	}
	fmt.Fprintf(env.Stdout, "%s: connected to %s %s (protocol %s%s) in %.0f ms, %d tools, %d resources, %d prompts\n",
		srv.Name, orDash(res.ServerName), res.ServerVersion, res.Protocol, via, res.LatencyMS, len(res.Tools), len(res.Resources), len(res.Prompts))
	if res.Warning != "" {
		fmt.Fprintf(env.Stdout, "warning: %s\n", res.Warning)
	}
	for _, t := range res.Tools {
		fmt.Fprintf(env.Stdout, "  %-32s %s\n", t.Name, firstLine(t.Description))
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 90 {
		s = s[:87] + "…"
	}
	return s
}

func mcpTools(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp tools", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	off := fs.String("off", "", "switch this tool off for every agent")
	on := fs.String("on", "", "switch this tool back on")
	srv, w, err := openServer(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	name := srv.Name
	if *off != "" || *on != "" {
		tool, enable := *off, false
		if *on != "" {
			tool, enable = *on, true
		}
		if err := w.SetMCPToolEnabled(ctx, name, tool, enable); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s/%s: %s\n", name, tool, map[bool]string{true: "on", false: "off"}[enable])
		return nil
	}
	if err := w.MCP().Start(ctx, name); err != nil {
		return err
	}
	w.MCP().WaitReady(ctx, name)
	list, err := w.MCPServerTools(ctx, name)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		if st, ok := statusOf(ctx, w, name); ok && st.LastError != "" {
			return fmt.Errorf("MCP server %s: %s", name, st.LastError)
		}
	}
	if *asJSON {
		return printJSON(env, list)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tREGISTERED AS\tON\tDANGER\tDESCRIPTION")
	for _, t := range list {
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\n", t.Name, t.Registered, t.Enabled, t.Danger, firstLine(t.Description))
	}
	return tw.Flush()
}

func statusOf(ctx context.Context, w *warren.Warren, name string) (mcp.Status, bool) {
	sts, err := w.MCP().Statuses(ctx)
	if err != nil {
		return mcp.Status{}, false
	}
	for _, s := range sts {
		if s.Name == name {
			return s, true
		}
	}
	return mcp.Status{}, false
}

func mcpLogs(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp logs", flag.ContinueOnError)
	n := fs.Int("n", 50, "number of lines")
	srv, w, err := openServer(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	lines, err := w.MCPServerLog(ctx, srv.Name, *n)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		fmt.Fprintf(env.Stderr, "no log lines yet for %s (stdio servers log their stderr here once started)\n", srv.Name)
	}
	for _, l := range lines {
		fmt.Fprintln(env.Stdout, l)
	}
	return nil
}

// mcpWaitTimeout bounds how long `warren tools` and `warren tool call` wait
// for MCP servers to connect.
const mcpWaitTimeout = 45 * time.Second
