package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

// runAgent is `warren run`: one agent turn, the reply streamed to stdout and
// tool activity to stderr. Unless --no-wait, it then waits for the
// session's background subagents and streams the turns that answer their
// results the same way.
func runAgent(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	agentKey := fs.String("agent", "default", "agent to run")
	session := fs.String("session", "", "continue this session (default: a new one)")
	baseURL := fs.String("base-url", "", "OpenAI-compatible endpoint for this run, e.g. http://127.0.0.1:11434/v1")
	model := fs.String("model", "", "model name for this run")
	workspace := fs.String("workspace", "", "workspace directory")
	approve := fs.String("approve", "", "answer approval requests: yes (allow once), always, or no")
	emulate := fs.Bool("emulate-tools", false, "describe tools in the prompt and parse calls from the reply (models without tool calling)")
	noWait := fs.Bool("no-wait", false, "exit when the turn ends, cancelling background subagents instead of waiting for their results")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	prompt := strings.TrimSpace(strings.Join(pos, " "))
	if prompt == "" {
		return usagef("give a prompt, e.g. warren run \"summarise README.md\"")
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
	if isTerminal(env.Stdin) {
		defer w.AttachElicitationUI()() // servers' questions are asked on the terminal
	}
	stop := answerApprovals(ctx, env, w, *approve)
	defer stop()
	out := &turnPrinter{env: env}
	res, err := w.RunAgent(ctx, warren.RunRequest{
		Agent: *agentKey, Session: *session, Prompt: prompt, BaseURL: *baseURL, Model: *model, Workspace: *workspace, EmulateTools: *emulate,
	}, out.event)
	out.endTurn()
	if res.Session == "" {
		return err
	}
	fmt.Fprintf(env.Stderr, "session %s · %d model call(s) · %d+%d tokens\n", res.Session, res.Iterations,
		res.Usage.PromptTokens, res.Usage.CompletionTokens)
	if err != nil || *noWait {
		if ids := stopFollowUps(ctx, w, res.Session); len(ids) > 0 {
			fmt.Fprintf(env.Stderr, "cancelled %s\n", subagentList(ids))
		}
		return err
	}
	return waitFollowUps(ctx, w, res.Session, out)
}

// waitFollowUps waits until the session is quiet, streaming the turns that
// answer subagent results like the first one.
func waitFollowUps(ctx context.Context, w *warren.Warren, session string, out *turnPrinter) error {
	stderr := out.env.Stderr
	err := w.WaitSessionQuiet(ctx, session, func(ev events.Event) {
		switch p := ev.Payload.(type) {
		case warren.SessionWaiting:
			if len(p.Running) == 0 {
				fmt.Fprintln(stderr, "waiting for subagent results — Ctrl-C to stop")
				return
			}
			ids := make([]string, len(p.Running))
			for i, t := range p.Running {
				ids[i] = t.ID
			}
			fmt.Fprintf(stderr, "waiting for %s — Ctrl-C to stop\n", subagentList(ids))
		case agent.Task:
			if ev.Topic == warren.TopicSubagentDone && p.Background {
				fmt.Fprintf(stderr, "subagent %s %s\n", p.ID, p.Status)
			}
		case warren.Announcement:
			if p.Run != "" {
				fmt.Fprintf(stderr, "answering the results of %d subagent(s) (%s)\n", len(p.Tasks), p.Run)
			}
		case warren.RunEvent:
			out.event(p.Event)
			if p.Kind == agent.EventDone || p.Kind == agent.EventError {
				out.endTurn()
			}
			if p.Kind == agent.EventDone && p.Usage != nil {
				fmt.Fprintf(stderr, "session %s · follow-up turn · %d+%d tokens\n", session, p.Usage.PromptTokens, p.Usage.CompletionTokens)
			}
		}
	})
	if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
		if ids := stopFollowUps(ctx, w, session); len(ids) > 0 {
			return fmt.Errorf("interrupted while waiting: cancelled %s", subagentList(ids))
		}
		return errors.New("interrupted while waiting for subagent results")
	}
	return err
}

// stopFollowUps cancels the session's background work, even when ctx is
// already cancelled (Ctrl-C), and returns the cancelled subagents.
func stopFollowUps(ctx context.Context, w *warren.Warren, session string) []string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	ids, _ := w.StopFollowUps(ctx, session) // closing the core cancels whatever this missed
	return ids
}

// subagentList reads like "2 subagents (sub-1, sub-2)".
func subagentList(ids []string) string {
	if len(ids) == 1 {
		return "1 subagent (" + ids[0] + ")"
	}
	return fmt.Sprintf("%d subagents (%s)", len(ids), strings.Join(ids, ", "))
}

// turnPrinter shows turns the way `warren run` does: the reply on stdout,
// tool activity on stderr.
type turnPrinter struct {
	env       Env
	wroteText bool
	// progress shows MCP tools' progress on stderr (set lazily).
	progress     tools.ProgressFunc
	progressDone func()
}

func (p *turnPrinter) event(ev agent.Event) {
	switch ev.Kind {
	case agent.EventText:
		fmt.Fprint(p.env.Stdout, ev.Text)
		p.wroteText = true
	case agent.EventToolStart:
		fmt.Fprintf(p.env.Stderr, "→ %s %s\n", ev.Tool, tools.OneLine(ev.Args, 200))
	case agent.EventNotice:
		fmt.Fprintf(p.env.Stderr, "· %s\n", ev.Text)
	case agent.EventToolProgress:
		if p.progress == nil {
			p.progress, p.progressDone = progressPrinter(p.env.Stderr)
		}
		p.progress(ev.Progress, ev.Total, ev.Text)
	case agent.EventToolEnd:
		if p.progressDone != nil {
			p.progressDone()
		}
		status := "ok"
		if ev.Code != "" {
			status = ev.Code
		}
		fmt.Fprintf(p.env.Stderr, "← %s %s (%.0f ms)\n", ev.Tool, status, ev.DurationMS)
	}
}

// endTurn ends the reply's last line.
func (p *turnPrinter) endTurn() {
	if p.wroteText {
		fmt.Fprintln(p.env.Stdout)
		p.wroteText = false
	}
}
