package automation

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed todo_update.md
var todoUpdateDoc string

// Todo file names inside Deps.StateDir.
const (
	TodoFile     = "TODO.md"
	TodoDoneFile = "TODO.DONE.md"
)

// TodoUpdateParams are the parameters of todo_update. action and content are
// optional in the schema so the tool returns the documented error strings.
type TodoUpdateParams struct {
	Action  string   `json:"action,omitempty" description:"add or complete"`
	Content string   `json:"content,omitempty" description:"add: the item text; complete: a query matching one open item"`
	People  []string `json:"people,omitempty" description:"add: people involved (speaker, addressee, mentioned)"`
}

// TodoEntry is one to-do item.
type TodoEntry struct {
	CreatedAt string `json:"created_at,omitempty"`
	DoneAt    string `json:"done_at,omitempty"`
	Content   string `json:"content"`
}

// UpdateResult is todo_update's result.
type UpdateResult struct {
	OK            bool       `json:"ok"`
	Action        string     `json:"action"`
	UpdatedCounts TodoCounts `json:"updated_counts"`
	Changed       TodoChange `json:"changed"`
	Entry         *TodoEntry `json:"entry,omitempty"`
	Warnings      []string   `json:"warnings,omitempty"`
}

// TodoCounts are the item counts after the update.
type TodoCounts struct {
	Open int `json:"open_count"`
	Done int `json:"done_count"`
}

// TodoChange counts what the update changed.
type TodoChange struct {
	WIPAdded   int `json:"wip_added"`
	WIPRemoved int `json:"wip_removed"`
	DoneAdded  int `json:"done_added"`
}

const todoTime = "2006-01-02 15:04"

type todoTool struct {
	d  Deps
	mu sync.Mutex // serialises read-modify-write of the two files
}

func newTodoUpdate(d Deps) (tools.Tool, error) {
	tt := &todoTool{d: d}
	return tools.New(tools.Spec{
		Name: "todo_update", Group: "automation", LongDescription: todoUpdateDoc, Class: tools.ClassRuntime,
		Description: "Add an item to the to-do list (TODO.md) or mark one complete (moved to TODO.DONE.md).",
	}, tt.run)
}

func (tt *todoTool) run(ctx context.Context, p TodoUpdateParams) (tools.Result, error) {
	action, content := strings.TrimSpace(p.Action), strings.Join(strings.Fields(p.Content), " ")
	switch {
	case action == "":
		return tools.Errorf(tools.CodeValidation, "action is required"), nil
	case action != "add" && action != "complete":
		return tools.Errorf(tools.CodeValidation, "invalid action: %q (use add or complete)", action), nil
	case content == "":
		return tools.Errorf(tools.CodeValidation, "content is required"), nil
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	open, err := readTodo(filepath.Join(tt.d.StateDir, TodoFile))
	if err != nil {
		return tools.Result{}, err
	}
	done, err := readTodo(filepath.Join(tt.d.StateDir, TodoDoneFile))
	if err != nil {
		return tools.Result{}, err
	}
	res := UpdateResult{OK: true, Action: action}
	now := tt.d.Now().Format(todoTime)
	if action == "add" {
		if people := cleanPeople(p.People); len(people) > 0 {
			content += " (people: " + strings.Join(people, ", ") + ")"
		}
		entry := TodoEntry{CreatedAt: now, Content: content}
		if dup := indexFold(open, content); dup >= 0 {
			entry = open[dup]
			res.Warnings = append(res.Warnings, "duplicate_not_added")
		} else {
			open = append(open, entry)
			res.Changed.WIPAdded = 1
		}
		res.Entry = &entry
	} else {
		i, rerr := tt.match(ctx, open, content)
		if rerr != nil {
			return *rerr, nil
		}
		entry := open[i]
		entry.DoneAt = now
		open = append(open[:i], open[i+1:]...)
		done = append(done, entry)
		res.Entry = &entry
		res.Changed.WIPRemoved, res.Changed.DoneAdded = 1, 1
	}
	if res.Changed != (TodoChange{}) {
		if err := writeTodo(filepath.Join(tt.d.StateDir, TodoFile), "TODO", open); err != nil {
			return tools.Result{}, err
		}
		if err := writeTodo(filepath.Join(tt.d.StateDir, TodoDoneFile), "DONE", done); err != nil {
			return tools.Result{}, err
		}
	}
	res.UpdatedCounts = TodoCounts{Open: len(open), Done: len(done)}
	raw, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(string(raw)), nil
}

// match finds the one open item the query means: by the LLM when there is
// one, else by case-insensitive substring (an exact match wins).
func (tt *todoTool) match(ctx context.Context, open []TodoEntry, query string) (int, *tools.Result) {
	var hits []int
	if tt.d.Completer != nil && len(open) > 0 {
		var err error
		if hits, err = semanticMatch(ctx, tt.d.Completer, open, query); err != nil {
			r := tools.Errorf(tools.CodeExecution, "invalid semantic_match response: %v", err)
			return 0, &r
		}
	} else {
		if i := indexFold(open, query); i >= 0 {
			return i, nil
		}
		q := strings.ToLower(query)
		for i, e := range open {
			if strings.Contains(strings.ToLower(e.Content), q) {
				hits = append(hits, i)
			}
		}
	}
	switch len(hits) {
	case 0:
		r := tools.Errorf(tools.CodeNotFound, "no matching todo item in TODO.md for %q", query)
		return 0, &r
	case 1:
		return hits[0], nil
	}
	names := make([]string, len(hits))
	for n, i := range hits {
		names[n] = fmt.Sprintf("%q", open[i].Content)
	}
	r := tools.Errorf(tools.CodeValidation, "ambiguous todo item match for %q: %s; use a more specific query", query, strings.Join(names, ", "))
	return 0, &r
}

const matchSystem = `You match a query to items of a to-do list. Reply with JSON only:
{"matches":[<numbers of the items the query refers to>]}. Use [] when none fits.`

func semanticMatch(ctx context.Context, c Completer, open []TodoEntry, query string) ([]int, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Query: %s\nItems:\n", query)
	for i, e := range open {
		fmt.Fprintf(&b, "%d. %s\n", i+1, e.Content)
	}
	out, err := c.Complete(ctx, matchSystem, b.String())
	if err != nil {
		return nil, fmt.Errorf("model call failed: %w", err)
	}
	i, j := strings.Index(out, "{"), strings.LastIndex(out, "}")
	if i < 0 || j < i {
		return nil, fmt.Errorf("no JSON object in %q", tools.Clip(out, 200))
	}
	var resp struct {
		Matches *[]int `json:"matches"`
	}
	if err := json.Unmarshal([]byte(out[i:j+1]), &resp); err != nil || resp.Matches == nil {
		return nil, fmt.Errorf("want {\"matches\":[...]}, got %q", tools.Clip(out, 200))
	}
	seen := map[int]bool{}
	var hits []int
	for _, n := range *resp.Matches {
		if n < 1 || n > len(open) {
			return nil, fmt.Errorf("item %d does not exist", n)
		}
		if !seen[n] {
			seen[n] = true
			hits = append(hits, n-1)
		}
	}
	return hits, nil
}

func cleanPeople(in []string) []string {
	var out []string
	for _, p := range in {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func indexFold(es []TodoEntry, content string) int {
	for i, e := range es {
		if strings.EqualFold(e.Content, content) {
			return i
		}
	}
	return -1
}

// File format, one item per line:
//   - [ ] 2026-03-23 13:51 | content
//   - [x] 2026-03-23 13:51 | done 2026-03-24 09:00 | content
func readTodo(path string) ([]TodoEntry, error) {
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var out []TodoEntry
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "- [ ] ")
		if !ok {
			if rest, ok = strings.CutPrefix(line, "- [x] "); !ok {
				continue
			}
		}
		var e TodoEntry
		if created, tail, found := strings.Cut(rest, " | "); found && looksLikeTime(created) {
			e.CreatedAt, rest = created, tail
		}
		if d, tail, found := strings.Cut(rest, " | "); found && strings.HasPrefix(d, "done ") && looksLikeTime(d[5:]) {
			e.DoneAt, rest = d[5:], tail
		}
		e.Content = rest
		out = append(out, e)
	}
	return out, nil
}

func looksLikeTime(s string) bool {
	_, err := time.Parse(todoTime, s)
	return err == nil
}

func writeTodo(path, title string, es []TodoEntry) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	for _, e := range es {
		if e.DoneAt != "" {
			fmt.Fprintf(&b, "- [x] %s | done %s | %s\n", e.CreatedAt, e.DoneAt, e.Content)
		} else {
			fmt.Fprintf(&b, "- [ ] %s | %s\n", e.CreatedAt, e.Content)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
