package teams

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/warren-dev/warren/policy/paths"
)

// maxStep bounds a progress step: one line on a card.
const maxStep = 500

// addComment stores a comment by the call's actor (FTS picks it up).
func (t *txn) addComment(task *Task, typ CommentType, text string) error {
	_, err := t.q.ExecContext(t.ctx, `INSERT INTO team_task_comments (task_id, type, author_kind, author, text, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, task.rowID, string(typ), string(t.who.record()), t.who.name, text, fmtTime(t.now))
	if err != nil {
		return fmt.Errorf("comment on %s: %w", task.ID, err)
	}
	return nil
}

// Comment adds a note (anyone on the team) or a blocker (the owner, the lead
// or the user). A blocker pauses the task as blocked, ends the owner's turn
// and escalates: to the lead when the team's blocker escalation is on and
// the lead did not raise it itself, otherwise to the user.
func (s *SQLStore) Comment(ctx context.Context, c Call, text string, typ CommentType) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if typ == "" {
			typ = CommentNote
		}
		if typ != CommentNote && typ != CommentBlocker {
			return invalidf("comment type %q is not known: use note or blocker", typ)
		}
		body, err := checkText("text", text, maxText, true)
		if err != nil {
			return invalidf("a comment needs text")
		}
		if typ == CommentNote {
			if err := t.addComment(task, typ, body); err != nil {
				return err
			}
			return t.record(task.ID, EventCommented, map[string]any{"type": typ, "text": clip(body)})
		}
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.user() || t.who.system(),
			"only the task's owner or the lead can raise a blocker on %s", task.ID); err != nil {
			return err
		}
		switch task.State {
		case StatePending, StateInProgress, StateBlocked, StateStale:
		default:
			return refuseState(*task, "raise a blocker on")
		}
		if err := t.addComment(task, typ, body); err != nil {
			return err
		}
		task.EscalateTo = EscalateUser
		if t.team.Settings.BlockerEscalation && t.who.agent() && !t.who.lead() {
			task.EscalateTo = EscalateLead
		}
		t.endTurn(*task)
		task.Hold = HoldBlocker
		t.setState(task, StateBlocked, "blocker from "+t.who.String()+": "+clip(body))
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventBlockerRaise, map[string]any{"text": clip(body), "escalate_to": task.EscalateTo})
	})
}

// Progress records how far the owner is (percent never goes down) and the
// current step; it also counts as a heartbeat.
func (s *SQLStore) Progress(ctx context.Context, c Call, percent int, step string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.system(),
			"only the task's owner or the lead can report progress on %s", task.ID); err != nil {
			return err
		}
		if percent < 0 || percent > 100 {
			return invalidf("percent %d is out of range: use 0 to 100", percent)
		}
		st, err := checkText("step", step, maxStep, false)
		if err != nil {
			return err
		}
		if task.State != StateInProgress {
			return conflictf("%s is %s; progress is reported on a task in progress (claim it first)", task.ID, task.State)
		}
		if percent < task.Progress {
			return invalidf("progress never goes down: %s is at %d%%, you sent %d%%", task.ID, task.Progress, percent)
		}
		task.Progress, task.HeartbeatAt = percent, t.now
		if st != "" {
			task.Step = st
		}
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventProgress, map[string]any{"percent": percent, "step": st})
	})
}

// Attach links a file of the team workspace to a task (owner, lead or
// user). The path is checked by policy/paths: `..`, absolute paths outside
// the workspace, symlinks leading out and .warren are refused; the file
// must exist.
func (s *SQLStore) Attach(ctx context.Context, c Call, path string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.user() || t.who.system(),
			"only the lead, the user or the task's owner can attach files to %s", task.ID); err != nil {
			return err
		}
		rel, err := workspaceFile(t.team, path)
		if err != nil {
			return err
		}
		res, err := t.q.ExecContext(t.ctx, `INSERT OR IGNORE INTO team_task_attachments (task_id, path, added_by_kind, added_by, created_at)
			VALUES (?, ?, ?, ?, ?)`, task.rowID, rel, string(t.who.record()), t.who.name, fmtTime(t.now))
		if err != nil {
			return fmt.Errorf("attach to %s: %w", task.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		return t.record(task.ID, EventAttached, map[string]any{"path": rel})
	})
}

// workspaceFile checks that p names an existing file in the team workspace
// and returns it relative to the workspace.
func workspaceFile(team Team, p string) (string, error) {
	if team.Workspace == "" {
		return "", conflictf("team '%s' has no workspace folder; the user sets one in the team editor", team.Key)
	}
	r, err := paths.New(paths.Config{Workspace: team.Workspace, Deny: []string{".warren"}})
	if err != nil {
		return "", fmt.Errorf("team workspace: %w", err)
	}
	res, err := r.Resolve("", p)
	if err != nil {
		if errors.Is(err, paths.ErrInvalidPath) || errors.Is(err, paths.ErrOutsideWorkspace) || errors.Is(err, paths.ErrDenied) {
			return "", invalidf("cannot attach: %v; attach a file inside the team workspace %s", err, team.Workspace)
		}
		return "", fmt.Errorf("attach %q: %w", p, err)
	}
	// Stat through an os.Root so a link swapped after the check still
	// cannot lead the lookup outside the workspace.
	root, err := os.OpenRoot(res.Target.Dir)
	if err != nil {
		return "", conflictf("team workspace %s cannot be opened: %v", team.Workspace, err)
	}
	defer func() { _ = root.Close() }()
	if _, err := root.Stat(res.Target.Name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", notFoundf("cannot attach %q: no such file in the team workspace %s", p, team.Workspace)
		}
		return "", invalidf("cannot attach %q: %v", p, err)
	}
	if res.Rel == "." {
		return "", invalidf("cannot attach the workspace itself: name a file in it")
	}
	return res.Rel, nil
}

// AskUser pauses a task with a question for the user (owner or lead); the
// owner's turn ends until the answer comes.
func (s *SQLStore) AskUser(ctx context.Context, c Call, question string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead(), "only the task's owner or the lead can ask the user about %s", task.ID); err != nil {
			return err
		}
		q, err := checkText("question", question, maxText, true)
		if err != nil {
			return invalidf("ask_user needs a question")
		}
		switch task.State {
		case StatePending, StateInProgress, StateBlocked:
		default:
			return refuseState(*task, "ask the user about")
		}
		t.endTurn(*task)
		task.Hold, task.Question, task.Answer, task.EscalateTo = HoldAskUser, q, "", EscalateUser
		t.setState(task, StateBlocked, "waiting for the user's answer to: "+clip(q))
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventAsked, map[string]any{"question": clip(q)})
	})
}

// ClearAskUser withdraws an open question; the task resumes.
func (s *SQLStore) ClearAskUser(ctx context.Context, c Call) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.user() || t.who.system(),
			"only the task's owner, the lead or the user can clear the question on %s", task.ID); err != nil {
			return err
		}
		if task.Hold != HoldAskUser {
			return conflictf("%s has no open question for the user", task.ID)
		}
		task.Question = ""
		return t.resume(task, EventAskCleared, nil)
	})
}

// Answer gives the user's answer to an open question; the task becomes
// ready again and its next dispatch carries the question and the answer.
func (s *SQLStore) Answer(ctx context.Context, c Call, answer string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.user() || t.who.system(), "only the user answers questions asked with ask_user on %s", task.ID); err != nil {
			return err
		}
		a, err := checkText("answer", answer, maxText, true)
		if err != nil {
			return invalidf("answer needs text")
		}
		if task.Hold != HoldAskUser {
			return conflictf("%s has no open question to answer", task.ID)
		}
		task.Answer = a
		return t.resume(task, EventAnswered, map[string]any{"question": clip(task.Question), "answer": clip(a)})
	})
}

// resume lifts a hold and makes the task ready when its blockers allow.
func (t *txn) resume(task *Task, typ EventType, data map[string]any) error {
	task.Hold, task.EscalateTo = HoldNone, EscalateNone
	t.setState(task, StatePending, "")
	if err := t.save(task); err != nil {
		return err
	}
	if _, _, err := t.recompute(task); err != nil {
		return err
	}
	t.markReady(*task)
	return t.record(task.ID, typ, data)
}
