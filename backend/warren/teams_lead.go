package warren

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/teams"
)

// leadNote is one thing the lead must hear about in its next batch.
type leadNote struct {
	task string
	text string
}

// leadState is the lead's side of a team: notes waiting to be handed over
// (debounced, like subagent announcements), whether a lead turn runs, and
// the user request it works on.
type leadState struct {
	notes   []leadNote
	due     time.Time
	timer   *time.Timer
	busy    bool
	session string // where results go: the request's chat, else the lead's team session
	request *teamRequest
}

func (o *teamOrch) lead(team string) *leadState {
	ls := o.leads[team]
	if ls == nil {
		ls = &leadState{}
		o.leads[team] = ls
	}
	return ls
}

// handleEvent turns one audit event into notes for the lead and notices
// for the user. The lead is not told about what it did itself.
func (o *teamOrch) handleEvent(ctx context.Context, tm teams.Team, e teams.Event) {
	o.mu.Lock()
	ls := o.lead(tm.Key)
	if e.Type == teams.EventCreated && ls.request != nil {
		ls.request.tasks[e.Task] = true
		ls.request.finalAsked = false
	}
	o.mu.Unlock()
	var data map[string]any
	_ = json.Unmarshal(e.Data, &data)
	byLead := e.ActorKind == teams.RecordAgent && e.Actor == tm.Lead
	str := func(k string) string { s, _ := data[k].(string); return s }
	switch e.Type {
	case teams.EventCompleted, teams.EventApproved, teams.EventReviewAsked, teams.EventCancelled, teams.EventFailed:
		if !byLead {
			o.note(tm.Key, e.Task, string(e.Type))
		}
	case teams.EventBlockerRaise:
		if str("escalate_to") == string(teams.EscalateLead) {
			o.note(tm.Key, e.Task, "blocker raised by "+e.Actor+": "+str("text"))
		} else {
			o.notice(TeamNotice{Team: tm.Key, Task: e.Task, Kind: NoticeBlocker, Text: e.Actor + " is blocked: " + str("text")})
		}
	case teams.EventAsked:
		o.notice(TeamNotice{Team: tm.Key, Task: e.Task, Kind: NoticeAskUser, Text: e.Actor + " asks: " + str("question")})
	case teams.EventAskReminder:
		o.notice(TeamNotice{Team: tm.Key, Task: e.Task, Kind: NoticeAskUser,
			Text: "Reminder: " + str("owner") + " still waits for your answer: " + str("question")})
	case teams.EventMessage:
		o.mailFor(tm, e)
	case teams.EventStale:
		o.note(tm.Key, e.Task, "stale")
		o.notice(TeamNotice{Team: tm.Key, Task: e.Task, Kind: NoticeStale, Text: str("reason")})
	}
}

func (o *teamOrch) note(team, task, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ls := o.lead(team)
	if len(ls.notes) == 0 {
		ls.due = time.Now().Add(o.opts.Debounce)
	}
	ls.notes = append(ls.notes, leadNote{task: task, text: text})
}

func (o *teamOrch) notice(n TeamNotice) {
	o.w.bus.Publish(events.Event{Topic: TopicTeamNotice, Payload: n, Time: time.Now()})
	if o.opts.Notifier == nil || n.Kind == NoticeRequestDone {
		return
	}
	// A notification is best effort (no desktop session, say): the notice
	// is on the bus and in the board either way.
	go func() {
		ctx, cancel := context.WithTimeout(o.w.life, 10*time.Second)
		defer cancel()
		title := fmt.Sprintf("Team %s: %s %s", n.Team, n.Task, strings.ReplaceAll(string(n.Kind), "_", " "))
		if err := o.opts.Notifier.Notify(ctx, title, n.Text); err != nil {
			o.w.log.Debug("teams: notification not shown", "err", err)
		}
	}()
}

// settled reports whether a task will not move without someone deciding:
// finished, stale, or blocked behind a failed or cancelled task.
func settled(t teams.Task, byID map[string]teams.Task) bool {
	if t.State.Finished() || t.State == teams.StateStale {
		return true
	}
	if t.State != teams.StateBlocked || t.Hold != teams.HoldNone {
		return false
	}
	for _, b := range t.BlockedBy {
		if bt, ok := byID[b]; ok && (bt.State == teams.StateFailed || bt.State == teams.StateCancelled) {
			return true
		}
	}
	return false
}

// flushLead hands due notes to the lead (into its running turn, or a new
// turn) and ends the request whose work is done.
func (o *teamOrch) flushLead(ctx context.Context, tm teams.Team, tasks []teams.Task) {
	byID := map[string]teams.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	ls := o.lead(tm.Key)
	// A member still writing its closing reply on a finished task is
	// not working on the request any more.
	working := false
	for k, r := range o.runs {
		working = working || k.team == tm.Key && r.task != "" && !byID[r.task].State.Finished()
	}
	req := ls.request
	allSettled := req != nil
	if req != nil {
		for id := range req.tasks {
			if t, ok := byID[id]; ok && !settled(t, byID) {
				allSettled = false
			}
		}
	}
	if len(ls.notes) > 0 {
		if wait := time.Until(ls.due); wait > 0 {
			if ls.timer == nil {
				ls.timer = time.AfterFunc(wait, func() {
					o.mu.Lock()
					ls.timer = nil
					o.mu.Unlock()
					o.poke(tm.Key)
				})
			}
			return
		}
		if tm.Settings.Paused && !ls.busy {
			return // a paused team starts no turn; the notes wait for the resume
		}
		// Only an idle lead is told the request is over: a running turn
		// may still create tasks.
		final := allSettled && !working && !ls.busy
		text := leadBatch(tm, ls.notes, byID, final)
		if ls.busy {
			if o.w.announcer.inbox.Deliver(ls.session, text) {
				ls.notes = nil
			}
			return // else its end pokes the loop and the notes start a turn
		}
		ls.notes = nil
		if final {
			req.finalAsked = true
		}
		o.startLeadTurn(ctx, tm, ls, text)
		return
	}
	if req == nil || !allSettled || working || ls.busy || req.turns == 0 {
		return
	}
	if len(req.tasks) > 0 && !req.finalAsked {
		// The last results reached a running turn: ask for the answer once
		// more, now that nothing can change.
		req.finalAsked = true
		var notes []leadNote
		for _, t := range tasks {
			if req.tasks[t.ID] {
				notes = append(notes, leadNote{task: t.ID, text: "final"})
			}
		}
		o.startLeadTurn(ctx, tm, ls, leadBatch(tm, notes, byID, true))
		return
	}
	o.finishRequest(ls, req, tasks)
}

// leadBatch is the prompt that hands results and blockers to the lead.
func leadBatch(tm teams.Team, notes []leadNote, byID map[string]teams.Task, final bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Team %s update]\n", tm.Key)
	seen := map[string]bool{}
	for _, n := range notes {
		t := byID[n.task]
		if seen[n.task+n.text] {
			continue
		}
		seen[n.task+n.text] = true
		switch {
		case n.task == "":
			fmt.Fprintf(&b, "- %s\n", n.text) // a team message to the lead
		case strings.HasPrefix(n.text, "blocker"):
			fmt.Fprintf(&b, "- %s (%s, %s): %s. Resolve it: retry with a note, reassign, change blocked_by or cancel.\n", t.ID, t.Subject, t.Owner, n.text)
		case t.State == teams.StateCompleted:
			fmt.Fprintf(&b, "- %s (%s) completed by %s. Result:\n%s\n", t.ID, t.Subject, t.Owner, indent(t.Result))
		case t.State == teams.StateInReview:
			fmt.Fprintf(&b, "- %s (%s) by %s waits for your review (approve or reject). Result:\n%s\n", t.ID, t.Subject, t.Owner, indent(t.Result))
		case t.State == teams.StateFailed || t.State == teams.StateCancelled || t.State == teams.StateStale:
			fmt.Fprintf(&b, "- %s (%s) is %s: %s. Its dependents wait: retry it, change their blocked_by or cancel them.\n", t.ID, t.Subject, t.State, t.Reason)
		}
	}
	if final {
		b.WriteString("\nEvery task of this request has finished. Write the final answer for the user now, from the results.\n")
	}
	return b.String()
}

func indent(s string) string {
	if strings.TrimSpace(s) == "" {
		return "  (no result text)"
	}
	return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ")
}

// startLeadTurn runs the lead in its session on a batch; o.mu is held.
func (o *teamOrch) startLeadTurn(ctx context.Context, tm teams.Team, ls *leadState, prompt string) {
	if ls.session == "" {
		s, err := o.session(ctx, tm, tm.Lead)
		if err != nil {
			o.w.log.Warn("teams: no session for the lead", "team", tm.Key, "err", err)
			return
		}
		ls.session = s
	}
	if err := o.w.teamWorkspace(tm.Workspace); err != nil {
		o.notice(TeamNotice{Team: tm.Key, Kind: NoticeLeadFailed, Session: ls.session,
			Text: "the lead's turn could not start (" + err.Error() + "); it was told:\n" + prompt})
		return
	}
	ls.busy = true
	session := ls.session
	var id string
	ready := make(chan struct{})
	req := RunRequest{Agent: tm.Lead, Session: session, Prompt: prompt, Workspace: tm.Workspace,
		promptKind: sessions.KindSubagentResults}
	failure := ""
	id = o.w.startRun(o.w.life, req, func(ev agent.Event) {
		<-ready
		if ev.Kind == agent.EventError {
			failure = ev.Error
		}
		o.w.publishSession(session, events.Event{Topic: TopicRunEvent, Payload: RunEvent{Run: id, Event: ev}})
	}, func() {
		<-ready
		if failure != "" && o.w.life.Err() == nil {
			// The lead is stuck itself: what it was told goes to the user,
			// so no blocker or result is silently dropped.
			o.notice(TeamNotice{Team: tm.Key, Kind: NoticeLeadFailed, Session: session,
				Text: "the lead's turn failed (" + failure + "); it was told:\n" + prompt})
		}
		o.leadTurnEnded(tm.Key, "")
	})
	close(ready)
}

// leadTurnEnded frees the lead and wakes the loop; failure is the error of
// a request's first turn, which ends the request.
func (o *teamOrch) leadTurnEnded(team, failure string) {
	o.mu.Lock()
	ls := o.lead(team)
	ls.busy = false
	if ls.request != nil {
		ls.request.turns++
		if failure != "" {
			ls.request.result.Error = failure
			o.finishRequest(ls, ls.request, nil)
		}
	}
	o.mu.Unlock()
	o.poke(team)
}
