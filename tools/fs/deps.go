// Package fs holds Warren's filesystem tools (group "fs"): read_file,
// write_file, edit, list_files, search, glob, delete_file and get_file_info.
// Every path goes through policy/paths, so workspace escapes, symlinks that
// lead outside and denied prefixes are refused the same way by all eight, and
// every disk access then goes through an os.Root on the root the path was
// accepted in, which enforces the same containment when the file is used.
// Regular files with several hard links are refused unless allowed. Reads
// and writes consult an interceptor chain (context files, memory) before
// the disk.
package fs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

const (
	group = "fs"
	// MaxReadBytes caps what read_file, edit and search load from one file.
	MaxReadBytes = 10 << 20
	// DefaultMaxWriteBytes is the write_file content cap when Deps leaves it 0.
	DefaultMaxWriteBytes = 10 << 20
	// AliasCacheDir and AliasStateDir are the path aliases agents may write.
	AliasCacheDir = "file_cache_dir"
	AliasStateDir = "file_state_dir"
)

// DefaultDeny is the deny list used when Deps.Deny is nil: Warren's own
// per-workspace data is not the agent's to read or change.
func DefaultDeny() []string { return []string{".warren"} }

// Deps is everything the filesystem tools need.
type Deps struct {
	// Workspace is used when the call context carries none.
	Workspace string
	// CacheDir and StateDir back the file_cache_dir / file_state_dir aliases;
	// empty disables the alias.
	CacheDir, StateDir string
	// Deny lists workspace-relative prefixes hidden from and refused by all
	// eight tools. nil means DefaultDeny(); an empty non-nil slice denies none.
	Deny []string
	// MaxWriteBytes caps write_file content; 0 means DefaultMaxWriteBytes.
	MaxWriteBytes int64
	// ContextFiles, when set, routes SOUL.md & co. to the store; its
	// interceptor runs before Interceptors.
	ContextFiles ContextFileStore
	// Interceptors are consulted in order before the disk (e.g. memory).
	Interceptors []Interceptor
	// AllowHardLinks lets the tools read, search, change and delete regular
	// files with more than one hard link. Off by default: a hard link in the
	// workspace can be a second name for any file outside it (a symlink's
	// target can be checked, a hard link's other names cannot), so such files
	// are refused and skipped by search. Read at each call (a setting the
	// user can change); nil means off.
	AllowHardLinks func() bool
	// SkillDirs, when set, lists the skill folders whose files the read-only
	// tools (read_file, list_files, glob, search) may read outside the
	// workspace; nil allows none.
	SkillDirs SkillDirs
}

// PathDenyable is implemented by every tool Tools returns (the seed's
// interface): DenyPaths adds prefixes at run time. The eight tools of one
// Tools call share a resolver, so denying through one denies for all.
type PathDenyable interface {
	DenyPaths(prefixes ...string)
}

// env is the state the eight tools share; it holds no per-call data.
type env struct {
	workspace string
	paths     *paths.Resolver
	chain     []Interceptor
	maxWrite  int64
	// hardLinks is Deps.AllowHardLinks.
	hardLinks func() bool
	// skillDirs is Deps.SkillDirs (skilldirs.go).
	skillDirs SkillDirs
}

// allowHardLinks reports the setting now.
func (e *env) allowHardLinks() bool { return e.hardLinks != nil && e.hardLinks() }

// Tools builds the eight filesystem tools.
func Tools(deps Deps) ([]tools.Tool, error) {
	e, err := newEnv(deps)
	if err != nil {
		return nil, err
	}
	builders := []func(*env) (tools.Tool, error){
		newReadFile, newWriteFile, newEdit, newListFiles,
		newSearch, newGlob, newDeleteFile, newGetFileInfo,
	}
	out := make([]tools.Tool, 0, len(builders))
	for _, build := range builders {
		t, err := build(e)
		if err != nil {
			return nil, fmt.Errorf("fs tools: %w", err)
		}
		out = append(out, denyableTool{Tool: t, paths: e.paths})
	}
	return out, nil
}

func newEnv(deps Deps) (*env, error) {
	aliases := map[string]string{}
	if deps.CacheDir != "" {
		aliases[AliasCacheDir] = deps.CacheDir
	}
	if deps.StateDir != "" {
		aliases[AliasStateDir] = deps.StateDir
	}
	deny := deps.Deny
	if deny == nil {
		deny = DefaultDeny()
	}
	res, err := paths.New(paths.Config{Workspace: deps.Workspace, Aliases: aliases, Deny: deny})
	if err != nil {
		return nil, fmt.Errorf("fs tools: %w", err)
	}
	if deps.MaxWriteBytes < 0 {
		return nil, fmt.Errorf("fs tools: MaxWriteBytes %d is negative", deps.MaxWriteBytes)
	}
	maxWrite := deps.MaxWriteBytes
	if maxWrite == 0 {
		maxWrite = DefaultMaxWriteBytes
	}
	var chain []Interceptor
	if deps.ContextFiles != nil {
		chain = append(chain, NewContextFileInterceptor(deps.ContextFiles))
	}
	for i, in := range deps.Interceptors {
		if in == nil {
			return nil, fmt.Errorf("fs tools: interceptor %d is nil", i)
		}
		chain = append(chain, in)
	}
	return &env{workspace: deps.Workspace, paths: res, chain: chain, maxWrite: maxWrite, hardLinks: deps.AllowHardLinks, skillDirs: deps.SkillDirs}, nil
}

// resolve checks an agent-supplied path against the call's workspace. On
// refusal it returns the error result to hand back and ok=false.
func (e *env) resolve(ctx context.Context, p string) (paths.Resolved, tools.Result, bool) {
	return e.resolveWith(ctx, p, e.paths.Resolve)
}

// resolveDir is resolve for directory-taking tools, where a bare alias name
// means the alias root.
func (e *env) resolveDir(ctx context.Context, p string) (paths.Resolved, tools.Result, bool) {
	return e.resolveWith(ctx, p, e.paths.ResolveDir)
}

func (e *env) resolveWith(ctx context.Context, p string, fn func(ws, p string) (paths.Resolved, error)) (paths.Resolved, tools.Result, bool) {
	res, err := fn(e.callWorkspace(ctx), p)
	if err != nil {
		return res, failure(p, "resolve", err), false
	}
	return res, tools.Result{}, true
}

// denyableTool adds DenyPaths to a built tool without touching tools.New.
type denyableTool struct {
	tools.Tool
	paths *paths.Resolver
}

func (d denyableTool) DenyPaths(prefixes ...string) { d.paths.AddDeny(prefixes...) }

// Precheck forwards the wrapped tool's check (delete_file refuses a bad
// path before anyone is asked to approve it).
func (d denyableTool) Precheck(ctx context.Context, args json.RawMessage) (tools.Result, bool) {
	if pc, ok := d.Tool.(tools.Prechecker); ok {
		return pc.Precheck(ctx, args)
	}
	return tools.Result{}, true
}
