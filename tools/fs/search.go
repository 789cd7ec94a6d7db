package fs

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed search.md
var searchDoc string

const (
	defaultSearchResults = 100
	maxSearchResults     = 1000
	// maxMatchLine keeps one minified line from filling the output.
	maxMatchLine = 300
)

// SearchParams are the arguments of search.
type SearchParams struct {
	Pattern    string `json:"pattern" description:"Regular expression (Go RE2 syntax) matched against each line"`
	Path       string `json:"path,omitempty" description:"Directory or file to search (default \".\", the workspace root)"`
	Glob       string `json:"glob,omitempty" description:"Only search files whose name matches, e.g. \"*.go\"; a pattern with / matches the path below path, ** allowed"`
	MaxResults int    `json:"max_results,omitempty" description:"Stop after this many matching lines (default 100, at most 1000)"`
}

func newSearch(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "search",
		Group:           group,
		Description:     "Search file contents with a regular expression; prints path:line: text.",
		LongDescription: searchDoc,
		Danger:          tools.DangerSafe,
	}, e.search)
}

func (e *env) search(ctx context.Context, p SearchParams) (tools.Result, error) {
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "invalid regular expression %q: %v", p.Pattern, err), nil
	}
	filter, err := compileGlob(p.Glob)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "invalid glob %q: %v", p.Glob, err), nil
	}
	limit, fail, ok := capArg("max_results", p.MaxResults, defaultSearchResults, maxSearchResults)
	if !ok {
		return fail, nil
	}
	if p.Path == "" {
		p.Path = "."
	}
	res, fail, ok := e.resolveDir(ctx, p.Path)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	if _, err := os.Stat(res.Real); err != nil {
		return failure(name, "search", err), nil
	}

	var out []string
	files, truncated := 0, false
	err = filepath.WalkDir(res.Real, func(full string, d iofs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if full == res.Real {
				return err
			}
			return skip(d) // unreadable entries are passed over
		}
		sub := filepath.ToSlash(strings.TrimPrefix(full, res.Real+string(filepath.Separator)))
		if full == res.Real {
			sub = ""
			if !d.IsDir() { // searching one file: filter by its own name
				sub = path.Base(filepath.ToSlash(full))
			}
		}
		if sub != "" && e.paths.DeniedBelow(res, sub) {
			return skip(d)
		}
		// Links are not followed: their targets were never checked.
		if d.IsDir() || !d.Type().IsRegular() || (filter != nil && !filter.match(sub)) {
			return nil
		}
		files++
		display := name
		if full != res.Real {
			display = entryName(res, sub)
		}
		for _, m := range grepFile(full, re, limit-len(out)+1) {
			if len(out) == limit {
				truncated = true
				return errStop
			}
			out = append(out, display+":"+m)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return failure(name, "search", err), nil
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("No matches for %q in %s (%d files searched)", p.Pattern, name, files)
		return tools.Text(msg), nil
	}
	text := strings.Join(out, "\n")
	if truncated {
		text += fmt.Sprintf("\n[stopped at %d matches; narrow the pattern, path or glob, or raise max_results]", limit)
	}
	return tools.TextFor(text, fmt.Sprintf("Found %d matches for %q in %s", len(out), p.Pattern, name)), nil
}

// grepFile returns up to limit "line: text" matches. Files that are too big,
// binary or unreadable yield nothing: search is best effort over a tree.
func grepFile(file string, re *regexp.Regexp, limit int) []string {
	fi, err := os.Stat(file)
	if err != nil || fi.Size() > MaxReadBytes {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil || isBinary(data) {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxReadBytes)
	for n := 1; sc.Scan() && len(out) < limit; n++ {
		line := sc.Bytes()
		if !re.Match(line) {
			continue
		}
		text := strings.TrimRight(string(line), "\r")
		if len(text) > maxMatchLine {
			text = tools.CutUTF8(text, maxMatchLine) + "…"
		}
		out = append(out, fmt.Sprintf("%d: %s", n, text))
	}
	return out
}
