package warren

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/teams"
)

// mailFor notes that a message event's recipients have mail: deliverMail
// hands it over on this pass.
func (o *teamOrch) mailFor(tm teams.Team, e teams.Event) {
	var data struct {
		To []string `json:"to"`
	}
	_ = json.Unmarshal(e.Data, &data)
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, a := range data.To {
		o.mail[memberKey{tm.Key, a}] = true
	}
}

// deliverMail puts unread team messages into their recipients' context:
// into the turn a member is running here, as a turn of its own when the
// member is idle (a message wakes it), and as a note in the lead's next
// batch. A member working in another process gets its mail from that
// process's loop; a paused team wakes no one until it resumes.
func (o *teamOrch) deliverMail(ctx context.Context, tm teams.Team, tasks []teams.Task) {
	elsewhere := map[string]bool{}
	for _, t := range tasks {
		if t.State == teams.StateInProgress {
			elsewhere[t.Owner] = true
		}
	}
	o.mu.Lock()
	var who []string
	for k := range o.mail {
		if k.team == tm.Key {
			who = append(who, k.agent)
		}
	}
	o.mu.Unlock()
	for _, agentKey := range who {
		k := memberKey{tm.Key, agentKey}
		o.mu.Lock()
		run := o.runs[k]
		if run == nil && agentKey != tm.Lead && (elsewhere[agentKey] || tm.Settings.Paused) {
			if elsewhere[agentKey] {
				delete(o.mail, k) // the loop that runs its turn hands it over
			}
			o.mu.Unlock()
			continue
		}
		delete(o.mail, k)
		held := o.heldMail[k]
		delete(o.heldMail, k)
		o.mu.Unlock()
		msgs, err := o.w.teams.Read(ctx, teams.Call{Team: tm.Key, By: teams.Actor{Kind: teams.ActorMember, Name: agentKey}})
		if err != nil {
			o.w.log.Warn("teams: read mail", "team", tm.Key, "agent", agentKey, "err", err)
		}
		texts := append(held, mailLines(tm, msgs)...)
		if len(texts) == 0 {
			continue
		}
		if agentKey == tm.Lead {
			for _, text := range texts {
				o.note(tm.Key, "", text)
			}
			continue
		}
		text := strings.Join(texts, "\n")
		if run != nil {
			if sess, err := o.session(ctx, tm, agentKey); err == nil && o.w.announcer.inbox.Deliver(sess, text) {
				continue
			}
			// Its turn is ending: the mail waits for the next pass, when
			// the member is idle and a turn of its own starts.
			o.mu.Lock()
			o.heldMail[k] = append(o.heldMail[k], texts...)
			o.mail[k] = true
			o.mu.Unlock()
			continue
		}
		o.startMailTurn(ctx, tm, agentKey, text+"\n\nAnswer with team_message send if the sender needs a reply; "+
			"use team_tasks for any work the message asks for.")
	}
}

// mailLines formats messages as their recipient reads them.
func mailLines(tm teams.Team, msgs []teams.Message) []string {
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		kind := "message"
		if m.Broadcast {
			kind = "broadcast"
		}
		from := m.From
		switch {
		case m.FromKind == teams.RecordUser:
			from = "the user"
		case m.FromKind == teams.RecordSystem:
			from = "Warren"
		case m.From == tm.Lead:
			from = "lead " + m.From
		}
		out = append(out, fmt.Sprintf("[Team %s from %s] %s", kind, from, m.Text))
	}
	return out
}

// startMailTurn runs an idle member on its mail: a turn with no task of
// its own, which occupies the member until it ends (no task is dispatched
// to it meanwhile).
func (o *teamOrch) startMailTurn(ctx context.Context, tm teams.Team, agentKey, prompt string) {
	sess, err := o.session(ctx, tm, agentKey)
	if err != nil {
		o.w.log.Warn("teams: no session for mail", "team", tm.Key, "agent", agentKey, "err", err)
		return
	}
	if err := o.w.teamWorkspace(tm.Workspace); err != nil {
		o.w.log.Warn("teams: mail turn", "team", tm.Key, "agent", agentKey, "err", err)
		return
	}
	k := memberKey{tm.Key, agentKey}
	r := &memberRun{}
	ready := make(chan struct{})
	o.mu.Lock()
	o.runs[k] = r
	o.mu.Unlock()
	req := RunRequest{Agent: agentKey, Session: sess, Prompt: prompt, Workspace: tm.Workspace}
	r.runID = o.w.startRun(o.w.life, req, func(ev agent.Event) {
		<-ready
		o.w.publishSession(sess, events.Event{Topic: TopicRunEvent, Payload: RunEvent{Run: r.runID, Event: ev}})
	}, func() {
		<-ready
		o.finishTurn(k, r, "", "")
	})
	r.cancel = func() { o.w.StopRun(r.runID) }
	close(ready)
}
