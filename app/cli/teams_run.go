package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// teamsRun is `warren teams run TEAM "request"`: the request goes to the
// lead, whose answer streams to stdout; the team runs in this process
// until every task of the request has finished (the board's moves and the
// members' questions go to stderr). It exits 1 when a task did not complete.
func teamsRun(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("teams run", flag.ContinueOnError)
	approve := fs.String("approve", "", "answer approval requests: yes (allow once), always, or no")
	noWait := fs.Bool("no-wait", false, "exit after the lead's first turn; unfinished tasks are picked up by the next team loop (the window, or another teams run)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("teams run needs TEAM and a request, e.g. warren teams run research \"compare these three papers\"")
	}
	key, prompt := pos[0], strings.TrimSpace(strings.Join(pos[1:], " "))
	if prompt == "" {
		return usagef("teams run needs a request")
	}
	if *approve != "" {
		if _, err := approvals.ParseDecision(*approve); err != nil {
			return usagef("--approve: %v", err)
		}
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if _, err := w.Teams().GetTeam(ctx, key); err != nil {
		return boardErr(err)
	}
	stopApprovals := answerApprovals(ctx, env, w, *approve)
	defer stopApprovals()
	loopCtx, stopLoop := context.WithCancel(ctx)
	ready, loopDone := make(chan struct{}), make(chan error, 1)
	go func() { loopDone <- w.RunTeams(loopCtx, warren.TeamLoopOptions{Ready: func() { close(ready) }}) }()
	defer func() {
		stopLoop()
		if err := <-loopDone; err != nil {
			fmt.Fprintf(env.Stderr, "team loop: %v\n", err)
		}
	}()
	select {
	case <-ready:
	case err := <-loopDone:
		loopDone <- err
		return fmt.Errorf("team loop: %w", err)
	}
	out := &turnPrinter{env: env}
	var mu sync.Mutex // the first turn, the bus printer and these lines share out and stderr
	var session string
	stopWatch := watchTeam(w, key, func(ev events.Event) {
		mu.Lock()
		defer mu.Unlock()
		printTeamEvent(env, out, key, session, ev)
	})
	defer stopWatch()
	res, err := w.RunTeamRequest(ctx, warren.TeamRequest{Team: key, Prompt: prompt}, func(ev agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Kind == agent.EventSession {
			session = ev.Session
		}
		out.event(ev)
	})
	mu.Lock()
	out.endTurn()
	session = res.Session
	if err == nil {
		fmt.Fprintf(env.Stderr, "session %s\n", res.Session)
	}
	mu.Unlock()
	if err != nil {
		return err
	}
	if *noWait {
		return nil
	}
	result, err := w.WaitTeamRequest(ctx, res.Session)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted: the team's unfinished tasks stay on the board")
		}
		return err
	}
	mu.Lock()
	out.endTurn()
	fmt.Fprintf(env.Stderr, "%d task(s) finished\n", len(result.Tasks))
	mu.Unlock()
	if result.Error != "" {
		return fmt.Errorf("the request did not finish: %s", result.Error)
	}
	if len(result.Failed) > 0 {
		return fmt.Errorf("%w: %s", errTasksFailed, strings.Join(result.Failed, ", "))
	}
	return nil
}

// watchTeam hands the team's board events, notices and run events to on
// from one goroutine until the returned stop is called.
func watchTeam(w *warren.Warren, key string, on func(events.Event)) func() {
	sub, unsub := w.Bus().Subscribe(1024)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case ev := <-sub:
				on(ev)
			}
		}
	}()
	return func() { close(stop); <-done; unsub() }
}

// printTeamEvent shows the lead's later turns on stdout and the board's
// moves and notices on stderr.
func printTeamEvent(env Env, out *turnPrinter, key, session string, ev events.Event) {
	switch p := ev.Payload.(type) {
	case warren.RunEvent:
		if session != "" && p.Session == session {
			out.event(p.Event)
			if p.Kind == agent.EventDone || p.Kind == agent.EventError {
				out.endTurn()
			}
		}
	case teams.Event:
		if p.Team != key || p.Task == "" {
			return
		}
		switch p.Type {
		case teams.EventDispatched, teams.EventCompleted, teams.EventFailed, teams.EventCancelled, teams.EventBlockerRaise,
			teams.EventRetried, teams.EventReviewAsked, teams.EventApproved, teams.EventRejected, teams.EventStale:
			fmt.Fprintf(env.Stderr, "[%s] %s %s (%s)\n", key, p.Task, p.Type, p.Actor)
		}
	case warren.TeamNotice:
		if p.Team != key {
			return
		}
		switch p.Kind {
		case warren.NoticeAskUser:
			fmt.Fprintf(env.Stderr, "[%s] %s — answer with: warren teams answer %s %s \"…\"\n", key, p.Text, key, p.Task)
		case warren.NoticeRequestDone:
		default:
			fmt.Fprintf(env.Stderr, "[%s] %s %s: %s\n", key, p.Task, p.Kind, p.Text)
		}
	}
}
