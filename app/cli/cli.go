// Package cli is Warren's command line: the same core as the window, usable
// with no display. Exit codes: 0 success, 1 failure or error result, 2 usage.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Env is what a command runs with.
type Env struct {
	// Stdin answers approval prompts when it is a terminal.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// DataDir is the resolved data directory.
	DataDir string

	// process names this command in other processes' approval dialogs.
	process string
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// errResult marks a tool call that completed with an error result (already printed).
var errResult = errors.New("tool returned an error result")

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env Env, args []string) error
}

func commands() []command {
	return []command{
		{"run", "run an agent turn: run [--agent A] [--session S] [--base-url URL --model M] [--workspace DIR] [--approve yes|no] [--no-wait] \"prompt\"", runAgent},
		{"agents", "agents list [--json] | show NAME [--json] | add NAME [--provider P] [--model M] [--profile P] [--allow T]... [--deny T]... [--workspace DIR] [--sandbox on|off] [--network on|off] [--type open|predefined] [--name N] | edit NAME (same flags) | remove NAME [--yes] | context NAME [FILE] [--set PATH|-] [--clear] [--json]", runAgents},
		{"teams", teamsUsage, runTeams},
		{"memory", memoryUsage, runMemory},
		{"skills", skillsUsage, runSkills},
		{"kg", kgUsage, runKG},
		{"providers", "providers list [--json] | add NAME --base-url URL [--kind openai|anthropic] [--api-key K] [--model M] | remove NAME | test NAME", runProviders},
		{"mcp", mcpUsage, runMCP},
		{"tools", "list the tool inventory: tools [--json] [--profile P] [--agent A]", runTools},
		{"tool", "call one tool: tool call NAME 'ARGS_JSON' [--workspace DIR] [--agent A] [--approve yes|no|always] [--sandbox podman|host] [--json]", runTool},
		{"web", webUsage, runWeb},
		{"auth", authUsage, runAuth},
		{"approvals", "approvals pending|answer ID yes|no|always|list|revoke ID|audit [--limit N]|mode [ask|allowlist|deny] [--json]", runApprovals},
		{"custom-tools", "custom-tools list [--json] | add --file F | add NAME --description D --command CMD [--param K=DESC]... [--required K]... [--env K=V]... [--agent A] | remove NAME [--agent A]", runCustomTools},
		{"sandbox", "sandbox status [--json] | doctor [--agent A] [--json] | image build [--from IMAGE] | prune [--all] | set [--mode podman|host] [--fallback deny|host] [--image I]", runSandbox},
		{"credentials", "credentials list [--json] | add NAME [--preset P] [--path ABS] [--env K=V]... [--deny REGEX]... | remove NAME", runCredentials},
		{"policy", "policy explain TOOL [--profile P] [--agent A] [--json] | policy profile [NAME]", runPolicy},
		{"settings", "settings list [--json] | get KEY | set KEY [VALUE]   (e.g. fs.allow_hard_links true)", runSettings},
		{"version", "print the version", runVersion},
	}
}

// IsCommand reports whether name is a CLI command (used by main to choose
// between the window and the CLI).
func IsCommand(name string) bool {
	if name == "help" || name == "-h" || name == "--help" {
		return true
	}
	for _, c := range commands() {
		if c.name == name {
			return true
		}
	}
	return false
}

// Run executes a CLI command and returns the process exit code.
func Run(ctx context.Context, env Env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(env.Stdout)
		return ExitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		env.process = processLabel(c.name, args[1:])
		err := c.run(ctx, env, args[1:])
		if isUsage(err) {
			err = usageError{err.Error()}
		}
		var ue usageError
		switch {
		case err == nil:
			return ExitOK
		case errors.As(err, &ue):
			fmt.Fprintf(env.Stderr, "warren %s: %s\n", c.name, ue.msg)
			fmt.Fprintf(env.Stderr, "usage: warren %s\n", c.summary)
			return ExitUsage
		case errors.Is(err, errResult):
			return ExitError
		default:
			fmt.Fprintf(env.Stderr, "warren %s: %v\n", c.name, err)
			return ExitError
		}
	}
	fmt.Fprintf(env.Stderr, "warren: unknown command %q\n\n", args[0])
	printUsage(env.Stderr)
	return ExitUsage
}

// isUsage reports errors caused by what the user typed (bad profile, agent or
// tool name) so they exit with the usage code.
func isUsage(err error) bool {
	for _, kind := range []error{policy.ErrUnknownProfile, policy.ErrUnknownTool, warren.ErrUnknownAgent} {
		if errors.Is(err, kind) {
			return true
		}
	}
	return false
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Warren — a local home for AI agents.")
	fmt.Fprintln(w, "\nUsage: warren [--data-dir DIR] [COMMAND]")
	fmt.Fprintln(w, "With no command, warren opens the desktop window.")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nThe data directory is --data-dir, else $%s, else the OS config directory.\n", warren.EnvHome)
}

// parse parses flags anywhere among positional arguments ("--" ends flags).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseOpen parses a command's flags, then opens the core: the shared start
// of most commands.
func parseOpen(ctx context.Context, env Env, fs *flag.FlagSet, args []string) ([]string, *warren.Warren, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, nil, err
	}
	w, err := open(ctx, env, "")
	return pos, w, err
}

func open(ctx context.Context, env Env, workspace string) (*warren.Warren, error) {
	return warren.Open(ctx, warren.Options{DataDir: env.DataDir, Workspace: workspace, Process: env.process})
}

// subcommanded are the commands whose next word names what they do.
var subcommanded = map[string]bool{
	"mcp": true, "tool": true, "agents": true, "providers": true, "approvals": true,
	"custom-tools": true, "sandbox": true, "credentials": true, "policy": true, "teams": true,
	"memory": true, "skills": true, "kg": true, "web": true, "auth": true,
}

// processLabel names a command for other processes' approval dialogs:
// "warren mcp serve", "warren tool call", "warren run".
func processLabel(name string, args []string) string {
	label := "warren " + name
	if subcommanded[name] && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		label += " " + args[0]
	}
	return label
}

func runVersion(_ context.Context, env Env, args []string) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintf(env.Stdout, "warren %s\n", warren.Version)
	return nil
}

// closeQuietly closes the core after a read-mostly command; every write
// already committed in its own transaction, so a close error changes nothing.
func closeQuietly(w *warren.Warren) { _ = w.Close() }
