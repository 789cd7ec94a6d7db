package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/teams"
)

// teamsTasks is `warren teams tasks TEAM [--state S] [--json]`.
func teamsTasks(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams tasks", flag.ContinueOnError)
	state := fs.String("state", "", "only tasks in these states, comma-separated (pending, blocked, in_progress, in_review, completed, failed, cancelled, stale)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	key, err := oneTeamArg(pos, "teams tasks")
	if err != nil {
		return err
	}
	var f teams.ListFilter
	for _, s := range strings.Split(*state, ",") {
		if s = strings.TrimSpace(s); s != "" {
			f.States = append(f.States, teams.State(s))
		}
	}
	f.Limit = 10000
	page, err := w.Teams().List(ctx, teams.Call{Team: key, By: teams.User()}, f)
	if err != nil {
		return boardErr(err)
	}
	if *asJSON {
		return printJSON(env, page.Tasks)
	}
	if len(page.Tasks) == 0 {
		fmt.Fprintln(env.Stdout, "no tasks")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tP\tOWNER\tSUBJECT\tBLOCKED BY")
	for _, t := range page.Tasks {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", t.ID, t.State, t.Priority, orDash(t.Owner), t.Subject, orDash(strings.Join(t.BlockedBy, ",")))
	}
	return tw.Flush()
}

// taskActions are the words after `teams task` that name an action.
var taskActions = map[string]bool{"add": true, "cancel": true, "retry": true, "approve": true, "reject": true, "assign": true, "comment": true}

// teamsTask is `warren teams task TEAM ID` or `warren teams task ACTION …`.
func teamsTask(ctx context.Context, env Env, args []string) error {
	if len(args) > 0 && taskActions[args[0]] {
		if args[0] == "add" {
			return teamsTaskAdd(ctx, env, args[1:])
		}
		return teamsTaskAction(ctx, env, args[0], args[1:])
	}
	fs := flag.NewFlagSet("teams task", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("teams task takes TEAM ID (or an action: add, cancel, retry, approve, reject, assign, comment)")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	d, err := w.Teams().Get(ctx, teams.Call{Team: pos[0], Task: pos[1], By: teams.User()})
	if err != nil {
		return boardErr(err)
	}
	if *asJSON {
		return printJSON(env, d)
	}
	printTask(env, d)
	return nil
}

func printTask(env Env, d teams.TaskDetail) {
	t := d.Task
	out := env.Stdout
	fmt.Fprintf(out, "%s  %s\nstate:    %s", t.ID, t.Subject, t.State)
	if t.Reason != "" {
		fmt.Fprintf(out, " (%s)", t.Reason)
	}
	fmt.Fprintf(out, "\nowner:    %s\npriority: %d\nprogress: %d%%\n", orDash(t.Owner), t.Priority, t.Progress)
	if len(t.BlockedBy) > 0 {
		fmt.Fprintf(out, "blocked by: %s\n", strings.Join(t.BlockedBy, ", "))
	}
	if t.Question != "" {
		fmt.Fprintf(out, "question: %s\n", t.Question)
	}
	if t.Description != "" {
		fmt.Fprintf(out, "\n%s\n", t.Description)
	}
	if t.Result != "" {
		fmt.Fprintf(out, "\nresult:\n%s\n", t.Result)
	}
	for _, c := range d.Comments {
		fmt.Fprintf(out, "\n[%s] %s: %s", c.Type, c.Author, c.Text)
	}
	for _, a := range d.Attachments {
		fmt.Fprintf(out, "\nattachment: %s", a.Path)
	}
	if len(d.Comments)+len(d.Attachments) > 0 {
		fmt.Fprintln(out)
	}
}

// teamsTaskAdd is `warren teams task add TEAM --subject S …`.
func teamsTaskAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams task add", flag.ContinueOnError)
	subject := fs.String("subject", "", "the task's title (required)")
	desc := fs.String("description", "", "what to do and what done looks like")
	assignee := fs.String("assignee", "", "the team agent who does it (default: unassigned)")
	priority := fs.Int("priority", 0, "0 (normal) to 3 (most urgent)")
	approval := fs.Bool("require-approval", false, "review the work before it completes")
	asJSON := fs.Bool("json", false, "print the task as JSON")
	var blockedBy multiFlag
	fs.Var(&blockedBy, "blocked-by", "a task id this one waits for (repeat)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	key, err := oneTeamArg(pos, "teams task add")
	if err != nil {
		return err
	}
	if strings.TrimSpace(*subject) == "" {
		return usagef("teams task add needs --subject")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	out, err := w.Teams().CreateTask(ctx, teams.Call{Team: key, By: teams.User()}, teams.NewTask{Subject: *subject,
		Description: *desc, Assignee: *assignee, Priority: *priority, BlockedBy: blockedBy, RequireApproval: *approval})
	if err != nil {
		return boardErr(err)
	}
	if *asJSON {
		return printJSON(env, out.Task)
	}
	fmt.Fprintln(env.Stdout, out.Task.ID)
	return nil
}

// teamsTaskAction is cancel, retry, approve, reject, assign and comment.
func teamsTaskAction(ctx context.Context, env Env, action string, args []string) error {
	fs := flag.NewFlagSet("teams task "+action, flag.ContinueOnError)
	reason := fs.String("reason", "", "why (cancel, reject)")
	assignee := fs.String("assignee", "", "run it with this agent (retry)")
	note := fs.String("note", "", "a note for the new attempt (retry)")
	blocker := fs.Bool("blocker", false, "the comment is a blocker: it pauses the task (comment)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("teams task %s needs TEAM ID", action)
	}
	rest := strings.TrimSpace(strings.Join(pos[2:], " "))
	c := teams.Call{Team: pos[0], Task: pos[1], By: teams.User()}
	run, err := taskActionFunc(action, rest, *reason, *assignee, *note, *blocker)
	if err != nil {
		return err
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	out, err := run(ctx, w.Teams(), c)
	if err != nil {
		return boardErr(err)
	}
	fmt.Fprintf(env.Stdout, "%s is %s\n", out.Task.ID, out.Task.State)
	return nil
}

type boardAction func(context.Context, teams.Store, teams.Call) (teams.Outcome, error)

// taskActionFunc checks an action's arguments before anything opens.
func taskActionFunc(action, rest, reason, assignee, note string, blocker bool) (boardAction, error) {
	switch action {
	case "cancel":
		why := firstNonEmptyArg(reason, rest)
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Cancel(ctx, c, why)
		}, nil
	case "retry":
		if rest != "" {
			return nil, usagef("teams task retry takes TEAM ID [--assignee A] [--note TEXT], not %q", rest)
		}
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Retry(ctx, c, teams.RetryOptions{Assignee: assignee, Note: note})
		}, nil
	case "approve":
		if rest != "" {
			return nil, usagef("teams task approve takes TEAM ID only")
		}
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Approve(ctx, c)
		}, nil
	case "reject":
		why := firstNonEmptyArg(reason, rest)
		if why == "" {
			return nil, usagef("teams task reject needs a reason: TEAM ID REASON (or --reason)")
		}
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Reject(ctx, c, why)
		}, nil
	case "assign":
		to := firstNonEmptyArg(assignee, rest)
		if to == "" || strings.Contains(to, " ") {
			return nil, usagef("teams task assign needs one member: TEAM ID MEMBER")
		}
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Assign(ctx, c, to)
		}, nil
	case "comment":
		if rest == "" {
			return nil, usagef("teams task comment needs text: TEAM ID TEXT [--blocker]")
		}
		typ := teams.CommentNote
		if blocker {
			typ = teams.CommentBlocker
		}
		return func(ctx context.Context, s teams.Store, c teams.Call) (teams.Outcome, error) {
			return s.Comment(ctx, c, rest, typ)
		}, nil
	}
	return nil, usagef("unknown task action %q", action)
}

func firstNonEmptyArg(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
