package teams

import (
	"fmt"
	"strings"

	board "github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools"
)

// taskLine is one task on one line: id, state, priority, owner, progress,
// subject, what it waits for.
func taskLine(t board.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] p%d", t.ID, t.State, t.Priority)
	if t.Owner != "" {
		fmt.Fprintf(&b, " @%s", t.Owner)
	} else {
		b.WriteString(" unassigned")
	}
	if t.Progress > 0 && t.State != board.StateCompleted {
		fmt.Fprintf(&b, " %d%%", t.Progress)
	}
	fmt.Fprintf(&b, " %q", t.Subject)
	if len(t.BlockedBy) > 0 {
		fmt.Fprintf(&b, " blocked_by=%s", strings.Join(t.BlockedBy, ","))
	}
	if t.Reason != "" {
		fmt.Fprintf(&b, " — %s", tools.Clip(t.Reason, 300))
	}
	return b.String()
}

func names(ts []board.Task, withOwner bool) string {
	var parts []string
	for _, t := range ts {
		switch {
		case !withOwner:
			parts = append(parts, t.ID)
		case t.Owner != "":
			parts = append(parts, fmt.Sprintf("%s (assigned to %s)", t.ID, t.Owner))
		default:
			parts = append(parts, t.ID+" (unassigned: any member can claim it)")
		}
	}
	return strings.Join(parts, ", ")
}

// outcomeText tells the model what its action did and what follows from it.
func outcomeText(did string, by board.Actor, out board.Outcome) string {
	t := out.Task
	lines := []string{fmt.Sprintf("%s %s: %s", did, t.ID, taskLine(t))}
	switch {
	case t.State == board.StateInReview:
		lines = append(lines, t.ID+" now waits for the lead or the user to approve or reject it.")
	case t.Hold == board.HoldBlocker && t.EscalateTo == board.EscalateLead:
		lines = append(lines, "The lead has been told about the blocker and will resolve it.")
	case t.Hold == board.HoldBlocker:
		lines = append(lines, "The user has been told about the blocker.")
	case t.Hold == board.HoldAskUser:
		lines = append(lines, "The question is in the user's inbox; the task resumes with the answer.")
	}
	if out.EndTurn != "" && out.EndTurn == by.Name {
		lines = append(lines, "Stop working on "+t.ID+" now; you will be told when it resumes.")
	} else if out.EndTurn != "" {
		lines = append(lines, fmt.Sprintf("%s's work on %s has been stopped.", out.EndTurn, t.ID))
	}
	if len(out.Ready) > 0 {
		lines = append(lines, "Ready to start now: "+names(out.Ready, true)+".")
	}
	if len(out.Stuck) > 0 {
		lines = append(lines, "Stuck behind a task that will not finish on its own: "+names(out.Stuck, false)+
			". Retry the blocker, change their blocked_by, or cancel them.")
	}
	return strings.Join(lines, "\n")
}

func listText(p board.TaskPage) string {
	if len(p.Tasks) == 0 {
		if p.Total > 0 {
			return fmt.Sprintf("no tasks at offset %d (%d match)", p.Offset, p.Total)
		}
		return "no tasks match"
	}
	lines := []string{fmt.Sprintf("%d of %d tasks (offset %d):", len(p.Tasks), p.Total, p.Offset)}
	for _, t := range p.Tasks {
		lines = append(lines, taskLine(t))
	}
	if rest := p.Total - p.Offset - len(p.Tasks); rest > 0 {
		lines = append(lines, fmt.Sprintf("%d more: list again with offset %d", rest, p.Offset+len(p.Tasks)))
	}
	return strings.Join(lines, "\n")
}

// detailLimits keep get's answer readable: the newest comments and events.
const detailComments, detailEvents = 20, 15

func detailText(d board.TaskDetail) string {
	t := d.Task
	lines := []string{taskLine(t)}
	add := func(label, text string) {
		if strings.TrimSpace(text) != "" {
			lines = append(lines, label+": "+text)
		}
	}
	add("description", t.Description)
	add("result", t.Result)
	add("step", t.Step)
	add("question for the user", t.Question)
	add("user's answer", t.Answer)
	add("dependents", strings.Join(d.Dependents, ", "))
	if t.RequireApproval {
		lines = append(lines, "requires approval: yes")
	}
	if len(d.Attachments) > 0 {
		var paths []string
		for _, a := range d.Attachments {
			paths = append(paths, a.Path)
		}
		add("attachments", strings.Join(paths, ", "))
	}
	comments := d.Comments[max(0, len(d.Comments)-detailComments):]
	if len(comments) > 0 {
		lines = append(lines, fmt.Sprintf("comments (%d, newest last):", len(d.Comments)))
		for _, c := range comments {
			lines = append(lines, fmt.Sprintf("- [%s] %s: %s", c.Type, c.Author, tools.Clip(c.Text, 1000)))
		}
	}
	events := d.Events[max(0, len(d.Events)-detailEvents):]
	if len(events) > 0 {
		lines = append(lines, "history (newest last):")
		for _, e := range events {
			lines = append(lines, fmt.Sprintf("- %s %s by %s", e.Time.Format("2006-01-02 15:04"), e.Type, e.Actor))
		}
	}
	return strings.Join(lines, "\n")
}

func searchText(q string, hits []board.SearchHit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("no tasks match %q", q)
	}
	lines := []string{fmt.Sprintf("%d tasks match %q, best first:", len(hits), q)}
	for _, h := range hits {
		lines = append(lines, taskLine(h.Task)+"\n  "+h.Snippet)
	}
	return strings.Join(lines, "\n")
}
