package teams

import (
	"context"
	"strings"
)

// refuseState explains why a task's state forbids an action.
func refuseState(task Task, action string) error {
	switch task.State {
	case StateCompleted:
		return conflictf("%s is already completed; the lead or the user can retry it to run it again", task.ID)
	case StateFailed, StateCancelled, StateStale:
		why := ""
		if task.Reason != "" {
			why = " (" + task.Reason + ")"
		}
		return conflictf("%s is %s%s; the lead or the user can retry it first", task.ID, task.State, why)
	case StateInReview:
		return conflictf("%s is waiting for review: the lead or the user approves or rejects it", task.ID)
	case StateBlocked:
		return conflictf("%s is blocked: %s", task.ID, task.Reason)
	}
	return conflictf("cannot %s %s while it is %s", action, task.ID, task.State)
}

// Claim makes the calling agent the owner of a pending task and starts it,
// atomically: of many claimers exactly one wins, and the others are told who.
// Claiming a task you already run is a no-op.
func (s *SQLStore) Claim(ctx context.Context, c Call) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.agent(), "claiming makes an agent the owner of %s, so only the team's agents can claim", task.ID); err != nil {
			return err
		}
		switch task.State {
		case StatePending:
			if task.Owner != "" && task.Owner != t.who.name {
				return conflictf("%s is assigned to '%s'; only '%s' can claim it (the lead can reassign it)", task.ID, task.Owner, task.Owner)
			}
		case StateInProgress, StateInReview:
			if task.Owner == t.who.name {
				return nil
			}
			return conflictf("%s was already claimed by '%s' (now %s); pick another pending task", task.ID, task.Owner, task.State)
		default:
			return refuseState(*task, "claim")
		}
		task.Owner = t.who.name
		t.setState(task, StateInProgress, "")
		task.HeartbeatAt = t.now
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventClaimed, map[string]any{"owner": task.Owner})
	})
}

// checkCanFinish refuses a task that still waits for its blockers.
func (t *txn) checkCanFinish(task *Task, action string) error {
	switch task.State {
	case StatePending, StateInProgress, StateStale, StateBlocked:
	default:
		return refuseState(*task, action)
	}
	ws, err := t.unfinished(*task)
	if err != nil {
		return err
	}
	if len(ws) > 0 {
		reason, _ := waitingReason(ws)
		return conflictf("%s cannot %s before its blockers: it is %s", task.ID, action, reason)
	}
	return nil
}

// Complete records the result (owner, lead or system). A task that requires
// approval goes to review instead; a completed one makes its waiting
// dependents ready, and the outcome lists them.
func (s *SQLStore) Complete(ctx context.Context, c Call, result string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.system(),
			"only the lead or the task's owner can complete %s", task.ID); err != nil {
			return err
		}
		res, err := checkText("result", result, maxText, true)
		if err != nil {
			return invalidf("complete needs a result: say what was done and where the output is")
		}
		if err := t.checkCanFinish(task, "complete"); err != nil {
			return err
		}
		task.Result, task.Hold, task.EscalateTo = res, HoldNone, EscalateNone
		if task.RequireApproval {
			t.setState(task, StateInReview, "")
			if err := t.save(task); err != nil {
				return err
			}
			return t.record(task.ID, EventReviewAsked, map[string]any{"result": clip(res)})
		}
		return t.finishCompleted(task, EventCompleted, map[string]any{"result": clip(res)})
	})
}

// finishCompleted completes a task and settles its dependents.
func (t *txn) finishCompleted(task *Task, typ EventType, data map[string]any) error {
	task.Progress = 100
	t.setState(task, StateCompleted, "")
	if err := t.save(task); err != nil {
		return err
	}
	if err := t.record(task.ID, typ, data); err != nil {
		return err
	}
	return t.settle(*task)
}

// Review sends the owner's finished work to the lead or the user for approval.
func (s *SQLStore) Review(ctx context.Context, c Call, result string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.system(), "only the task's owner can send %s to review", task.ID); err != nil {
			return err
		}
		res, err := checkText("result", result, maxText, false)
		if err != nil {
			return err
		}
		if err := t.checkCanFinish(task, "go to review"); err != nil {
			return err
		}
		if res != "" {
			task.Result = res
		}
		task.Hold, task.EscalateTo = HoldNone, EscalateNone
		t.setState(task, StateInReview, "")
		if err := t.save(task); err != nil {
			return err
		}
		return t.record(task.ID, EventReviewAsked, map[string]any{"result": clip(task.Result)})
	})
}

// Approve completes a task in review (lead or user).
func (s *SQLStore) Approve(ctx context.Context, c Call) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can approve %s", task.ID); err != nil {
			return err
		}
		if task.State != StateInReview {
			return conflictf("%s is %s; only a task in review can be approved", task.ID, task.State)
		}
		return t.finishCompleted(task, EventApproved, nil)
	})
}

// Reject sends a task in review back to its owner with the reason, which
// is kept as a comment so the next dispatch carries it.
func (s *SQLStore) Reject(ctx context.Context, c Call, reason string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can reject %s", task.ID); err != nil {
			return err
		}
		why, err := checkText("reason", reason, maxText, true)
		if err != nil {
			return invalidf("reject needs a reason: tell the owner what to change")
		}
		if task.State != StateInReview {
			return conflictf("%s is %s; only a task in review can be rejected", task.ID, task.State)
		}
		if err := t.addComment(task, CommentNote, "Rejected: "+why); err != nil {
			return err
		}
		t.setState(task, StatePending, "")
		if _, _, err := t.recompute(task); err != nil {
			return err
		}
		if task.State == StatePending {
			task.Reason = "rejected by " + t.who.String() + ": " + why
			if err := t.save(task); err != nil {
				return err
			}
		}
		t.markReady(*task)
		return t.record(task.ID, EventRejected, map[string]any{"reason": why, "owner": task.Owner})
	})
}

// Cancel stops a task for good (lead or user); its running turn ends and
// its dependents stay blocked, reported as stuck with the reason.
func (s *SQLStore) Cancel(ctx context.Context, c Call, reason string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.leadOrUser(), "only the lead or the user can cancel %s", task.ID); err != nil {
			return err
		}
		return t.stop(task, StateCancelled, EventCancelled, reason)
	})
}

// Fail ends a task as failed with the reason (owner, lead or system: a run
// error, a timeout); its dependents stay blocked, reported as stuck.
func (s *SQLStore) Fail(ctx context.Context, c Call, reason string) (Outcome, error) {
	return s.onTask(ctx, c, func(t *txn, task *Task) error {
		if err := t.require(t.who.owns(*task) || t.who.lead() || t.who.system(),
			"only the lead, the task's owner or Warren can fail %s", task.ID); err != nil {
			return err
		}
		if strings.TrimSpace(reason) == "" {
			return invalidf("fail needs a reason")
		}
		return t.stop(task, StateFailed, EventFailed, reason)
	})
}

// stop moves a task to failed or cancelled and settles its dependents.
func (t *txn) stop(task *Task, to State, typ EventType, reason string) error {
	why, err := checkText("reason", reason, maxText, false)
	if err != nil {
		return err
	}
	if why == "" {
		why = string(to) + " by " + t.who.String()
	}
	if task.State.Finished() {
		return conflictf("%s is already %s", task.ID, task.State)
	}
	t.endTurn(*task)
	task.Hold, task.EscalateTo = HoldNone, EscalateNone
	t.setState(task, to, why)
	if err := t.save(task); err != nil {
		return err
	}
	if err := t.record(task.ID, typ, map[string]any{"reason": why}); err != nil {
		return err
	}
	return t.settle(*task)
}

// endTurn reports the owner of a running task whose turn must end because
// the task stops running for another reason than its completion.
func (t *txn) endTurn(task Task) {
	if task.State == StateInProgress && task.Owner != "" {
		t.out.EndTurn = task.Owner
	}
}

// clip shortens long text kept in event data; the full text is on the task.
func clip(s string) string {
	const limit = 500
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + "…"
	}
	return s
}
