package runner

import (
	"context"
	"errors"
	"time"

	"github.com/warren-dev/warren/policy/guard"
	"github.com/warren-dev/warren/sandbox/script"
)

// runScript runs req.Script with Warren's interpreter and the sandbox
// policy: the deny categories are refused, everything else runs (the
// container is the boundary). Output flows through the same pumps as a
// plain command; when the script ends, times out or the client hangs up,
// every program it started is killed.
func runScript(ctx context.Context, req ExecRequest, w *frameWriter, hangup <-chan struct{}, grace time.Duration) Exit {
	st, err := openStreams()
	if err != nil {
		return Exit{Code: -1, Error: err.Error()}
	}
	st.pump(req.MaxOutput, w)

	ws := req.Workspace
	if ws == "" {
		ws = "/workspace"
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := script.Run(sctx, script.Options{
			Script: req.Script, Dir: req.Dir, Env: req.Env, Stdout: st.outW, Stderr: st.errW,
			Guard: script.Judge{Policy: guard.New(guard.Options{Mode: guard.Sandbox, Workspace: ws})},
		})
		done <- result{code, err}
	}()
	var deadline <-chan time.Time
	if req.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(req.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		deadline = t.C
	}
	var res result
	finished, timedOut := false, false
	select {
	case res = <-done:
		finished = true
	case <-deadline:
		timedOut = true
	case <-hangup:
	case <-ctx.Done():
	}
	cancel() // kills every program still running, background ones too
	if !finished {
		select {
		case res = <-done:
		case <-time.After(grace):
			res = result{code: -1, err: context.Canceled}
		}
	}
	st.closeWriters()
	st.drain(grace)

	exit := Exit{Code: res.code, TimedOut: timedOut, Truncated: st.truncated.Load()}
	var refused *script.Refused
	switch {
	case timedOut:
		exit.Code = -1
	case errors.As(res.err, &refused):
		exit.Refused = refused.Error()
	case res.err != nil && !errors.Is(res.err, context.Canceled):
		exit.Error = res.err.Error()
	}
	return exit
}
