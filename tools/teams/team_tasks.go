package teams

import (
	"context"
	_ "embed"
	"strings"

	board "github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools"
)

//go:embed team_tasks.md
var teamTasksDoc string

// TeamTasksParams are the parameters of team_tasks; the names are the ones
// the seed's implementation uses, plus team, order, limit and offset.
type TeamTasksParams struct {
	Action string `json:"action" enum:"create|list|get|claim|complete|review|approve|reject|cancel|assign|update|retry|comment|progress|attach|ask_user|clear_ask_user|search" description:"What to do"`
	Team   string `json:"team,omitempty" description:"Team key; only needed when you are on several teams"`
	TaskID string `json:"task_id,omitempty" description:"Task id such as T-3 (every action but create, list and search)"`
	// Pointers tell "not given" from "set to empty" for update.
	Subject         *string  `json:"subject,omitempty" description:"Short task title, at most 500 characters (create, update)"`
	Description     *string  `json:"description,omitempty" description:"What to do and what done looks like (create, update)"`
	Assignee        *string  `json:"assignee,omitempty" description:"Team agent who does the task (create, assign, update, retry); with list, only that agent's tasks"`
	Priority        *int     `json:"priority,omitempty" description:"0 (normal) to 3 (most urgent) (create, update)"`
	BlockedBy       []string `json:"blocked_by,omitempty" description:"Ids of tasks of this team that must complete first (create, update; an empty list clears them)"`
	RequireApproval bool     `json:"require_approval,omitempty" description:"The lead approves the finished work before the task completes (create)"`
	Result          string   `json:"result,omitempty" description:"What was done and where the output is (complete, review)"`
	Text            string   `json:"text,omitempty" description:"The comment (comment); the reason (reject, cancel); the question (ask_user); the current step (progress); a note for the new attempt (retry)"`
	Type            string   `json:"type,omitempty" enum:"note|blocker" description:"Comment type: note, or blocker to pause the task and escalate it (comment)"`
	Percent         *int     `json:"percent,omitempty" description:"Progress from 0 to 100, never lower than before (progress)"`
	Path            string   `json:"path,omitempty" description:"A file in the team workspace (attach)"`
	Query           string   `json:"query,omitempty" description:"Words to look for in subjects, descriptions, results and comments (search)"`
	Status          string   `json:"status,omitempty" description:"list filter: active (default: not completed, failed or cancelled), done, all, or states separated by commas (pending, blocked, in_progress, in_review, completed, failed, cancelled, stale)"`
	Order           string   `json:"order,omitempty" enum:"priority|newest" description:"list order (default priority)"`
	Limit           int      `json:"limit,omitempty" description:"list and search page size (default 50 and 20)"`
	Offset          int      `json:"offset,omitempty" description:"list: tasks to skip, for the next page"`
}

func newTeamTasks(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "team_tasks", Group: "teams", LongDescription: teamTasksDoc, Danger: tools.DangerWarning,
		Description: "Your team's task board: create tasks with dependencies, list, get, search, claim, report progress, complete, review, comment (note or blocker), attach files, ask the user, and (lead) assign, approve, reject, cancel, update or retry.",
	}, func(ctx context.Context, p TeamTasksParams) (tools.Result, error) {
		c, r, err := d.caller(ctx, p.Team)
		if r != nil || err != nil {
			return deref(r), err
		}
		return d.tasksAction(ctx, c, p)
	})
}

func deref(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

func (d Deps) tasksAction(ctx context.Context, c board.Call, p TeamTasksParams) (tools.Result, error) {
	switch p.Action {
	case "create":
		out, err := d.Store.CreateTask(ctx, c, board.NewTask{Subject: str(p.Subject), Description: str(p.Description),
			Assignee: str(p.Assignee), Priority: num(p.Priority), BlockedBy: p.BlockedBy, RequireApproval: p.RequireApproval})
		return d.outcome(ctx, c, "created", out, err)
	case "list":
		return d.list(ctx, c, p)
	case "search":
		hits, err := d.Store.Search(ctx, c, p.Query, p.Limit)
		if err != nil {
			return fail(err)
		}
		return tools.Text(searchText(p.Query, hits)), nil
	case "":
		return tools.Errorf(tools.CodeValidation, "action is required"), nil
	}
	if strings.TrimSpace(p.TaskID) == "" {
		return tools.Errorf(tools.CodeValidation, "%s needs task_id (see action list)", p.Action), nil
	}
	c.Task = p.TaskID
	var out board.Outcome
	var err error
	switch p.Action {
	case "get":
		det, err := d.Store.Get(ctx, c)
		if err != nil {
			return fail(err)
		}
		return tools.Text(detailText(det)), nil
	case "claim":
		out, err = d.Store.Claim(ctx, c)
	case "complete":
		out, err = d.Store.Complete(ctx, c, p.Result)
	case "review":
		out, err = d.Store.Review(ctx, c, p.Result)
	case "approve":
		out, err = d.Store.Approve(ctx, c)
	case "reject":
		out, err = d.Store.Reject(ctx, c, p.Text)
	case "cancel":
		out, err = d.Store.Cancel(ctx, c, p.Text)
	case "assign":
		out, err = d.Store.Assign(ctx, c, str(p.Assignee))
	case "update":
		out, err = d.Store.UpdateTask(ctx, c, board.TaskUpdate{Subject: p.Subject, Description: p.Description,
			Priority: p.Priority, BlockedBy: blockers(p.BlockedBy), Assignee: p.Assignee})
	case "retry":
		out, err = d.Store.Retry(ctx, c, board.RetryOptions{Assignee: str(p.Assignee), Note: p.Text})
	case "comment":
		out, err = d.Store.Comment(ctx, c, p.Text, board.CommentType(p.Type))
	case "progress":
		if p.Percent == nil {
			return tools.Errorf(tools.CodeValidation, "progress needs percent (0-100)"), nil
		}
		out, err = d.Store.Progress(ctx, c, *p.Percent, p.Text)
	case "attach":
		out, err = d.Store.Attach(ctx, c, p.Path)
	case "ask_user":
		out, err = d.Store.AskUser(ctx, c, p.Text)
	case "clear_ask_user":
		out, err = d.Store.ClearAskUser(ctx, c)
	default:
		return tools.Errorf(tools.CodeValidation, "unknown action %q: see the action list", p.Action), nil
	}
	return d.outcome(ctx, c, pastTense(p.Action), out, err)
}

// outcome reports a board change to the orchestrator and the model.
func (d Deps) outcome(ctx context.Context, c board.Call, did string, out board.Outcome, err error) (tools.Result, error) {
	if err != nil {
		return fail(err)
	}
	if d.OnOutcome != nil {
		d.OnOutcome(ctx, c.Team, out)
	}
	return tools.Text(outcomeText(did, c.By, out)), nil
}

func (d Deps) list(ctx context.Context, c board.Call, p TeamTasksParams) (tools.Result, error) {
	states, bad := statusFilter(p.Status)
	if bad != "" {
		return tools.Errorf(tools.CodeValidation, "status %q is not known: use active, done, all or task states separated by commas", bad), nil
	}
	page, err := d.Store.List(ctx, c, board.ListFilter{States: states, Owner: str(p.Assignee), Order: board.Order(p.Order),
		Limit: p.Limit, Offset: p.Offset})
	if err != nil {
		return fail(err)
	}
	return tools.Text(listText(page)), nil
}

// statusFilter reads list's status: a group name or comma-separated states.
func statusFilter(s string) (states []board.State, bad string) {
	switch strings.TrimSpace(s) {
	case "", "active":
		return []board.State{board.StatePending, board.StateBlocked, board.StateInProgress, board.StateInReview, board.StateStale}, ""
	case "done":
		return []board.State{board.StateCompleted, board.StateFailed, board.StateCancelled}, ""
	case "all":
		return nil, ""
	}
	for _, part := range strings.Split(s, ",") {
		st := board.State(strings.TrimSpace(part))
		if !st.Valid() {
			return nil, part
		}
		states = append(states, st)
	}
	return states, ""
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func num(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// blockers tells update "blocked_by not given" (nil) from "cleared" ([]).
func blockers(ids []string) *[]string {
	if ids == nil {
		return nil
	}
	return &ids
}

func pastTense(action string) string {
	switch action {
	case "ask_user":
		return "asked the user about"
	case "clear_ask_user":
		return "cleared the question on"
	case "progress":
		return "progress on"
	case "comment":
		return "commented on"
	case "attach":
		return "attached to"
	case "review":
		return "sent to review"
	case "cancel":
		return "cancelled"
	case "retry":
		return "retried"
	case "complete", "approve", "update":
		return action + "d"
	}
	return action + "ed" // claimed, rejected, assigned
}
