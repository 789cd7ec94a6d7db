package warren

import (
	"context"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/teams"
)

// teamSection is the part of an agent's system prompt about its teams: the
// generated TEAM.md for a lead, a short section for a member ("" for an
// agent on no team). Members get a section too, unlike the seed's lead-only
// design, because local models forget to look for context through tools.
func (w *Warren) teamSection(ctx context.Context, agentKey string) (string, error) {
	if w.teams == nil {
		return "", nil
	}
	ts, err := w.teams.TeamsOf(ctx, agentKey)
	if err != nil {
		return "", fmt.Errorf("teams of %s: %w", agentKey, err)
	}
	var b strings.Builder
	for _, t := range ts {
		if t.Lead == agentKey {
			b.WriteString(w.leadTeamMD(ctx, t))
			continue
		}
		b.WriteString(memberTeamMD(t, agentKey))
	}
	return b.String(), nil
}

// modelOf names an agent's model for TEAM.md, so the lead can size tasks
// to what each member runs on.
func (w *Warren) modelOf(ctx context.Context, agentKey string) string {
	a, err := w.db.GetAgent(ctx, agentKey)
	if err != nil {
		return "unknown model"
	}
	if a.Model != "" {
		return a.Model
	}
	if a.Provider != "" {
		if p, err := w.Providers().Get(ctx, a.Provider); err == nil && p.DefaultModel != "" {
			return p.DefaultModel
		}
	}
	return "default model"
}

// leadTeamMD is the lead's generated TEAM.md.
func (w *Warren) leadTeamMD(ctx context.Context, t teams.Team) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## TEAM.md — team %s (%s)\n\n", t.Name, t.Key)
	role := firstNonEmpty(t.LeadRole, "plan the work, hand it out and write the final answer")
	fmt.Fprintf(&b, "You lead this team. Your role: %s.\nThe shared team workspace is %s.\n\nMembers:\n", role, t.Workspace)
	for _, m := range t.Members {
		fmt.Fprintf(&b, "- %s — %s (model: %s)\n", m.Agent, firstNonEmpty(m.Role, "no role given"), w.modelOf(ctx, m.Agent))
	}
	b.WriteString(`
How to plan:
- Build the whole task graph at once with team_tasks create: one task per piece of work, each with an
  assignee, and blocked_by listing the ids of the tasks it needs. Dependents start by themselves when
  their blockers complete; do not wait to create them.
- Search the board (team_tasks search or list) before creating a task, so you never create it twice.
- Members work in parallel, one task each at a time. Warren starts them and brings you their results
  in batches; you do not need to poll.
- When a member raises a blocker, resolve it: retry the task with a note (team_tasks retry, text),
  reassign it, change blocked_by or cancel it. A failed task's dependents wait until you decide.
- When every task has finished, write the final answer for the user from the results.
`)
	return b.String()
}

// memberTeamMD is a member's short team section.
func memberTeamMD(t teams.Team, agentKey string) string {
	role := "a member"
	for _, m := range t.Members {
		if m.Agent == agentKey && m.Role != "" {
			role = m.Role
		}
	}
	return fmt.Sprintf(`
## Team %s

You are a member of team %s (lead: %s). Your role: %s.
The shared team workspace is %s. Warren hands you one task at a time from the team board.
- Report progress with team_tasks progress (percent, text); attach files you make with team_tasks attach.
- If you cannot go on, comment with type blocker and say what you need; to ask the user, use ask_user.
- When done, call team_tasks complete with the result (what you did, what you found, where the files are),
  or end your reply with the result: your final reply completes the task.
`, t.Key, t.Name, t.Lead, role, t.Workspace)
}

// dispatchPrompt is the message that starts a member's turn on a task: the
// task, its blockers' results, the latest comments, attachments, and why it
// runs again (a reject reason, a retry note, an answer from the user).
func (w *Warren) dispatchPrompt(ctx context.Context, team teams.Team, d teams.TaskDetail) string {
	task := d.Task
	var b strings.Builder
	fmt.Fprintf(&b, "[Team %s] Task %s for you: %s\n", team.Key, task.ID, task.Subject)
	if task.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", task.Description)
	}
	for _, id := range task.BlockedBy {
		bd, err := w.teams.Get(ctx, teams.Call{Team: team.Key, Task: id, By: teams.System()})
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "\nResult of %s (%s, by %s):\n%s\n", id, bd.Task.Subject, bd.Task.Owner, firstNonEmpty(bd.Task.Result, "(no result text)"))
	}
	if task.Result != "" {
		fmt.Fprintf(&b, "\nAn earlier attempt's result:\n%s\n", task.Result)
	}
	if task.Reason != "" {
		fmt.Fprintf(&b, "\nNote: %s\n", task.Reason)
	}
	if task.Question != "" && task.Answer != "" {
		fmt.Fprintf(&b, "\nYou asked the user: %s\nThe user answered: %s\n", task.Question, task.Answer)
	}
	comments := d.Comments
	if len(comments) > 5 {
		comments = comments[len(comments)-5:]
	}
	if len(comments) > 0 {
		b.WriteString("\nLatest comments:\n")
		for _, c := range comments {
			fmt.Fprintf(&b, "- [%s] %s: %s\n", c.Type, c.Author, c.Text)
		}
	}
	if len(d.Attachments) > 0 {
		b.WriteString("\nAttachments (in the team workspace):\n")
		for _, a := range d.Attachments {
			fmt.Fprintf(&b, "- %s\n", a.Path)
		}
	}
	fmt.Fprintf(&b, "\nDo the task now. When done, call team_tasks complete with task_id %s and the result, or reply with the result.\n", task.ID)
	return b.String()
}
