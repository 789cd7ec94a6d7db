package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/policy/shell"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
)

// Shell runs shell commands after analysis and approval; exec and custom
// tools share it so both apply the same deny rules.
type Shell struct{ d Deps }

// NewShell returns a Shell over d.
func NewShell(d Deps) *Shell { return &Shell{d: d} }

// Prepared is a command that passed the static analysis.
type Prepared struct {
	req    sandbox.Request
	runner sandbox.Runner
}

// Command describes one shell command to prepare.
type Command struct {
	// Tool is the calling tool's name, shown in approvals.
	Tool    string
	Script  string
	Cwd     string
	Timeout int
	Env     map[string]string
}

// Run prepares and runs a command in the foreground.
func (s *Shell) Run(ctx context.Context, c Command) tools.Result {
	prep, bad := s.Prepare(ctx, c)
	if bad != nil {
		return *bad
	}
	res, err := prep.runner.Run(ctx, prep.req)
	if err != nil {
		return sandboxError(err)
	}
	return FormatRun(res, prep.req.Timeout)
}

// Prepare refuses a command the static analysis denies and picks the
// runner; the commands are judged (and, on the host, asked about) one by
// one as they run. An approval can never un-deny.
func (s *Shell) Prepare(ctx context.Context, c Command) (*Prepared, *tools.Result) {
	tool, command, cwd, timeoutSec := c.Tool, c.Script, c.Cwd, c.Timeout
	if strings.TrimSpace(command) == "" {
		r := tools.Errorf(tools.CodeValidation, "command is empty")
		return nil, &r
	}
	if timeoutSec < 0 || time.Duration(timeoutSec)*time.Second > maxTimeout {
		r := tools.Errorf(tools.CodeValidation, "timeout_seconds must be between 1 and %d", int(maxTimeout.Seconds()))
		return nil, &r
	}
	ws, dir, bad := workdir(ctx, s.d.Workspace, cwd)
	if bad != nil {
		return nil, bad
	}
	// The static analysis refuses what is certainly denied before anything
	// runs; every command is judged again, for real, as it runs.
	if a := shell.Analyze(command); a.Verdict == shell.Deny {
		r := tools.Errorf(tools.CodeSecurity, "blocked by safety policy: %s", strings.TrimPrefix(a.Summary(), "blocked: "))
		return nil, &r
	}
	cc := tools.CallContextFrom(ctx)
	runner, err := s.d.Runner(ctx, cc.Sandbox)
	if err != nil {
		r := sandboxError(err)
		return nil, &r
	}
	key := cc.SandboxKey
	if key == "" {
		key = "default"
	}
	return &Prepared{runner: runner, req: sandbox.Request{
		Script: command, Guard: s.hostJudge(ctx, tool, ws), Dir: dir, Workspace: ws, Env: c.Env,
		Timeout: time.Duration(timeoutSec) * time.Second, Key: key, Network: cc.Network,
	}}, nil
}

// FormatRun renders a finished command for the model and the user.
func FormatRun(res sandbox.Result, timeout time.Duration) tools.Result {
	var b strings.Builder
	fmt.Fprintf(&b, "exit code: %d\n%s\n", res.ExitCode, fmtWhere(res))
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	fmt.Fprintf(&b, "--- stdout ---\n%s", res.Stdout)
	if res.Stdout != "" && !strings.HasSuffix(res.Stdout, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "--- stderr ---\n%s", res.Stderr)
	if res.Stderr != "" && !strings.HasSuffix(res.Stderr, "\n") {
		b.WriteByte('\n')
	}
	if res.Truncated {
		fmt.Fprintf(&b, "[output truncated: each stream is capped at %d bytes]\n", sandbox.DefaultMaxOutput)
	}
	text := b.String()
	switch {
	case res.Refused != "":
		// What ran before the refusal stays in the output; nothing after it ran.
		code := tools.CodePermission
		if strings.Contains(res.Refused, "blocked by safety policy") {
			code = tools.CodeSecurity
		}
		r := tools.Errorf(code, "stopped at run time: %s", res.Refused)
		r.ForLLM += "\n" + text
		r.ForUser += "\n" + text
		return r
	case res.TimedOut:
		r := tools.Errorf(tools.CodeTimeout, "command timed out and was killed (limit %s)", timeoutText(timeout))
		r.ForLLM += "\n" + text
		r.ForUser += "\n" + text
		return r
	case res.ExitCode != 0:
		r := tools.Errorf(tools.CodeExecution, "command exited with code %d", res.ExitCode)
		r.ForLLM += "\n" + text
		r.ForUser += "\n" + text
		return r
	}
	return tools.Text(text)
}

func timeoutText(d time.Duration) string {
	if d <= 0 {
		return "the default"
	}
	return d.String()
}
