package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

const teamsUsage = `teams list [--json] | show TEAM [--json] | add TEAM --lead A --member B[=ROLE]... [--set KEY=VALUE]... [--name N] [--lead-role R] [--workspace DIR] | edit TEAM (same flags; --member replaces the members) | remove TEAM
  | tasks TEAM [--state S] [--json] | task TEAM ID [--json] | task add TEAM --subject S [--description D] [--assignee A] [--priority N] [--blocked-by ID]... [--require-approval] [--json]
  | task cancel|retry|approve|reject|assign|comment TEAM ID ... | answer TEAM ID TEXT | events TEAM [--task ID] [--json]
  | run TEAM "request" [--approve yes|no] [--no-wait]`

// runTeams is `warren teams`: teams, their boards and a request to a lead.
func runTeams(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name a subcommand: list, show, add, edit, remove, tasks, task, answer, events or run")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return teamsList(ctx, env, rest)
	case "show":
		return teamsShow(ctx, env, rest)
	case "add", "edit":
		return teamsSave(ctx, env, rest, sub == "add")
	case "remove":
		return teamsRemove(ctx, env, rest)
	case "tasks":
		return teamsTasks(ctx, env, rest)
	case "task":
		return teamsTask(ctx, env, rest)
	case "answer":
		return teamsAnswer(ctx, env, rest)
	case "events":
		return teamsEvents(ctx, env, rest)
	case "run":
		return teamsRun(ctx, env, rest)
	}
	return usagef("unknown subcommand %q: use list, show, add, edit, remove, tasks, task, answer, events or run", sub)
}

// boardErr turns a board refusal (bad input, unknown team or task, a rule)
// into a usage error: the text already says what to change.
func boardErr(err error) error {
	switch teams.CodeOf(err) {
	case teams.CodeInvalid, teams.CodeNotFound:
		return usagef("%v", err)
	}
	return err
}

func oneTeamArg(pos []string, what string) (string, error) {
	if len(pos) != 1 {
		return "", usagef("%s takes one team name, got %d argument(s)", what, len(pos))
	}
	return pos[0], nil
}

func teamsList(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("teams list takes no arguments")
	}
	ts, err := w.Teams().ListTeams(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, ts)
	}
	if len(ts) == 0 {
		fmt.Fprintln(env.Stdout, "no teams yet: warren teams add TEAM --lead AGENT --member AGENT=ROLE")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TEAM\tLEAD\tMEMBERS")
	for _, t := range ts {
		names := make([]string, len(t.Members))
		for i, m := range t.Members {
			names[i] = m.Agent
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Key, t.Lead, strings.Join(names, ", "))
	}
	return tw.Flush()
}

func teamsShow(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams show", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	key, err := oneTeamArg(pos, "teams show")
	if err != nil {
		return err
	}
	t, err := w.Teams().GetTeam(ctx, key)
	if err != nil {
		return boardErr(err)
	}
	if *asJSON {
		return printJSON(env, t)
	}
	fmt.Fprintf(env.Stdout, "team:      %s (%s)\nlead:      %s — %s\nworkspace: %s\nmembers:\n", t.Key, t.Name, t.Lead, t.LeadRole, t.Workspace)
	for _, m := range t.Members {
		fmt.Fprintf(env.Stdout, "  %s — %s\n", m.Agent, m.Role)
	}
	fmt.Fprintln(env.Stdout, "settings:")
	for _, kv := range settingPairs(t.Settings) {
		fmt.Fprintf(env.Stdout, "  %s\n", kv)
	}
	return nil
}

func teamsSave(ctx context.Context, env Env, args []string, create bool) error {
	verb := map[bool]string{true: "add", false: "edit"}[create]
	fs := flag.NewFlagSet("teams "+verb, flag.ContinueOnError)
	lead := fs.String("lead", "", "the lead agent")
	name := fs.String("name", "", "display name")
	leadRole := fs.String("lead-role", "", "the lead's one-line role")
	workspace := fs.String("workspace", "", "shared team folder (absolute; default beside Warren's workspace)")
	var members, sets multiFlag
	fs.Var(&members, "member", "a member agent, optionally with its role: AGENT[=ROLE] (repeat)")
	fs.Var(&sets, "set", "a setting KEY=VALUE (repeat)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	key, err := oneTeamArg(pos, "teams "+verb)
	if err != nil {
		return err
	}
	if create && *lead == "" {
		return usagef("teams add needs --lead AGENT")
	}
	ms, err := parseMembers(members)
	if err != nil {
		return err
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	t := teams.Team{Key: key, Settings: teams.DefaultSettings(), Members: ms}
	if !create {
		if t, err = w.Teams().GetTeam(ctx, key); err != nil {
			return boardErr(err)
		}
		if len(members) > 0 {
			t.Members = ms
		}
	}
	for flagName, v := range map[string]string{"lead": *lead, "name": *name, "lead-role": *leadRole, "workspace": *workspace} {
		if v == "" {
			continue
		}
		switch flagName {
		case "lead":
			t.Lead = v
		case "name":
			t.Name = v
		case "lead-role":
			t.LeadRole = v
		case "workspace":
			t.Workspace = v
		}
	}
	if t.Settings, err = applySettings(t.Settings, sets); err != nil {
		return err
	}
	save := w.Teams().UpdateTeam
	if create {
		save = w.Teams().CreateTeam
	}
	saved, err := save(ctx, teams.User(), t)
	if err != nil {
		return boardErr(err)
	}
	done := map[bool]string{true: "added", false: "updated"}[create]
	fmt.Fprintf(env.Stdout, "%s team %s (lead %s, %d member(s))\n", done, saved.Key, saved.Lead, len(saved.Members))
	warnTeamTools(ctx, env, w, saved)
	return nil
}

// warnTeamTools tells the user when an agent of the team cannot use the
// team tools, which its profile must allow.
func warnTeamTools(ctx context.Context, env Env, w *warren.Warren, t teams.Team) {
	agents := []string{t.Lead}
	for _, m := range t.Members {
		agents = append(agents, m.Agent)
	}
	for _, a := range agents {
		ag, err := w.Store().GetAgent(ctx, a)
		if err != nil {
			continue
		}
		inv, err := w.Inventory(ctx, warren.InventoryRequest{Agent: a, Profile: ag.Profile})
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(inv, func(e warren.ToolInfo) bool { return e.Name == "team_tasks" && e.Allowed }) {
			fmt.Fprintf(env.Stderr, "note: agent %s cannot use team_tasks with its profile; give it a profile with the teams group (warren agents edit %s --profile full)\n", a, a)
		}
	}
}

func teamsRemove(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams remove", flag.ContinueOnError)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	key, err := oneTeamArg(pos, "teams remove")
	if err != nil {
		return err
	}
	if err := w.Teams().DeleteTeam(ctx, teams.User(), key); err != nil {
		return boardErr(err)
	}
	fmt.Fprintf(env.Stdout, "removed team %s\n", key)
	return nil
}

var errTasksFailed = errors.New("some tasks of the request did not complete")
