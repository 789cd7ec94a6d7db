package warren

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/tools/messaging"
)

// TopicTeamNotice carries a TeamNotice: something on a team the user must
// see or answer (a question, a blocker escalated to them, a stale task, a
// request that finished).
const TopicTeamNotice events.Topic = "team.notice"

// NoticeKind says what a TeamNotice is about.
type NoticeKind string

// Notice kinds.
const (
	NoticeAskUser     NoticeKind = "ask_user"
	NoticeBlocker     NoticeKind = "blocker"
	NoticeStale       NoticeKind = "stale"
	NoticeFailed      NoticeKind = "failed"
	NoticeRequestDone NoticeKind = "request_done"
	// NoticeLeadFailed: a lead turn on results or blockers failed; the
	// notice carries what the lead was told.
	NoticeLeadFailed NoticeKind = "lead_failed"
)

// TeamNotice is one notice for the user.
type TeamNotice struct {
	Team string     `json:"team"`
	Task string     `json:"task,omitempty"`
	Kind NoticeKind `json:"kind"`
	Text string     `json:"text"`
	// Session is the chat of the request a request_done notice is about.
	Session string `json:"session,omitempty"`
}

// TeamLoopOptions tune RunTeams; zero values mean the defaults.
type TeamLoopOptions struct {
	// Heartbeat is how often a working member's task is marked alive; a
	// task in progress without a heartbeat for longer is an orphan and is
	// dispatched again. Default 10 s.
	Heartbeat time.Duration
	// Debounce is how long finished tasks wait for others before they go
	// to the lead in one turn. Default 1 s.
	Debounce time.Duration
	// Ready, when set, is called once the loop accepts requests.
	Ready func()
	// Notifier, when set, shows the user's notices (questions, blockers
	// for the user, stale tasks) as OS notifications too; the window
	// passes messaging.NewDesktopNotifier.
	Notifier messaging.Notifier
}

func (o TeamLoopOptions) withDefaults() TeamLoopOptions {
	if o.Heartbeat <= 0 {
		o.Heartbeat = 10 * time.Second
	}
	if o.Debounce <= 0 {
		o.Debounce = time.Second
	}
	return o
}

// memberKey is one member on one team: it works on one task at a time.
type memberKey struct{ team, agent string }

// memberRun is a member's running turn on a task.
type memberRun struct {
	task   string // "" for a turn on mail alone
	runID  string
	cancel func()
	// ended is set when Warren ended the turn because the board moved on
	// (cancel, blocker, question): its end must not complete or fail the task.
	ended bool
}

// teamOrch runs teams: it starts members on ready tasks, hands results to
// the lead and keeps tasks from getting stuck. One goroutine (loop) makes
// every board decision; member and lead turns run beside it and wake it.
type teamOrch struct {
	w    *Warren
	opts TeamLoopOptions
	wake chan string

	// sessMu guards sessions alone: the lead's session is looked up with mu held.
	sessMu   sync.Mutex
	sessions map[memberKey]string

	mu       sync.Mutex
	runs     map[memberKey]*memberRun
	cursors  map[string]int64
	leads    map[string]*leadState
	requests map[string]*teamRequest // by chat session
	// mail marks agents with team messages to hand over; heldMail keeps
	// what reached a member's turn as it ended, for its next turn.
	mail     map[memberKey]bool
	heldMail map[memberKey][]string
}

// ErrTeamsNotRunning is returned when team orchestration is needed but no
// RunTeams loop runs in this process.
var ErrTeamsNotRunning = errors.New("team orchestration is not running in this process")

// RunTeams orchestrates every team until ctx ends: the window starts it
// (like RunScheduler) and so does `warren teams run`. Only one loop runs
// per Warren; a second call returns an error.
func (w *Warren) RunTeams(ctx context.Context, opts TeamLoopOptions) error {
	o := &teamOrch{w: w, opts: opts.withDefaults(), wake: make(chan string, 256),
		runs: map[memberKey]*memberRun{}, sessions: map[memberKey]string{}, cursors: map[string]int64{},
		leads: map[string]*leadState{}, requests: map[string]*teamRequest{},
		mail: map[memberKey]bool{}, heldMail: map[memberKey][]string{}}
	w.orchMu.Lock()
	if w.orch != nil {
		w.orchMu.Unlock()
		return errors.New("teams: orchestration already runs")
	}
	w.orch = o
	w.orchMu.Unlock()
	defer func() {
		w.orchMu.Lock()
		w.orch = nil
		w.orchMu.Unlock()
		o.stopAll()
	}()
	return o.loop(ctx)
}

// orchestrator returns the running loop, or nil.
func (w *Warren) orchestrator() *teamOrch {
	w.orchMu.Lock()
	defer w.orchMu.Unlock()
	return w.orch
}

// loop wakes on board events (this process's bus), on turns ending and on
// a tick (changes other processes made, heartbeats, timeouts, staleness).
func (o *teamOrch) loop(ctx context.Context) error {
	sub, unsub := o.w.bus.Subscribe(1024)
	defer unsub()
	if err := o.startCursors(ctx); err != nil {
		return err
	}
	// Ready once the cursors are set: what happens from now on is seen.
	if o.opts.Ready != nil {
		o.opts.Ready()
	}
	o.sweep(ctx)
	tick := time.NewTicker(o.opts.Heartbeat / 2)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-sub:
			if e, ok := ev.Payload.(teams.Event); ok && ev.Topic == TopicTeam && e.Team != "" {
				o.process(ctx, e.Team)
			}
		case team := <-o.wake:
			o.process(ctx, team)
		case <-tick.C:
			o.sweep(ctx)
		}
	}
}

// poke asks the loop to look at a team again; it never blocks (the tick
// catches up with a wake-up the full channel dropped).
func (o *teamOrch) poke(team string) {
	select {
	case o.wake <- team:
	default:
	}
}

// startCursors skips the audit trail written before the loop started: old
// events were handled by whoever ran then, and the sweep recovers the rest.
func (o *teamOrch) startCursors(ctx context.Context) error {
	ts, err := o.w.teams.ListTeams(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		last, err := o.lastEventID(ctx, t.Key)
		if err != nil {
			return err
		}
		o.cursors[t.Key] = last
	}
	return nil
}

func (o *teamOrch) lastEventID(ctx context.Context, team string) (int64, error) {
	var id int64
	err := o.w.db.SQL().QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM team_events WHERE team = ?", team).Scan(&id)
	return id, err
}

// sweep is the periodic pass: overdue tasks fail, orphans are dispatched
// again, stale tasks are marked, unanswered questions are repeated, then
// every team is processed.
func (o *teamOrch) sweep(ctx context.Context) {
	st := o.w.teams
	if over, err := st.Overdue(ctx); err == nil {
		for _, t := range over {
			_, err := st.Fail(ctx, teams.Call{Team: t.Team, Task: t.ID, By: teams.System()},
				"timed out: still in progress after the team's task timeout; retry it, split it or give it more time")
			o.logErr("fail overdue task", t, err)
		}
	}
	if orphans, err := st.Orphans(ctx, o.opts.Heartbeat); err == nil {
		for _, t := range orphans {
			// A task its owner claimed during a turn on another task has
			// no run of its own: it is dispatched once that turn ends.
			if !o.busy(t.Team, t.Owner) {
				o.dispatch(ctx, t.Team, t)
			}
		}
	}
	if stale, err := st.StaleCandidates(ctx); err == nil {
		for _, t := range stale {
			_, err := st.MarkStale(ctx, t.Team, t.ID)
			o.logErr("mark stale", t, err)
		}
	}
	if asks, err := st.ReminderCandidates(ctx); err == nil {
		for _, t := range asks {
			_, err := st.RemindAsk(ctx, t.Team, t.ID)
			o.logErr("remind of a question", t, err)
		}
	}
	ts, err := st.ListTeams(ctx)
	if err != nil {
		return
	}
	for _, t := range ts {
		// Mail that came while no loop ran (or before this one started).
		if who, err := st.UnreadRecipients(ctx, t.Key); err == nil {
			o.mu.Lock()
			for _, a := range who {
				o.mail[memberKey{t.Key, a}] = true
			}
			o.mu.Unlock()
		}
		o.process(ctx, t.Key)
	}
}

func (o *teamOrch) logErr(what string, t teams.Task, err error) {
	if err != nil && !errors.Is(err, context.Canceled) {
		o.w.log.Warn("teams: "+what, "team", t.Team, "task", t.ID, "err", err)
	}
}

// busy reports whether this process runs a turn of agent on the team.
func (o *teamOrch) busy(team, agent string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.runs[memberKey{team, agent}] != nil
}

// stopAll ends every member turn when the loop stops.
func (o *teamOrch) stopAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range o.runs {
		r.ended = true
		r.cancel()
	}
}

// process reads the team's new audit events (turning them into notes for
// the lead and notices for the user), ends turns the board took away,
// starts ready tasks, hands over mail and finishes requests whose work is
// done.
func (o *teamOrch) process(ctx context.Context, team string) {
	tm, err := o.w.teams.GetTeam(ctx, team)
	if err != nil {
		return
	}
	// List, then read the events after the cursor; repeat while events
	// came in, so the list reflects every event handled (an event commits
	// with its change) and a decision never rests on a board older than
	// the notes.
	var tasks []teams.Task
	for range 10 {
		page, err := o.w.teams.List(ctx, teams.Call{Team: team, By: teams.System()}, teams.ListFilter{Limit: 100000})
		if err != nil {
			return
		}
		tasks = page.Tasks
		evs, err := o.w.teams.Events(ctx, teams.Call{Team: team, By: teams.System()},
			teams.EventFilter{AfterID: o.cursors[team], Limit: 1000})
		if err != nil {
			return
		}
		for _, e := range evs {
			o.cursors[team] = e.ID
			o.handleEvent(ctx, tm, e)
		}
		if len(evs) == 0 {
			break
		}
	}
	o.endLostTurns(tm, tasks)
	o.pump(ctx, tm, tasks)
	o.deliverMail(ctx, tm, tasks)
	o.flushLead(ctx, tm, tasks)
}
