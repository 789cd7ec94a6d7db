package script

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/warren-dev/warren/policy/guard"
	"github.com/warren-dev/warren/policy/shell"
)

// Question is a command or open the policy wants a human to decide.
type Question struct {
	// Exec is the program about to run; nil for an open.
	Exec *Exec
	// Dir and Path name the file an open is for.
	Dir, Path string
	Write     bool
	Verdict   guard.Verdict
}

// Judge is the Guard of Warren's policy: Deny refuses, Ask calls Ask (which
// returns nil to let it run); with no Ask, asking refuses.
type Judge struct {
	Policy *guard.Guard
	Ask    func(ctx context.Context, q Question) error
}

// Exec implements Guard.
func (j Judge) Exec(ctx context.Context, e Exec) error {
	v := j.Policy.Command(guard.Command{Argv: e.Argv, Dir: e.Dir, Env: e.Changed, Path: e.Path})
	return j.decide(ctx, v, Question{Exec: &e, Verdict: v})
}

// Open implements Guard.
func (j Judge) Open(ctx context.Context, dir, path string, flag int) error {
	write := flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0
	v := j.Policy.Open(dir, path, write)
	return j.decide(ctx, v, Question{Dir: dir, Path: path, Write: write, Verdict: v})
}

// Source implements SourceGuard: a script a shell is about to run is read
// whole first, so what only shows in the whole (a fork bomb's function
// calling itself in the background, which would run as goroutines in this
// process) is refused before any of it runs.
func (j Judge) Source(_ context.Context, name string, src []byte) error {
	if a := shell.Analyze(string(src)); a.Verdict == shell.Deny {
		return errors.New("blocked by safety policy: " + strings.TrimPrefix(a.Summary(), "blocked: "))
	}
	return nil
}

func (j Judge) decide(ctx context.Context, v guard.Verdict, q Question) error {
	switch v.Decision {
	case guard.Allow:
		return nil
	case guard.Deny:
		return errors.New("blocked by safety policy: " + v.Reason)
	}
	if j.Ask == nil {
		return errors.New("needs approval: " + v.Reason)
	}
	return j.Ask(ctx, q)
}
