package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/warren-dev/warren/backend/memory"
)

const memoryUsage = `memory list [--agent A | --global] [--prefix P] [--json] | show PATH [--agent A] [--user U] [--json]
  | search QUERY [--agent A] [--user U] [--max N] [--min-score X] [--scope user|agent|global] [--prefix P] [--json]
  | put PATH (--file F | -) [--agent A] [--user U] | remove PATH [--agent A] [--user U] | status [--json] | reindex
  | import DIR [--agent A] | folders [--json] | unimport ID`

// runMemory is `warren memory`: the memory documents and their search index.
func runMemory(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name a subcommand: list, show, search, put, remove, status, reindex, import, folders or unimport")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return memoryList(ctx, env, rest)
	case "show":
		return memoryShow(ctx, env, rest)
	case "search":
		return memorySearch(ctx, env, rest)
	case "put":
		return memoryPut(ctx, env, rest)
	case "remove":
		return memoryRemove(ctx, env, rest)
	case "status":
		return memoryStatus(ctx, env, rest)
	case "reindex":
		return memoryReindex(ctx, env, rest)
	case "import":
		return memoryImport(ctx, env, rest)
	case "folders":
		return memoryFolders(ctx, env, rest)
	case "unimport":
		return memoryUnimport(ctx, env, rest)
	}
	return usagef("unknown subcommand %q: use list, show, search, put, remove, status, reindex, import, folders or unimport", sub)
}

// docFlags are the scope flags of the commands on one document. The
// default is the desktop user's copy of the default agent's document.
type docFlags struct{ agent, user *string }

func addDocFlags(fs *flag.FlagSet) docFlags {
	return docFlags{
		agent: fs.String("agent", "default", `the agent ("" for a global document)`),
		user:  fs.String("user", "local", `the user ("" for the agent's copy shared by all users)`),
	}
}

func onePath(pos []string, what string) (string, error) {
	if len(pos) != 1 {
		return "", usagef("%s takes one document path (like memory/notes.md), got %d argument(s)", what, len(pos))
	}
	return pos[0], nil
}

func scopeLabel(agent, user string) string {
	switch {
	case agent == "":
		return "global"
	case user == "":
		return agent
	}
	return agent + "/" + user
}

func memoryList(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory list", flag.ContinueOnError)
	agent := fs.String("agent", "", "only this agent's documents (and the global ones)")
	global := fs.Bool("global", false, "only global documents")
	prefix := fs.String("prefix", "", "only paths starting with this")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("memory list takes no arguments")
	}
	docs, err := w.Memory().List(ctx, memory.ListFilter{Agent: *agent, Global: *global, Prefix: *prefix})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, docs)
	}
	if len(docs) == 0 {
		fmt.Fprintln(env.Stdout, "no memory documents yet (agents write MEMORY.md or memory/*.md; or: warren memory put PATH --file F)")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tOWNER\tVERSION\tSIZE\tCHUNKS\tUPDATED")
	for _, d := range docs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", d.Path, scopeLabel(d.Agent, d.User), d.Version, d.Size, d.Chunks,
			d.Updated.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func memoryShow(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory show", flag.ContinueOnError)
	df := addDocFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	path, err := onePath(pos, "memory show")
	if err != nil {
		return err
	}
	d, ok, err := w.Memory().Resolve(ctx, *df.agent, *df.user, path)
	if err != nil {
		return usagef("%v", err)
	}
	if !ok {
		return usagef("no memory document %q for %s (warren memory list shows what there is)", path, scopeLabel(*df.agent, *df.user))
	}
	if *asJSON {
		return printJSON(env, d)
	}
	fmt.Fprint(env.Stdout, d.Content)
	if !strings.HasSuffix(d.Content, "\n") {
		fmt.Fprintln(env.Stdout)
	}
	return nil
}

func memorySearch(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory search", flag.ContinueOnError)
	df := addDocFlags(fs)
	maxHits := fs.Int("max", 6, "how many hits (at most 50)")
	minScore := fs.Float64("min-score", 0, "drop hits below this score (0-1); exact matches stay")
	scope := fs.String("scope", "", "user, agent or global (default: all)")
	prefix := fs.String("prefix", "", "only paths starting with this")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) == 0 {
		return usagef("memory search needs a query")
	}
	res, err := w.Memory().Search(ctx, memory.Query{Text: strings.Join(pos, " "), Agent: *df.agent, User: *df.user,
		MaxResults: *maxHits, MinScore: *minScore, Scope: memory.Scope(*scope), PathPrefix: *prefix})
	if errors.Is(err, memory.ErrBadQuery) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, res)
	}
	fmt.Fprintf(env.Stdout, "mode: %s", res.Mode)
	if res.Note != "" {
		fmt.Fprintf(env.Stdout, " (%s)", res.Note)
	}
	fmt.Fprintln(env.Stdout)
	for i, h := range res.Hits {
		fmt.Fprintf(env.Stdout, "\n%d. %s:%d-%d  %s  score %.2f  keyword #%s  vector #%s\n   %s\n", i+1, h.Path, h.StartLine, h.EndLine,
			scopeLabel(h.Agent, h.User), h.Score, rankText(h.KeywordRank), rankText(h.VectorRank), h.Snippet)
	}
	return nil
}

func rankText(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

func memoryPut(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory put", flag.ContinueOnError)
	df := addDocFlags(fs)
	file := fs.String("file", "", "read the content from this file (- for standard input)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	path, err := onePath(pos, "memory put")
	if err != nil {
		return err
	}
	var content []byte
	switch *file {
	case "":
		return usagef("memory put needs --file F (or --file - to read standard input)")
	case "-":
		if env.Stdin == nil {
			return usagef("memory put --file -: no standard input")
		}
		if content, err = io.ReadAll(env.Stdin); err != nil {
			return fmt.Errorf("memory put: read standard input: %w", err)
		}
	default:
		if content, err = os.ReadFile(*file); err != nil {
			return usagef("memory put: %v", err)
		}
	}
	w, err := open(ctx, env, "")
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	d, err := w.Memory().Put(ctx, memory.PutDoc{Agent: *df.agent, User: *df.user, Path: path, Content: string(content)})
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(env.Stdout, "stored %s for %s: version %d, %d chunks\n", d.Path, scopeLabel(d.Agent, d.User), d.Version, d.Chunks)
	return nil
}

func memoryRemove(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory remove", flag.ContinueOnError)
	df := addDocFlags(fs)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	path, err := onePath(pos, "memory remove")
	if err != nil {
		return err
	}
	if err := w.Memory().Delete(ctx, *df.agent, *df.user, path); err != nil {
		if errors.Is(err, memory.ErrNotFound) {
			return usagef("no memory document %q for %s (warren memory list shows what there is)", path, scopeLabel(*df.agent, *df.user))
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "removed %s for %s\n", path, scopeLabel(*df.agent, *df.user))
	return nil
}

func memoryStatus(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("memory status takes no arguments")
	}
	st, err := w.Memory().Status(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, st)
	}
	printIndexStatus(env, st)
	return nil
}

func printIndexStatus(env Env, st memory.IndexStatus) {
	fmt.Fprintf(env.Stdout, "documents: %d\nchunks:    %d\n", st.Docs, st.Chunks)
	if st.Embedder == nil {
		fmt.Fprintln(env.Stdout, "search:    keyword only (no embedder set)")
	} else {
		fmt.Fprintf(env.Stdout, "embedder:  %s/%s (%d dimensions)\nvectors:   %d of %d chunks", st.Embedder.Kind, st.Embedder.Model,
			st.Embedder.Dims, st.Embedded, st.Chunks)
		if st.Building {
			fmt.Fprint(env.Stdout, " (building")
			if st.Ready != nil {
				fmt.Fprintf(env.Stdout, "; search uses the %s/%s vectors until it is done", st.Ready.Kind, st.Ready.Model)
			}
			fmt.Fprint(env.Stdout, ")")
		}
		fmt.Fprintln(env.Stdout)
	}
	if st.Index != "" {
		fmt.Fprintf(env.Stdout, "vector search:  %s\n", st.Index)
	}
	fmt.Fprintf(env.Stdout, "keyword search: %s\n", st.Keywords)
	if st.LastError != "" {
		fmt.Fprintf(env.Stdout, "last error: %s\n", st.LastError)
	}
}

func memoryReindex(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory reindex", flag.ContinueOnError)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("memory reindex takes no arguments")
	}
	if err := w.Memory().Reindex(ctx); err != nil {
		return err
	}
	if err := w.Memory().IndexNow(ctx); err != nil {
		return err
	}
	st, err := w.Memory().Status(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "reindexed:")
	printIndexStatus(env, st)
	return nil
}

func memoryImport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory import", flag.ContinueOnError)
	agent := fs.String("agent", "", "only this agent searches it (default: every agent)")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) != 1 {
		return usagef("memory import takes one folder, got %d argument(s)", len(pos))
	}
	f, err := w.Memory().AddFolder(ctx, *agent, pos[0])
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(env.Stdout, "imported %s (folder %d): %d files, %d skipped (too large, binary or unreadable)\n", f.Path, f.ID, f.Files, f.Skipped)
	if err := w.Memory().IndexNow(ctx); err != nil {
		fmt.Fprintf(env.Stderr, "warren: the vectors will be made later: %v\n", err)
	}
	fmt.Fprintln(env.Stdout, "search it with search_documents; it is scanned again for changes while Warren runs")
	return nil
}

func memoryFolders(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory folders", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) > 0 {
		return usagef("memory folders takes no arguments")
	}
	fsList, err := w.Memory().Folders(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, fsList)
	}
	if len(fsList) == 0 {
		fmt.Fprintln(env.Stdout, "no imported folders (warren memory import DIR)")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFOLDER\tFOR\tFILES\tSKIPPED\tSCANNED\tERROR")
	for _, f := range fsList {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%s\t%s\n", f.ID, f.Path, orDash(f.Agent), f.Files, f.Skipped,
			f.Scanned.Local().Format("2006-01-02 15:04"), orDash(f.Error))
	}
	return tw.Flush()
}

func memoryUnimport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("memory unimport", flag.ContinueOnError)
	pos, w, err := parseOpen(ctx, env, fs, args)
	if err != nil {
		return err
	}
	defer closeQuietly(w)
	if len(pos) != 1 {
		return usagef("memory unimport takes one folder id (warren memory folders lists them)")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil {
		return usagef("memory unimport: %q is not a folder id (warren memory folders lists them)", pos[0])
	}
	if err := w.Memory().RemoveFolder(ctx, id); err != nil {
		if errors.Is(err, memory.ErrNotFound) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "forgot folder %d and its documents (the files stay where they are)\n", id)
	return nil
}
