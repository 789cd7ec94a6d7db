package fs

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed glob.md
var globDoc string

const (
	defaultGlobResults = 500
	maxGlobResults     = 5000
)

// GlobParams are the arguments of glob.
type GlobParams struct {
	Pattern    string `json:"pattern" description:"Path pattern relative to the workspace; * ? [a-z] match within a name, ** matches any number of directories (e.g. \"src/**/*.ts\")"`
	MaxResults int    `json:"max_results,omitempty" description:"Stop after this many paths (default 500, at most 5000)"`
}

func newGlob(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "glob",
		Group:           group,
		Description:     "Find files and directories whose paths match a pattern such as src/**/*.ts.",
		LongDescription: globDoc,
		Danger:          tools.DangerSafe,
	}, e.glob)
}

func (e *env) glob(ctx context.Context, p GlobParams) (tools.Result, error) {
	limit, fail, ok := capArg("max_results", p.MaxResults, defaultGlobResults, maxGlobResults)
	if !ok {
		return fail, nil
	}
	base, rest, err := splitStatic(p.Pattern)
	if err != nil {
		return tools.Errorf(tools.CodeValidation, "invalid pattern %q: %v", p.Pattern, err), nil
	}
	// The literal prefix goes through the same checks as any path, so a
	// pattern cannot start outside the workspace or inside a denied dir.
	res, fail, ok := e.resolveRead(ctx, base, true)
	if !ok {
		return fail, nil
	}
	none := tools.Text(fmt.Sprintf("No paths match %q", p.Pattern))
	r, fail, ok := e.target(res, "search", false)
	if !ok {
		if fail.Code() == tools.CodeNotFound {
			return none, nil
		}
		return fail, nil
	}
	defer r.Close()
	fi, err := r.root.Stat(r.name)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return none, nil
	case err != nil:
		return failure(res.Display(), "search", err), nil
	case len(rest) == 0: // no wildcard: the pattern is a plain path
		return tools.Text(markDir(res.Display(), fi.IsDir())), nil
	case !fi.IsDir():
		return none, nil
	}

	deep := hasDoubleStar(rest)
	var out []string
	truncated := false
	err = walkRooted(r, func(sub string, d iofs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if sub == "" {
			return err
		}
		if err != nil {
			return skip(d)
		}
		if e.paths.DeniedBelow(res, sub) {
			return skip(d)
		}
		comps := strings.Split(sub, "/")
		if matchComps(rest, comps) {
			if len(out) == limit {
				truncated = true
				return errStop
			}
			out = append(out, markDir(entryName(res, sub), d.IsDir()))
		}
		if d.IsDir() && !deep && len(comps) >= len(rest) {
			return iofs.SkipDir // deeper paths cannot match a pattern without **
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return failure(res.Display(), "search", err), nil
	}
	if len(out) == 0 {
		return none, nil
	}
	slices.Sort(out)
	text := strings.Join(out, "\n")
	if truncated {
		text += fmt.Sprintf("\n[stopped at %d paths; make the pattern more specific or raise max_results]", limit)
	}
	return tools.TextFor(text, fmt.Sprintf("%d paths match %s", len(out), p.Pattern)), nil
}

// splitStatic splits a pattern into its literal leading directory and the
// wildcard components after it.
func splitStatic(pattern string) (string, []string, error) {
	pat := strings.ReplaceAll(pattern, `\`, "/")
	if strings.TrimSpace(pat) == "" {
		return "", nil, errEmptyGlob
	}
	comps := strings.Split(pat, "/")
	i := 0
	for i < len(comps) && !hasMeta(comps[i]) {
		i++
	}
	base := strings.Join(comps[:i], "/")
	switch {
	case base == "" && strings.HasPrefix(pat, "/"):
		base = "/"
	case base == "":
		base = "."
	}
	if i == len(comps) {
		return base, nil, nil
	}
	rest, err := splitGlob(strings.Join(comps[i:], "/"))
	return base, rest, err
}

func markDir(name string, dir bool) string {
	if dir && !strings.HasSuffix(name, "/") {
		return name + "/"
	}
	return name
}
