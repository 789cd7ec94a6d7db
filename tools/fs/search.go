package fs

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
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
	res, fail, ok := e.resolveRead(ctx, p.Path, true)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	r, fail, ok := e.target(res, "search", false)
	if !ok {
		return fail, nil
	}
	defer r.Close()
	if _, err := r.root.Stat(r.name); err != nil {
		return failure(name, "search", err), nil
	}

	var out []string
	var linked skipped
	files, truncated := 0, false
	err = walkRooted(r, func(sub string, d iofs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		start := sub == ""
		if err != nil {
			if start {
				return err
			}
			return skip(d) // unreadable entries are passed over
		}
		if start && !d.IsDir() { // searching one file: filter by its own name
			sub = path.Base(res.Target.Name)
		}
		if !start && e.paths.DeniedBelow(res, sub) {
			return skip(d)
		}
		// Links are not followed: their targets were never checked.
		if d.IsDir() || !d.Type().IsRegular() || (filter != nil && !filter.match(sub)) {
			return nil
		}
		files++
		display, file := name, r.name
		if !start {
			display, file = entryName(res, sub), r.join(sub)
		}
		matches, links := e.grepFile(r.root, file, re, limit-len(out)+1)
		if links > 1 {
			linked.add(display)
			return nil
		}
		for _, m := range matches {
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
		msg := fmt.Sprintf("No matches for %q in %s (%d files searched)", p.Pattern, name, files-linked.n)
		return tools.Text(msg + linked.note()), nil
	}
	text := strings.Join(out, "\n")
	if truncated {
		text += fmt.Sprintf("\n[stopped at %d matches; narrow the pattern, path or glob, or raise max_results]", limit)
	}
	return tools.TextFor(text+linked.note(), fmt.Sprintf("Found %d matches for %q in %s", len(out), p.Pattern, name)), nil
}

// skipped collects the files search passed over for having several hard
// links, so the model learns they exist and why they were not searched.
type skipped struct {
	n     int
	names []string // the first few
}

const maxSkippedNames = 10

func (s *skipped) add(name string) {
	s.n++
	if len(s.names) < maxSkippedNames {
		s.names = append(s.names, name)
	}
}

func (s *skipped) note() string {
	if s.n == 0 {
		return ""
	}
	more := ""
	if s.n > len(s.names) {
		more = fmt.Sprintf(" and %d more", s.n-len(s.names))
	}
	return fmt.Sprintf("\n[skipped %d file(s) with more than one hard link, which may be links to files outside the workspace: %s%s; "+
		"the user can allow hard-linked files in the settings]", s.n, strings.Join(s.names, ", "), more)
}

// grepFile returns up to limit "line: text" matches in name inside root.
// Files that are not regular, too big, binary or unreadable yield nothing:
// search is best effort over a tree. links > 1 reports a file skipped for
// having several hard links (never when they are allowed).
func (e *env) grepFile(root *os.Root, name string, re *regexp.Regexp, limit int) (out []string, links uint64) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, 0
	}
	defer func() { _ = f.Close() }() // read-only
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, 0
	}
	if !e.allowHardLinks() {
		if n, err := linkCount(f, fi); err != nil || n > 1 {
			return nil, n
		}
	}
	if fi.Size() > MaxReadBytes {
		return nil, 0
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil || len(data) > MaxReadBytes || isBinary(data) {
		return nil, 0
	}
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
	return out, 1
}
