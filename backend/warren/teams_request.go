package warren

import (
	"context"
	"errors"
	"fmt"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/teams"
)

// TeamRequest is a user's request to a team, addressed to its lead.
type TeamRequest struct {
	Team   string
	Prompt string
	// Session continues a chat with the lead; empty starts one. The final
	// answer is written there.
	Session string
}

// teamRequest is one user request to a team: the tasks created while it
// runs belong to it, and it is done when they all finished and the lead
// had the last word.
type teamRequest struct {
	team, session string
	tasks         map[string]bool
	turns         int // lead turns ended
	// finalAsked is set once the lead was asked for the final answer with
	// every task finished; a task created after that clears it.
	finalAsked bool
	done       chan struct{}
	result     TeamRequestResult
}

// TeamRequestResult is how a request ended.
type TeamRequestResult struct {
	Tasks  []teams.Task `json:"tasks"`
	Failed []string     `json:"failed,omitempty"` // ids of tasks that did not complete
	Error  string       `json:"error,omitempty"`  // the lead's first turn failed, or a newer request took over
}

// endTurn stops agent's running turn on task (cancel, blocker, question).
func (o *teamOrch) endTurn(team, agentKey, task string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if r := o.runs[memberKey{team, agentKey}]; r != nil && r.task == task && !r.ended {
		r.ended = true
		r.cancel()
	}
}

// beginRequest opens the request's chat and makes it the team's current
// request: tasks created from now on belong to it.
func (w *Warren) beginRequest(ctx context.Context, r TeamRequest) (*teamOrch, teams.Team, *teamRequest, error) {
	o := w.orchestrator()
	if o == nil {
		return nil, teams.Team{}, nil, ErrTeamsNotRunning
	}
	tm, err := w.teams.GetTeam(ctx, r.Team)
	if err != nil {
		return nil, teams.Team{}, nil, err
	}
	if err := w.teamWorkspace(tm.Workspace); err != nil {
		return nil, teams.Team{}, nil, err
	}
	if r.Session == "" {
		s, err := w.Sessions().Create(ctx, sessions.Session{Agent: tm.Lead, Title: "Team " + tm.Key + ": " + clipTitle(r.Prompt)})
		if err != nil {
			return nil, teams.Team{}, nil, err
		}
		r.Session = s.ID
	}
	req := &teamRequest{team: tm.Key, session: r.Session, tasks: map[string]bool{}, done: make(chan struct{})}
	o.mu.Lock()
	defer o.mu.Unlock()
	ls := o.lead(tm.Key)
	if ls.busy {
		return nil, teams.Team{}, nil, fmt.Errorf("the lead of team %s is busy with a turn; wait for it or send the request again", tm.Key)
	}
	if old := ls.request; old != nil {
		// The new request takes over the unfinished work of the one
		// before, whose waiters are told so.
		for id := range old.tasks {
			req.tasks[id] = true
		}
		old.result.Error = "superseded by a new request to the team (session " + req.session + ")"
		o.finishRequest(ls, old, nil)
	}
	ls.request, ls.session, ls.busy = req, r.Session, true
	for s, old := range o.requests {
		select {
		case <-old.done: // finished and nobody waited (the window does not)
			delete(o.requests, s)
		default:
		}
	}
	o.requests[r.Session] = req
	return o, tm, req, nil
}

func clipTitle(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// RunTeamRequest runs the lead's first turn on a user request, streaming
// it to on, and returns once that turn ends; the team works on after it
// (WaitTeamRequest waits for the end). RunTeams must be running.
func (w *Warren) RunTeamRequest(ctx context.Context, r TeamRequest, on func(agent.Event)) (agent.Result, error) {
	o, tm, req, err := w.beginRequest(ctx, r)
	if err != nil {
		return agent.Result{}, err
	}
	res, err := w.RunAgent(ctx, RunRequest{Agent: tm.Lead, Session: req.session, Prompt: r.Prompt, Workspace: tm.Workspace}, on)
	if res.Session == "" {
		res.Session = req.session
	}
	failure := ""
	if err != nil {
		failure = err.Error()
	}
	o.leadTurnEnded(tm.Key, failure)
	return res, err
}

// StartTeamRequest starts the lead's first turn on a user request in the
// background (the window's call) and returns the chat session; the turn's
// events are RunEvents on the bus for that session, and a TeamNotice of
// kind request_done says when every task of the request has finished.
func (w *Warren) StartTeamRequest(ctx context.Context, r TeamRequest) (string, error) {
	o, tm, req, err := w.beginRequest(ctx, r)
	if err != nil {
		return "", err
	}
	var id string
	ready := make(chan struct{})
	failure := ""
	id = w.startRun(w.life, RunRequest{Agent: tm.Lead, Session: req.session, Prompt: r.Prompt, Workspace: tm.Workspace},
		func(ev agent.Event) {
			<-ready
			if ev.Kind == agent.EventError {
				failure = ev.Error
			}
			w.publishSession(req.session, events.Event{Topic: TopicRunEvent, Payload: RunEvent{Run: id, Event: ev}})
		}, func() {
			<-ready
			o.leadTurnEnded(tm.Key, failure)
		})
	close(ready)
	return req.session, nil
}

// WaitTeamRequest waits until every task of the request started in
// session has finished and the lead wrote its answer, or ctx ends.
func (w *Warren) WaitTeamRequest(ctx context.Context, session string) (TeamRequestResult, error) {
	o := w.orchestrator()
	if o == nil {
		return TeamRequestResult{}, ErrTeamsNotRunning
	}
	o.mu.Lock()
	req := o.requests[session]
	o.mu.Unlock()
	if req == nil {
		return TeamRequestResult{}, errors.New("no team request in session " + session)
	}
	select {
	case <-ctx.Done():
		return TeamRequestResult{}, ctx.Err()
	case <-req.done:
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.requests, session)
	return req.result, nil
}

// finishRequest closes a request; o.mu is held.
func (o *teamOrch) finishRequest(ls *leadState, req *teamRequest, tasks []teams.Task) {
	for _, t := range tasks {
		if !req.tasks[t.ID] {
			continue
		}
		req.result.Tasks = append(req.result.Tasks, t)
		if t.State != teams.StateCompleted {
			req.result.Failed = append(req.result.Failed, t.ID)
		}
	}
	if ls.request == req {
		ls.request = nil
	}
	select {
	case <-req.done:
	default:
		close(req.done)
	}
	o.notice(TeamNotice{Team: req.team, Kind: NoticeRequestDone, Session: req.session,
		Text: fmt.Sprintf("request finished: %d task(s), %d not completed", len(req.result.Tasks), len(req.result.Failed))})
}
