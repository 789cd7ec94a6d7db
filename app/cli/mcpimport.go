package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
)

func mcpImport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp import", flag.ContinueOnError)
	replace := fs.Bool("replace", false, "overwrite servers that already exist")
	claude := fs.Bool("claude", false, "import Claude Desktop's config")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	var data []byte
	switch {
	case *claude && len(pos) == 0:
		path, err := mcpconfig.ClaudeDesktopConfigPath(mcpconfig.PathOptions{})
		if err != nil {
			return err
		}
		if data, err = os.ReadFile(path); err != nil { //nolint:gosec // Claude Desktop's well-known path
			return fmt.Errorf("read the Claude Desktop config: %w", err)
		}
	case len(pos) == 1 && pos[0] == "-":
		if data, err = io.ReadAll(env.Stdin); err != nil {
			return err
		}
	case len(pos) == 1 && !*claude:
		if data, err = os.ReadFile(pos[0]); err != nil {
			return usagef("%v", err)
		}
	default:
		return usagef("want one FILE (- for stdin) or --claude")
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	rep, err := w.ImportMCPServers(ctx, data, *replace)
	if err != nil {
		return usagef("%v", err)
	}
	for _, wn := range rep.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", wn)
	}
	fmt.Fprintf(env.Stdout, "imported: %d added %v, %d replaced %v, %d skipped %v\n",
		len(rep.Added), rep.Added, len(rep.Replaced), rep.Replaced, len(rep.Skipped), rep.Skipped)
	for _, name := range rep.Disabled {
		fmt.Fprintf(env.Stdout, "stored disabled: %s (switched off in the file, or it downloads a package when it starts); start it with: warren mcp enable %s\n", name, name)
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintln(env.Stdout, "skipped servers already exist: import again with --replace to overwrite them")
	}
	return nil
}

func mcpExport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp export", flag.ContinueOnError)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 1 {
		return usagef("want at most one FILE")
	}
	if len(pos) == 0 {
		data, err := w.ExportMCPServers(ctx)
		if err != nil {
			return err
		}
		_, err = env.Stdout.Write(data)
		return err
	}
	existing, err := os.ReadFile(pos[0]) //nolint:gosec // the file the user named
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	data, err := w.ExportMCPServersInto(ctx, existing)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if err := os.WriteFile(pos[0], data, 0o600); err != nil { //nolint:gosec // the file the user named
		return err
	}
	what := "wrote"
	if len(existing) > 0 {
		what = "updated (its other keys, servers and comments kept)"
	}
	fmt.Fprintf(env.Stderr, "%s %s (mode 0600: it contains the servers' env and header values)\n", what, pos[0])
	return nil
}
