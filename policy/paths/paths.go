// Package paths is the one place that decides whether a path an agent gives
// may be touched. It joins relative paths to the workspace, maps the
// file_cache_dir / file_state_dir aliases to their roots, and refuses empty or
// malformed paths, `..` escapes, absolute paths outside every root, symlinks
// that lead outside, and denied prefixes such as .warren.
//
// A check made here can be outrun: a symlink swapped after Resolve returns
// leads wherever it now points. Callers therefore act through an os.Root
// opened on a Location's Dir, whose traversal refuses `..` and symlinks out of
// the root at use time; this package supplies the names and the messages.
package paths

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// MaxPathLen is the longest path, in bytes, Resolve accepts (PATH_MAX on Linux).
const MaxPathLen = 4096

// Config describes the roots a Resolver allows and the prefixes it denies.
type Config struct {
	// Workspace is the default workspace root; Resolve's argument overrides it.
	Workspace string
	// Aliases maps an alias name ("file_cache_dir") to an absolute directory.
	Aliases map[string]string
	// Deny lists path prefixes relative to the workspace (".warren").
	Deny []string
}

// Resolved is a path that passed every check.
type Resolved struct {
	// Abs is the cleaned absolute path, symlinks not followed.
	Abs string
	// Rel is Abs relative to Root, slash-separated; "." for the root itself.
	Rel string
	// Root is the workspace or alias directory that holds Abs.
	Root string
	// Alias names Root when it is an alias root; "" for the workspace.
	Alias string
	// Real is Abs with every existing symlink evaluated; it lies inside an
	// allowed root.
	Real string
	// Target is Real spelled for an os.Root: open the files the path leads
	// to through it, so the root still holds if a link changes after the check.
	Target Location
	// Entry is the path's last component itself, its symlink not followed
	// (what Lstat describes and a delete removes), spelled for an os.Root.
	Entry Location

	// realRel is Real relative to the real workspace, or "" when Real lies
	// in an alias root; DeniedBelow checks it so a link cannot unhide .warren.
	realRel string
}

// Display returns the path as an agent would write it: Rel, prefixed with the
// alias name when it lives under an alias root.
func (r Resolved) Display() string {
	if r.Alias == "" {
		return r.Rel
	}
	if r.Rel == "." {
		return r.Alias
	}
	return r.Alias + "/" + r.Rel
}

// Location names a file inside one allowed root the way os.Root wants it:
// open the root on Dir and pass Name to its methods.
type Location struct {
	// Dir is the real (symlink-free) path of the root directory.
	Dir string
	// Alias names the root when it is an alias root; "" for the workspace.
	Alias string
	// Name is relative to Dir, clean, slash-separated and without "..";
	// "." for the root itself.
	Name string
}

// Resolver checks agent-supplied paths. It is safe for concurrent use.
type Resolver struct {
	workspace string
	aliases   []alias

	mu   sync.RWMutex
	deny [][]string // each prefix split into components
}

type alias struct{ name, root string }

// root is one allowed directory, lexical and with symlinks evaluated.
type root struct {
	alias     string
	abs, real string
}

// New validates cfg and returns a Resolver.
func New(cfg Config) (*Resolver, error) {
	r := &Resolver{}
	if cfg.Workspace != "" {
		if !filepath.IsAbs(cfg.Workspace) {
			return nil, fmt.Errorf("paths: workspace %q must be absolute", cfg.Workspace)
		}
		r.workspace = filepath.Clean(cfg.Workspace)
	}
	for name, dir := range cfg.Aliases {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("paths: alias name %q must be a single path component", name)
		}
		if !filepath.IsAbs(dir) {
			return nil, fmt.Errorf("paths: alias %s root %q must be absolute", name, dir)
		}
		r.aliases = append(r.aliases, alias{name: name, root: filepath.Clean(dir)})
	}
	slices.SortFunc(r.aliases, func(a, b alias) int { return strings.Compare(a.name, b.name) })
	r.AddDeny(cfg.Deny...)
	return r, nil
}

// Resolve checks p and returns where it points. workspace overrides the
// configured workspace when non-empty (the per-call workspace). Errors match
// ErrInvalidPath, ErrOutsideWorkspace or ErrDenied with errors.Is; any other
// error comes from the filesystem while evaluating symlinks.
func (r *Resolver) Resolve(workspace, p string) (Resolved, error) {
	return r.resolve(workspace, p, false)
}

// ResolveDir is Resolve for tools that take a directory (list, search,
// glob, info): there a bare alias name ("file_cache_dir") names the alias
// root instead of being an error.
func (r *Resolver) ResolveDir(workspace, p string) (Resolved, error) {
	return r.resolve(workspace, p, true)
}

func (r *Resolver) resolve(workspace, p string, bareAlias bool) (Resolved, error) {
	if workspace == "" {
		workspace = r.workspace
	}
	if workspace != "" {
		if !filepath.IsAbs(workspace) {
			return Resolved{}, refuse(p, ErrInvalidPath, fmt.Sprintf("cannot be resolved: workspace %q is not absolute", workspace))
		}
		workspace = filepath.Clean(workspace)
	}
	if err := checkInput(p); err != nil {
		return Resolved{}, err
	}
	// Backslashes are separators everywhere: agents trained on Windows paths
	// write them, and a literal backslash in a Linux file name is rare enough
	// that reading `..\x` as one odd file name would only hide an escape.
	slashed := strings.ReplaceAll(p, `\`, "/")

	abs, err := r.lexical(workspace, p, slashed, bareAlias)
	if err != nil {
		return Resolved{}, err
	}
	roots, err := r.roots(workspace)
	if err != nil {
		return Resolved{}, err
	}
	lex, ok := mostSpecific(roots, abs, rootAbs)
	if !ok {
		// An absolute path may spell a root by its real location (macOS
		// /private/tmp for /tmp, or what `pwd -P` printed): accept it when the
		// real path is inside, re-expressed under the root's own spelling.
		real, err := realPath(abs)
		if err != nil {
			return Resolved{}, fmt.Errorf("path %s: evaluate symlinks: %w", quote(p), err)
		}
		if lex, ok = mostSpecific(roots, real, rootReal); !ok {
			return Resolved{}, refuse(p, ErrOutsideWorkspace, "is outside the workspace and its alias roots")
		}
		abs = filepath.Join(lex.abs, filepath.FromSlash(relSlash(lex.real, real)))
	}
	real, err := realPath(abs)
	if err != nil {
		return Resolved{}, fmt.Errorf("path %s: evaluate symlinks: %w", quote(p), err)
	}
	// The real path may land in another allowed root (a link into the cache
	// dir): that is still allowed, and denial is checked against both.
	rr, ok := mostSpecific(roots, real, rootReal)
	if !ok {
		return Resolved{}, refuse(p, ErrOutsideWorkspace, "resolves through a symlink to a location outside the workspace")
	}
	res := Resolved{
		Abs: abs, Rel: relSlash(lex.abs, abs), Root: lex.abs, Alias: lex.alias, Real: real,
		Target: Location{Dir: rr.real, Alias: rr.alias, Name: relSlash(rr.real, real)},
	}
	if prefix, denied := r.deniedBy(res.Rel); lex.alias == "" && denied {
		return Resolved{}, refuse(p, ErrDenied, fmt.Sprintf("is under the denied directory %q", prefix))
	}
	if rr.alias == "" {
		res.realRel = relSlash(rr.real, real)
		if prefix, denied := r.deniedBy(res.realRel); denied {
			return Resolved{}, refuse(p, ErrDenied, fmt.Sprintf("resolves through a symlink into the denied directory %q", prefix))
		}
	}
	if res.Entry, err = r.entry(p, roots, lex, abs); err != nil {
		return Resolved{}, err
	}
	return res, nil
}

// entry locates abs's last component without following it: its parent's real
// path plus its own name. That place must be allowed too, or a delete could
// remove a link that lives outside (or in .warren) but points back inside.
func (r *Resolver) entry(p string, roots []root, lex root, abs string) (Location, error) {
	if abs == lex.abs {
		return Location{Dir: lex.real, Alias: lex.alias, Name: "."}, nil
	}
	parent, err := realPath(filepath.Dir(abs))
	if err != nil {
		return Location{}, fmt.Errorf("path %s: evaluate symlinks: %w", quote(p), err)
	}
	real := filepath.Join(parent, filepath.Base(abs))
	er, ok := mostSpecific(roots, real, rootReal)
	if !ok {
		return Location{}, refuse(p, ErrOutsideWorkspace, "passes through a symlink to a directory outside the workspace")
	}
	loc := Location{Dir: er.real, Alias: er.alias, Name: relSlash(er.real, real)}
	if prefix, denied := r.deniedBy(loc.Name); er.alias == "" && denied {
		return Location{}, refuse(p, ErrDenied, fmt.Sprintf("lies through a symlink in the denied directory %q", prefix))
	}
	return loc, nil
}

// lexical turns p into a cleaned absolute path without touching the disk,
// refusing `..` escapes from the root the path was written against.
func (r *Resolver) lexical(workspace, p, slashed string, bareAlias bool) (string, error) {
	first, rest, _ := strings.Cut(slashed, "/")
	for _, a := range r.aliases {
		if first != a.name {
			continue
		}
		if path.Clean("/"+rest) == "/" && !bareAlias {
			return "", refuse(p, ErrInvalidPath, fmt.Sprintf("names only the alias; write %s/<file>", a.name))
		}
		abs := filepath.Join(a.root, filepath.FromSlash(strings.TrimLeft(rest, "/")))
		if !Within(a.root, abs) {
			return "", refuse(p, ErrOutsideWorkspace, fmt.Sprintf("escapes %s with ..", a.name))
		}
		return abs, nil
	}
	native := filepath.FromSlash(slashed)
	if filepath.IsAbs(native) {
		return filepath.Clean(native), nil
	}
	if runtime.GOOS != "windows" && hasDrive(slashed) {
		return "", refuse(p, ErrInvalidPath, "is a Windows drive path; use a path relative to the workspace")
	}
	if workspace == "" {
		return "", refuse(p, ErrInvalidPath, "is relative but no workspace is set")
	}
	abs := filepath.Join(workspace, native)
	if !Within(workspace, abs) {
		return "", refuse(p, ErrOutsideWorkspace, "escapes the workspace with ..")
	}
	return abs, nil
}

// roots lists the workspace and alias roots with their real paths. They are
// evaluated per call because the workspace varies per call and a root may be
// created after start-up.
func (r *Resolver) roots(workspace string) ([]root, error) {
	out := make([]root, 0, len(r.aliases)+1)
	add := func(name, dir string) error {
		real, err := realPath(dir)
		if err != nil {
			return fmt.Errorf("evaluate root %s: %w", dir, err)
		}
		out = append(out, root{alias: name, abs: dir, real: real})
		return nil
	}
	if workspace != "" {
		if err := add("", workspace); err != nil {
			return nil, err
		}
	}
	for _, a := range r.aliases {
		if err := add(a.name, a.root); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mostSpecific returns the deepest root containing p, so a cache dir nested in
// the workspace is reported as the cache dir.
func mostSpecific(roots []root, p string, dir func(root) string) (root, bool) {
	best, found := root{}, false
	for _, rt := range roots {
		if Within(dir(rt), p) && (!found || len(dir(rt)) > len(dir(best))) {
			best, found = rt, true
		}
	}
	return best, found
}

func rootAbs(rt root) string  { return rt.abs }
func rootReal(rt root) string { return rt.real }

// Within reports whether p is root or below it, comparing whole components
// so that /ws-evil is not inside /ws. Both must be clean.
func Within(root, p string) bool {
	if p == root {
		return true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "."
	}
	return filepath.ToSlash(rel)
}

func checkInput(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return refuse(p, ErrInvalidPath, "is empty")
	case strings.IndexByte(p, 0) >= 0:
		return refuse(p, ErrInvalidPath, "contains a NUL byte")
	case len(p) > MaxPathLen:
		return refuse(p, ErrInvalidPath, fmt.Sprintf("is %d bytes, longer than %d", len(p), MaxPathLen))
	}
	return nil
}

// hasDrive reports a "C:" or "C:/…" prefix, which on Linux would otherwise
// become a directory literally named "C:" inside the workspace.
func hasDrive(s string) bool {
	if len(s) < 2 || s[1] != ':' {
		return false
	}
	c := s[0] | 0x20
	return c >= 'a' && c <= 'z' && (len(s) == 2 || s[2] == '/')
}
