package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/store"
)

func runProviders(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: list, add, remove or test")
	}
	fs := flag.NewFlagSet("providers", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	kind := fs.String("kind", store.ProviderOpenAI, "openai (any OpenAI-compatible server) or anthropic")
	baseURL := fs.String("base-url", "", "endpoint, e.g. http://127.0.0.1:11434/v1 (Ollama)")
	apiKey := fs.String("api-key", "", "API key, stored encrypted (- removes it)")
	model := fs.String("model", "", "default model")
	toolMode := fs.String("tool-mode", "", "native (default) or emulated, for models without tool calling")
	pos, w, err := parseOpen(ctx, env, fs, args[1:])
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	ps := w.Providers()
	switch args[0] {
	case "list":
		list, err := ps.List(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			if list == nil {
				list = []store.Provider{}
			}
			return printJSON(env, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stdout, "no providers (add one: warren providers add ollama --base-url http://127.0.0.1:11434/v1 --model qwen2.5:7b)")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tKIND\tBASE URL\tKEY\tDEFAULT MODEL")
		for _, p := range list {
			key := "-"
			if p.HasKey {
				key = "set"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, p.BaseURL, key, orDash(p.DefaultModel))
		}
		return tw.Flush()
	case "add":
		if len(pos) != 1 {
			return usagef("want one provider NAME")
		}
		p := store.Provider{Name: pos[0], Kind: *kind, BaseURL: *baseURL, APIKey: *apiKey, DefaultModel: *model, ToolMode: *toolMode}
		if err := ps.Save(ctx, p); err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(env.Stdout, "saved provider %s (%s)\n", p.Name, p.BaseURL)
		return nil
	case "remove":
		if len(pos) != 1 {
			return usagef("want one provider NAME")
		}
		if err := ps.Delete(ctx, pos[0]); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(env.Stdout, "removed provider %s\n", pos[0])
		return nil
	case "test":
		if len(pos) != 1 {
			return usagef("want one provider NAME")
		}
		models, err := w.TestProvider(ctx, pos[0])
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env, models)
		}
		fmt.Fprintf(env.Stdout, "%s answered with %d model(s):\n", pos[0], len(models))
		for _, m := range models {
			fmt.Fprintf(env.Stdout, "  %s\n", m.ID)
		}
		return nil
	}
	return usagef("unknown subcommand %q (want list, add, remove or test)", args[0])
}
