package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/teams"
)

// teamsAnswer is `warren teams answer TEAM ID TEXT`.
func teamsAnswer(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams answer", flag.ContinueOnError)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 3 {
		return usagef("teams answer needs TEAM ID TEXT")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	out, err := w.Teams().Answer(ctx, teams.Call{Team: pos[0], Task: pos[1], By: teams.User()}, strings.Join(pos[2:], " "))
	if err != nil {
		return boardErr(err)
	}
	fmt.Fprintf(env.Stdout, "answered %s; it is %s\n", out.Task.ID, out.Task.State)
	return nil
}

// teamsEvents is `warren teams events TEAM [--task ID] [--json]`.
func teamsEvents(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams events", flag.ContinueOnError)
	task := fs.String("task", "", "only this task's events")
	limit := fs.Int("limit", 1000, "at most this many events, oldest first")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	key, err := oneTeamArg(pos, "teams events")
	if err != nil {
		return err
	}
	evs, err := w.Teams().Events(ctx, teams.Call{Team: key, By: teams.User()}, teams.EventFilter{Task: *task, Limit: *limit})
	if err != nil {
		return boardErr(err)
	}
	if *asJSON {
		return printJSON(env, evs)
	}
	for _, e := range evs {
		fmt.Fprintf(env.Stdout, "%s  %-5s %-16s %s:%s %s\n", e.Time.Local().Format("2006-01-02 15:04:05"), orDash(e.Task), e.Type,
			e.ActorKind, e.Actor, string(e.Data))
	}
	return nil
}
