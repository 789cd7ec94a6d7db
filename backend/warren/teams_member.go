package warren

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/teams"
)

// endLostTurns cancels member turns whose task the board took away
// (cancelled, reassigned, paused by a blocker or a question, failed): a
// turn started by another path than a tool the member called itself.
func (o *teamOrch) endLostTurns(tm teams.Team, tasks []teams.Task) {
	byID := map[string]teams.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for k, r := range o.runs {
		if k.team != tm.Key || r.ended || r.task == "" {
			continue
		}
		t, ok := byID[r.task]
		// A member that completed its task (or sent it to review) may
		// still be writing its closing reply: let it finish.
		doneByOwner := (t.State == teams.StateCompleted || t.State == teams.StateInReview) && t.Owner == k.agent
		if !ok || !doneByOwner && (t.State != teams.StateInProgress || t.Owner != k.agent) {
			r.ended = true
			r.cancel()
		}
	}
}

// pump starts ready tasks: each pending task with an idle owner, highest
// priority first, while the team has room (max_working). An unassigned
// pending task goes to an idle member with nothing else to do, so work
// never waits on a lead that forgot to assign it.
func (o *teamOrch) pump(ctx context.Context, tm teams.Team, tasks []teams.Task) {
	if tm.Settings.Paused {
		return // the user is planning, or stopped new work
	}
	busy := map[string]bool{}
	working := 0
	o.mu.Lock()
	for k := range o.runs {
		if k.team == tm.Key {
			busy[k.agent] = true
			working++
		}
	}
	o.mu.Unlock()
	queued := map[string]bool{} // agents with a pending task of their own
	for _, t := range tasks {
		if t.State == teams.StateInProgress {
			busy[t.Owner] = true // running in another process, or an orphan the sweep handles
		}
		if t.State == teams.StatePending && t.Owner != "" {
			queued[t.Owner] = true
		}
	}
	for _, t := range tasks {
		if t.State != teams.StatePending || t.Hold != teams.HoldNone {
			continue
		}
		if tm.Settings.MaxWorking > 0 && working >= tm.Settings.MaxWorking {
			return
		}
		if t.Owner == "" {
			t.Owner = idleMember(tm, busy, queued)
			if t.Owner == "" {
				continue
			}
			out, err := o.w.teams.Assign(ctx, teams.Call{Team: tm.Key, Task: t.ID, By: teams.System()}, t.Owner)
			if err != nil {
				o.logErr("assign", t, err)
				continue
			}
			t = out.Task
			queued[t.Owner] = true
		}
		if busy[t.Owner] {
			continue
		}
		if o.dispatch(ctx, tm.Key, t) {
			busy[t.Owner] = true
			working++
		}
	}
}

func idleMember(tm teams.Team, busy, queued map[string]bool) string {
	for _, m := range tm.Members {
		if !busy[m.Agent] && !queued[m.Agent] {
			return m.Agent
		}
	}
	return ""
}

// dispatch marks the task dispatched and starts its owner's turn; false
// when it did not start (the task moved on, or hit max dispatches).
func (o *teamOrch) dispatch(ctx context.Context, team string, t teams.Task) bool {
	st := o.w.teams
	// The board may have moved since it was listed (another process's
	// loop, say): dispatch only what is still as it was read.
	cur, err := st.Get(ctx, teams.Call{Team: team, Task: t.ID, By: teams.System()})
	if err != nil || cur.Task.State != t.State || cur.Task.DispatchCount != t.DispatchCount ||
		!cur.Task.HeartbeatAt.Equal(t.HeartbeatAt) {
		return false
	}
	out, err := st.MarkDispatched(ctx, team, t.ID)
	if err != nil {
		o.logErr("dispatch", t, err)
		return false
	}
	if out.Task.State != teams.StateInProgress {
		return false // failed after too many dispatches: its event tells the lead
	}
	if out.Task.DispatchCount != t.DispatchCount+1 {
		// Another process's loop (the window and `warren teams run`)
		// dispatched it since this one read the board: that one runs it.
		return false
	}
	tm, err := st.GetTeam(ctx, team)
	if err != nil {
		return false
	}
	d, err := st.Get(ctx, teams.Call{Team: team, Task: t.ID, By: teams.System()})
	if err != nil {
		return false
	}
	owner := out.Task.Owner
	sess, err := o.session(ctx, tm, owner)
	if err != nil {
		_, _ = st.Fail(ctx, teams.Call{Team: team, Task: t.ID, By: teams.System()}, "could not open the member's session: "+err.Error())
		return false
	}
	if err := o.w.teamWorkspace(tm.Workspace); err != nil {
		_, _ = st.Fail(ctx, teams.Call{Team: team, Task: t.ID, By: teams.System()}, err.Error())
		return false
	}
	k := memberKey{team, owner}
	r := &memberRun{task: t.ID}
	hbCtx, stopHB := context.WithCancel(o.w.life)
	var final, failure string
	ready := make(chan struct{})
	req := RunRequest{Agent: owner, Session: sess, Prompt: o.w.dispatchPrompt(ctx, tm, d), Workspace: tm.Workspace}
	o.mu.Lock()
	o.runs[k] = r
	o.mu.Unlock()
	r.runID = o.w.startRun(o.w.life, req, func(ev agent.Event) {
		<-ready
		switch ev.Kind {
		case agent.EventDone:
			final = ev.Text
		case agent.EventError:
			failure = ev.Error
		}
		o.w.publishSession(sess, events.Event{Topic: TopicRunEvent, Payload: RunEvent{Run: r.runID, Event: ev}})
	}, func() {
		<-ready
		stopHB()
		o.finishTurn(k, r, final, failure)
	})
	r.cancel = func() { o.w.StopRun(r.runID) }
	close(ready)
	go o.heartbeat(hbCtx, team, t.ID)
	return true
}

// heartbeat keeps the task alive on the board while its turn runs.
func (o *teamOrch) heartbeat(ctx context.Context, team, task string) {
	tick := time.NewTicker(o.opts.Heartbeat / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			_ = o.w.teams.Heartbeat(ctx, team, task)
		}
	}
}

// finishTurn settles a member's task when its turn ends: a turn that did
// not complete its task completes it with its final reply (local models
// often forget the tool), a failed turn fails it with the reason.
func (o *teamOrch) finishTurn(k memberKey, r *memberRun, final, failure string) {
	// The run leaves the map only once its task is settled: until then
	// the sweep must not take the task for an orphan and dispatch it again.
	defer func() {
		o.mu.Lock()
		if o.runs[k] == r {
			delete(o.runs, k)
		}
		o.mu.Unlock()
		o.poke(k.team)
	}()
	o.mu.Lock()
	ended := r.ended
	o.mu.Unlock()
	if ended || r.task == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(o.w.life), 10*time.Second)
	defer cancel()
	st := o.w.teams
	d, err := st.Get(ctx, teams.Call{Team: k.team, Task: r.task, By: teams.System()})
	if err != nil {
		return
	}
	t := d.Task
	// Only state and owner are checked, not which dispatch this was: when
	// two processes' loops both started it, the first to finish settles it.
	if t.State != teams.StateInProgress || t.Owner != k.agent {
		return // the member finished it with a tool, or the board moved on
	}
	if o.w.life.Err() != nil {
		return // Warren is closing: the task is an orphan for the next start
	}
	c := teams.Call{Team: k.team, Task: r.task, By: teams.Actor{Kind: teams.ActorMember, Name: k.agent}}
	final = strings.TrimSpace(final)
	switch {
	case failure != "":
		_, err = st.Fail(ctx, teams.Call{Team: k.team, Task: r.task, By: teams.System()}, "the member's turn failed: "+failure)
	case final == "":
		_, err = st.Fail(ctx, teams.Call{Team: k.team, Task: r.task, By: teams.System()},
			"the member's turn ended with no result and without completing the task")
	case t.RequireApproval:
		_, err = st.Review(ctx, c, final)
	default:
		_, err = st.Complete(ctx, c, final)
	}
	o.logErr("settle task after the turn", t, err)
}

// session returns the member's session for the team, one per member per
// team, found again after a restart by its title.
func (o *teamOrch) session(ctx context.Context, tm teams.Team, agentKey string) (string, error) {
	k := memberKey{tm.Key, agentKey}
	o.sessMu.Lock()
	id := o.sessions[k]
	o.sessMu.Unlock()
	if id != "" {
		return id, nil
	}
	title := fmt.Sprintf("Team %s · %s", tm.Key, agentKey)
	ss := o.w.Sessions()
	list, err := ss.List(ctx, agentKey, 500)
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Title == title {
			id = s.ID
		}
	}
	if id == "" {
		s, err := ss.Create(ctx, sessions.Session{Agent: agentKey, Title: title})
		if err != nil {
			return "", err
		}
		id = s.ID
	}
	o.sessMu.Lock()
	o.sessions[k] = id
	o.sessMu.Unlock()
	return id, nil
}
