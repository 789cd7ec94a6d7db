package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools/fs"
)

// agentFlags are the settings add and edit take; edit changes only the
// flags given.
type agentFlags struct {
	name, provider, model, profile, workspace, sandbox, network, kind string
	allow, deny                                                       multiFlag
}

func (f *agentFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.name, "name", "", "display name (default: the key)")
	fs.StringVar(&f.provider, "provider", "", "model provider (see warren providers list; empty: none)")
	fs.StringVar(&f.model, "model", "", "model name (empty: the provider's default)")
	fs.StringVar(&f.profile, "profile", "", "policy profile: full, coding, messaging or minimal (empty: the global one)")
	fs.Var(&f.allow, "allow", "allowed tool or group:NAME (repeatable; replaces the list; - clears it)")
	fs.Var(&f.deny, "deny", "denied tool or group:NAME (repeatable; replaces the list; - clears it)")
	fs.StringVar(&f.workspace, "workspace", "", "workspace directory (empty: the default workspace)")
	fs.StringVar(&f.sandbox, "sandbox", "", "on: run commands in Podman; off: on the host")
	fs.StringVar(&f.network, "network", "", "on: sandboxed commands and the web tools (web_fetch, web_search, url_fetch) may reach the network; off: they may not")
	fs.StringVar(&f.kind, "type", "", "open (context files per user) or predefined (shared)")
}

func runAgents(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, show, add, edit, remove or context")
	}
	if args[0] == "context" {
		return runAgentContext(ctx, env, args[1:])
	}
	fs := flag.NewFlagSet("agents", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	yes := fs.Bool("yes", false, "remove without asking")
	var f agentFlags
	f.register(fs)
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	sub := args[0]
	switch sub {
	case "list":
		if len(pos) != 0 {
			return usagef("list takes no arguments")
		}
	case "show", "add", "edit", "remove":
		if len(pos) != 1 {
			return usagef("want one agent NAME")
		}
	default:
		return usagef("unknown subcommand %q (want list, show, add, edit, remove or context)", sub)
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	db := w.Store()
	switch sub {
	case "list":
		list, err := db.ListAgents(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			if list == nil {
				list = []store.Agent{}
			}
			return printJSON(env, list)
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tNAME\tTYPE\tPROVIDER\tMODEL\tPROFILE\tSANDBOX\tNETWORK")
		for _, a := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Key, a.Name, a.Type, orDash(a.Provider), orDash(a.Model),
				orDash(a.Profile), onOff(a.Sandbox), onOff(a.Network))
		}
		return tw.Flush()
	case "show":
		a, err := getAgent(ctx, w, pos[0])
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, a)
		}
		printAgent(env, a)
		return nil
	case "add", "edit":
		return saveAgent(ctx, env, w, sub, pos[0], &f, set)
	}
	return removeAgent(ctx, env, w, pos[0], *yes)
}

// getAgent returns an agent, or a usage error naming the known ones.
func getAgent(ctx context.Context, w *warren.Warren, key string) (store.Agent, error) {
	a, err := w.Store().GetAgent(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return store.Agent{}, usagef("%v", unknownAgent(ctx, w, key, err))
	}
	return a, err
}

// unknownAgent explains a key GetAgent did not find: w.CheckAgent names
// the known agents.
func unknownAgent(ctx context.Context, w *warren.Warren, key string, notFound error) error {
	if err := w.CheckAgent(ctx, key); err != nil {
		return err
	}
	return notFound // an empty key, or created meanwhile
}

func saveAgent(ctx context.Context, env Env, w *warren.Warren, sub, key string, f *agentFlags, set map[string]bool) error {
	a, err := w.Store().GetAgent(ctx, key)
	switch {
	case sub == "add" && err == nil:
		return usagef("agent %q already exists (change it with warren agents edit %s …)", key, key)
	case sub == "add" && errors.Is(err, store.ErrNotFound):
		// The window's defaults: the default agent's sandbox setting (on).
		if a, err = w.NewAgentDefaults(ctx); err != nil {
			return err
		}
		a.Key = key
	case sub == "edit" && errors.Is(err, store.ErrNotFound):
		return usagef("%v; create it with warren agents add %s", unknownAgent(ctx, w, key, err), key)
	case err != nil:
		return err
	}
	if sub == "edit" && len(set) == 0 {
		return usagef("nothing to change: pass at least one of --name, --provider, --model, --profile, --allow, --deny, --workspace, --sandbox, --network, --type")
	}
	if err := f.apply(&a, set); err != nil {
		return err
	}
	warnings, err := w.SaveAgent(ctx, a)
	var fe *warren.AgentFieldError
	switch {
	case errors.As(err, &fe) && fe.Field == "provider":
		return usagef("--%s: %v (see warren providers list)", fe.Field, fe.Err)
	case errors.As(err, &fe):
		return usagef("--%s: %v", fe.Field, fe.Err)
	case errors.Is(err, store.ErrInvalidAgent):
		return usagef("%v", err)
	case err != nil:
		return err
	}
	for _, warning := range warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", warning)
	}
	verb := map[string]string{"add": "added", "edit": "updated"}[sub]
	fmt.Fprintf(env.Stdout, "%s agent %s\n", verb, a.Key)
	if a.Provider == "" {
		fmt.Fprintf(env.Stderr, "note: agent %s has no model provider; set one with --provider (see warren providers list)\n", a.Key)
	}
	return nil
}

// apply copies the given flags onto a; warren.SaveAgent judges the result.
func (f *agentFlags) apply(a *store.Agent, set map[string]bool) error {
	if set["name"] {
		a.Name = strings.TrimSpace(f.name)
	}
	if set["provider"] {
		a.Provider = f.provider
	}
	if set["model"] {
		a.Model = f.model
	}
	if set["profile"] {
		a.Profile = f.profile
	}
	if set["type"] {
		if f.kind != string(store.AgentOpen) && f.kind != string(store.AgentPredefined) {
			return usagef("--type %q: want open or predefined", f.kind)
		}
		a.Type = store.AgentType(f.kind)
	}
	var err error
	if set["sandbox"] {
		if a.Sandbox, err = parseOnOff("--sandbox", f.sandbox); err != nil {
			return err
		}
	}
	if set["network"] {
		if a.Network, err = parseOnOff("--network", f.network); err != nil {
			return err
		}
	}
	if set["workspace"] {
		if a.Workspace, err = absDir(f.workspace); err != nil {
			return err
		}
	}
	if set["allow"] {
		a.Allow = toolList(f.allow)
	}
	if set["deny"] {
		a.Deny = toolList(f.deny)
	}
	return nil
}

func parseOnOff(flagName, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true":
		return true, nil
	case "off", "no", "false":
		return false, nil
	}
	return false, usagef("%s %q: want on or off", flagName, v)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// absDir makes a --workspace flag absolute (relative to the current
// directory, as the user means it); empty stays empty.
func absDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("--workspace %q: %v", dir, err)
	}
	return abs, nil
}

// toolList turns repeated --allow/--deny values (comma lists allowed) into
// a list; a lone "-" clears it.
func toolList(values []string) []string {
	out := []string{}
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e != "" && e != "-" {
				out = append(out, e)
			}
		}
	}
	return out
}

func printAgent(env Env, a store.Agent) {
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	rows := [][2]string{
		{"key", a.Key}, {"name", a.Name}, {"type", string(a.Type)},
		{"provider", orDash(a.Provider)}, {"model", orDash(a.Model)}, {"profile", orDash(a.Profile)},
		{"allow", orDash(strings.Join(a.Allow, ", "))}, {"deny", orDash(strings.Join(a.Deny, ", "))},
		{"workspace", orDash(a.Workspace)}, {"sandbox", onOff(a.Sandbox)}, {"network", onOff(a.Network)},
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s:\t%s\n", r[0], r[1])
	}
	_ = tw.Flush() // writes to the command's stdout; nothing to do on failure
}

func removeAgent(ctx context.Context, env Env, w *warren.Warren, key string, yes bool) error {
	if key == fs.DefaultAgent { // refuse before asking; w.DeleteAgent refuses too
		return usagef("%v (change it with warren agents edit default …)", warren.ErrDefaultAgent)
	}
	if _, err := getAgent(ctx, w, key); err != nil {
		return err
	}
	if !yes {
		if env.Stdin == nil || !isTerminal(env.Stdin) {
			return usagef("removing agent %s deletes its context files; pass --yes to confirm", key)
		}
		fmt.Fprintf(env.Stderr, "Remove agent %s and its context files? [y/N] ", key)
		answer, _ := bufio.NewReader(env.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stderr, "not removed")
			return errResult
		}
	}
	if err := w.DeleteAgent(ctx, key); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "removed agent %s\n", key)
	if jobs, err := w.CronJobs().List(ctx, key); err == nil && len(jobs) > 0 {
		fmt.Fprintf(env.Stderr, "note: %d cron job(s) of agent %s remain and will fail until removed\n", len(jobs), key)
	}
	return nil
}

// agentContextUsage is the context subcommand's synopsis, shown with its
// usage errors.
const agentContextUsage = "agents context NAME [--json] | context NAME FILE | context NAME FILE --set PATH|- | context NAME FILE --clear"

// runAgentContext lists, prints, sets or clears an agent's context files
// (SOUL.md & co.) where the agent's own file tools find them.
func runAgentContext(ctx context.Context, env Env, args []string) error {
	flags := flag.NewFlagSet("agents context", flag.ContinueOnError)
	asJSON := flags.Bool("json", false, "print JSON (listing only)")
	from := flags.String("set", "", "write FILE from PATH, or from standard input with -")
	clearFile := flags.Bool("clear", false, "remove FILE")
	pos, err := parse(flags, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	flags.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case len(pos) == 0 || len(pos) > 2:
		return usagef("want an agent NAME and optionally a FILE (%s)", agentContextUsage)
	case len(pos) == 1 && (set["set"] || *clearFile):
		return usagef("--set and --clear need a FILE: one of %s", strings.Join(fs.ContextFileNames(), ", "))
	case set["set"] && *clearFile:
		return usagef("--set and --clear do not go together (--clear is --set with nothing)")
	case set["set"] && *from == "":
		return usagef("--set needs a PATH, or - for standard input")
	case len(pos) == 2 && *asJSON:
		return usagef("--json is for the listing: warren agents context %s --json", pos[0])
	case len(pos) == 2 && !fs.IsContextFile(pos[1]):
		return usagef("%q is not a context file: want one of %s", pos[1], strings.Join(fs.ContextFileNames(), ", "))
	}
	content := ""
	if set["set"] {
		if content, err = readContextSource(env, *from, pos[1]); err != nil {
			return err
		}
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	agent := pos[0]
	a, err := getAgent(ctx, w, agent)
	if err != nil {
		return err
	}
	if set["set"] || *clearFile {
		return saveAgentContext(ctx, env, w, a, pos[1], content)
	}
	files, err := w.AgentContextFiles(ctx, agent)
	if err != nil {
		return err
	}
	if len(pos) == 2 {
		return printAgentContextFile(env, agent, files, pos[1])
	}
	if *asJSON {
		return printJSON(env, files)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tSIZE\tSTORED\tIN PROMPT\tPURPOSE")
	for _, f := range files {
		size := "-"
		if f.Exists {
			size = fmt.Sprintf("%d B", len(f.Content))
		}
		if f.Template {
			size += " (template)"
		}
		inPrompt := "no"
		if f.InPrompt {
			inPrompt = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, size, scopeWords(f.Scope), inPrompt, f.Purpose)
	}
	return tw.Flush()
}

// readContextSource reads the --set content from a file or standard input,
// at most one byte past the write limit so the core can refuse it.
func readContextSource(env Env, from, name string) (string, error) {
	var r io.Reader
	if from == "-" {
		if env.Stdin == nil {
			return "", usagef("--set -: there is no standard input")
		}
		if isTerminal(env.Stdin) {
			fmt.Fprintf(env.Stderr, "Type %s, then Ctrl-D on a line of its own:\n", name)
		}
		r = env.Stdin
	} else {
		f, err := os.Open(from) // #nosec G304 -- the user names the file to read
		if err != nil {
			return "", usagef("--set: %v", err)
		}
		defer func() { _ = f.Close() }() // read-only
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, fs.DefaultMaxWriteBytes+1))
	if err != nil {
		return "", fmt.Errorf("--set %s: %w", from, err)
	}
	return string(b), nil
}

// saveAgentContext writes (blank content: clears) one file of agent a.
func saveAgentContext(ctx context.Context, env Env, w *warren.Warren, a store.Agent, name, content string) error {
	if err := w.SaveAgentContextFile(ctx, a.Key, name, content); err != nil {
		if errors.Is(err, warren.ErrInvalidContextFile) {
			return usagef("%v", err)
		}
		return err
	}
	route, _ := fs.RouteContextFile(string(a.Type), name)
	if strings.TrimSpace(content) == "" {
		fmt.Fprintf(env.Stdout, "cleared %s of agent %s (%s)\n", name, a.Key, scopeWords(route.Scope))
		return nil
	}
	fmt.Fprintf(env.Stdout, "saved %s of agent %s: %d bytes (%s)\n", name, a.Key, len(content), scopeWords(route.Scope))
	return nil
}

func printAgentContextFile(env Env, agent string, files []warren.ContextFileView, name string) error {
	for _, f := range files {
		if f.Name != name {
			continue
		}
		if !f.Exists {
			fmt.Fprintf(env.Stderr, "agent %s has no %s (write it with warren agents context %s %s --set PATH)\n", agent, name, agent, name)
			return errResult
		}
		if f.Template {
			fmt.Fprintf(env.Stderr, "note: the agent-level template; you have no copy of your own yet\n")
		}
		_, err := io.WriteString(env.Stdout, f.Content)
		return err
	}
	return usagef("%q is not a context file", name)
}

// scopeWords says where a context file lives, for people.
func scopeWords(s fs.ContextFileScope) string {
	if s == fs.ScopeUser {
		return "per user"
	}
	return "agent-level"
}
