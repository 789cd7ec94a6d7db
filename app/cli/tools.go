package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

func runTools(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	profile := fs.String("profile", "", "policy profile (default: the active one)")
	agent := fs.String("agent", "", "apply this agent's policy")
	pos, err := parse(fs, args)
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
	connectMCP(ctx, env, w, "")
	inv, err := w.Inventory(ctx, warren.InventoryRequest{Profile: *profile, Agent: *agent})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(inv)
	}
	shown := *profile
	if shown == "" {
		shown = w.ActiveProfile()
	}
	allowed := 0
	for _, t := range inv {
		if t.Allowed {
			allowed++
		}
	}
	fmt.Fprintf(env.Stdout, "%d tools, %d allowed under profile %s\n\n", len(inv), allowed, shown)
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GROUP\tTOOL\tDANGER\tALLOWED\tDESCRIPTION")
	for _, t := range inv {
		mark := "yes"
		if !t.Allowed {
			mark = "no"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Group, t.Name, t.Danger, mark, t.Description)
	}
	return tw.Flush()
}

// callOutput is the --json shape of `warren tool call`.
type callOutput struct {
	Status     string     `json:"status"`
	Tool       string     `json:"tool"`
	ForLLM     string     `json:"for_llm"`
	ForUser    string     `json:"for_user"`
	Error      *callError `json:"error"`
	DurationMS float64    `json:"duration_ms"`
}

type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func runTool(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] != "call" {
		return usagef("expected the subcommand \"call\"")
	}
	fs := flag.NewFlagSet("tool call", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	workspace := fs.String("workspace", "", "workspace directory (default: the data directory's workspace)")
	agent := fs.String("agent", "default", "agent the call runs as")
	session := fs.String("session", "", "session key (rate limits are per session)")
	approve := fs.String("approve", "", "answer approval requests: yes (allow once), always, or no")
	sandboxFlag := fs.String("sandbox", "", "where commands run: podman or host (default: the setting)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usagef("want NAME and optionally 'ARGS_JSON', got %d arguments", len(pos))
	}
	name, rawArgs := pos[0], "{}"
	if len(pos) == 2 {
		rawArgs = pos[1]
	}
	if *approve != "" {
		if _, err := approvals.ParseDecision(*approve); err != nil {
			return usagef("--approve: %v", err)
		}
	}
	if *sandboxFlag != "" && *sandboxFlag != "podman" && *sandboxFlag != "host" {
		return usagef("--sandbox %q: want podman or host", *sandboxFlag)
	}
	if !json.Valid([]byte(rawArgs)) {
		return usagef("ARGS_JSON is not valid JSON: %s", rawArgs)
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if err := w.CheckAgent(ctx, *agent); err != nil {
		return usagef("%v", err)
	}
	connectMCP(ctx, env, w, name)
	if isTerminal(env.Stdin) {
		defer w.AttachElicitationUI()() // servers' questions are asked on the terminal
	}
	stopAnswering := answerApprovals(ctx, env, w, *approve)
	progress, progressDone := progressPrinter(env.Stderr)
	res, callErr := w.CallTool(tools.WithProgress(ctx, progress), warren.CallRequest{
		Name: name, Args: []byte(rawArgs), Workspace: *workspace,
		Agent: *agent, Session: *session, Channel: "cli", Sandbox: *sandboxFlag,
	})
	progressDone()
	stopAnswering()
	if *asJSON {
		out := callOutput{Status: "success", Tool: name, ForLLM: res.ForLLM, ForUser: res.ForUser,
			DurationMS: float64(res.Duration.Microseconds()) / 1000}
		if res.IsError {
			out.Status = "error"
			out.Error = &callError{Code: string(res.Error.Code), Message: res.Error.Message}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printResult(env, res)
	}
	if callErr != nil && !*asJSON {
		fmt.Fprintf(env.Stderr, "warren tool call: %v\n", callErr)
	}
	if res.IsError {
		return errResult
	}
	return nil
}

func printResult(env Env, res tools.Result) {
	if res.IsError {
		// The first line repeats the error; what follows (a command's
		// output, say) is the tool's output and goes to stdout, unless it
		// is the rest of a message of several lines, which stderr shows.
		if _, rest, ok := strings.Cut(res.ForLLM, "\n"); ok && strings.TrimSpace(rest) != "" && !strings.Contains(res.Error.Message, rest) {
			fmt.Fprint(env.Stdout, rest)
			if !strings.HasSuffix(rest, "\n") {
				fmt.Fprintln(env.Stdout)
			}
		}
		fmt.Fprintf(env.Stderr, "error [%s]: %s\n", res.Error.Code, res.Error.Message)
		return
	}
	// stdout carries the tool's output (what the model sees) so it can be
	// piped; the user-facing summary, when it differs, goes to stderr.
	fmt.Fprint(env.Stdout, res.ForLLM)
	if !strings.HasSuffix(res.ForLLM, "\n") {
		fmt.Fprintln(env.Stdout)
	}
	if res.ForUser != "" && res.ForUser != res.ForLLM {
		fmt.Fprintln(env.Stderr, res.ForUser)
	}
}

// connectMCP connects the enabled MCP servers (for a tool call, only the one
// the tool belongs to) so their tools are in the registry, and says on
// stderr which ones could not connect.
func connectMCP(ctx context.Context, env Env, w *warren.Warren, tool string) {
	ctx, cancel := context.WithTimeout(ctx, mcpWaitTimeout)
	defer cancel()
	var err error
	if tool == "" {
		err = w.ConnectMCP(ctx)
	} else {
		err = w.ConnectMCPFor(ctx, tool)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "warning: MCP servers: %v\n", err)
		return
	}
	views, err := w.MCPServerViews(ctx)
	if err != nil {
		return
	}
	for _, v := range views {
		if v.Server.Enabled && v.Source == "" && v.Status.LastError != "" && v.Status.State != mcp.StateConnected {
			fmt.Fprintf(env.Stderr, "warning: MCP server %s is %s: %s\n", v.Server.Name, v.Status.State, v.Status.LastError)
		}
	}
	for _, p := range w.MCPProblems() {
		fmt.Fprintf(env.Stderr, "warning: %s\n", p)
	}
}
