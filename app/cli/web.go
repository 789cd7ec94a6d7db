package cli

import (
	"context"
	"encoding/json"
	"flag"
	"strings"
)

const webUsage = "web fetch URL... [--selector CSS] [--format markdown|text|html] [--agent A] [--json] | web search QUERY... [--count N] [--agent A] [--json]   (the agent's network switch must be on)"

// runWeb is a shorthand for `warren tool call web_fetch|web_search`: the
// call runs through the same registry, policy and network guard.
func runWeb(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || (args[0] != "fetch" && args[0] != "search") {
		return usagef("expected fetch or search")
	}
	sub := args[0]
	fs := flag.NewFlagSet("web "+sub, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	agent := fs.String("agent", "default", "agent the call runs as (its network switch must be on)")
	selector := fs.String("selector", "", "fetch: CSS selector of the part to return")
	format := fs.String("format", "", "fetch: markdown (default), text or html")
	count := fs.Int("count", 0, "search: how many results (default 10, at most 20)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("web %s: give %s", sub, map[string]string{"fetch": "at least one URL", "search": "a query"}[sub])
	}
	tool, payload := "web_fetch", map[string]any{"urls": pos}
	if sub == "fetch" {
		if *selector != "" {
			payload["selector"] = *selector
		}
		if *format != "" {
			payload["format"] = *format
		}
	} else {
		tool, payload = "web_search", map[string]any{"query": strings.Join(pos, " ")}
		if *count != 0 {
			payload["count"] = *count
		}
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	call := []string{"call", tool, string(raw), "--agent", *agent}
	if *asJSON {
		call = append(call, "--json")
	}
	return runTool(ctx, env, call)
}
