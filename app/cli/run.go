package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/warren"
)

// runAgent is `warren run`: one agent turn, the reply streamed to stdout and
// tool activity to stderr.
func runAgent(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	agentKey := fs.String("agent", "default", "agent to run")
	session := fs.String("session", "", "continue this session (default: a new one)")
	baseURL := fs.String("base-url", "", "OpenAI-compatible endpoint for this run, e.g. http://127.0.0.1:11434/v1")
	model := fs.String("model", "", "model name for this run")
	workspace := fs.String("workspace", "", "workspace directory")
	approve := fs.String("approve", "", "answer approval requests: yes (allow once), always, or no")
	emulate := fs.Bool("emulate-tools", false, "describe tools in the prompt and parse calls from the reply (models without tool calling)")
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
	stop := answerApprovals(ctx, env, w, *approve)
	defer stop()
	wroteText := false
	res, err := w.RunAgent(ctx, warren.RunRequest{
		Agent: *agentKey, Session: *session, Prompt: prompt, BaseURL: *baseURL, Model: *model, Workspace: *workspace, EmulateTools: *emulate,
	}, func(ev agent.Event) {
		switch ev.Kind {
		case agent.EventText:
			fmt.Fprint(env.Stdout, ev.Text)
			wroteText = true
		case agent.EventToolStart:
			fmt.Fprintf(env.Stderr, "→ %s %s\n", ev.Tool, oneLine(ev.Args, 200))
		case agent.EventToolEnd:
			status := "ok"
			if ev.Code != "" {
				status = ev.Code
			}
			fmt.Fprintf(env.Stderr, "← %s %s (%.0f ms)\n", ev.Tool, status, ev.DurationMS)
		}
	})
	if wroteText {
		fmt.Fprintln(env.Stdout)
	}
	if res.Session != "" {
		fmt.Fprintf(env.Stderr, "session %s · %d model call(s) · %d+%d tokens\n", res.Session, res.Iterations,
			res.Usage.PromptTokens, res.Usage.CompletionTokens)
	}
	return err
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
