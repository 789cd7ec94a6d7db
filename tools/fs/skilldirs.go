package fs

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// SkillDirs lists the folders of the skills the calling agent may use
// (absolute paths; the agent and workspace come from ctx). Their files are
// readable by read_file, list_files, glob and search even outside the
// workspace, so a skill's instructions can point at {baseDir}/reference.md
// (issue 13 §5). Writing tools never see them.
type SkillDirs func(ctx context.Context) []string

// resolveRead is resolve for the read-only tools: a path the workspace
// refuses as outside may still name a file in a skill folder the agent may
// use; it is then resolved inside that folder alone.
func (e *env) resolveRead(ctx context.Context, p string, dir bool) (paths.Resolved, tools.Result, bool) {
	fn := e.paths.Resolve
	if dir {
		fn = e.paths.ResolveDir
	}
	res, err := fn(e.callWorkspace(ctx), p)
	if err == nil {
		return res, tools.Result{}, true
	}
	if errors.Is(err, paths.ErrOutsideWorkspace) {
		if sres, fail, matched := e.inSkill(ctx, p); matched {
			return sres, fail, fail.Error == nil
		}
	}
	return res, failure(p, "resolve", err), false
}

// callWorkspace is the call's workspace, or the default one.
func (e *env) callWorkspace(ctx context.Context) string {
	if ws := tools.WorkspaceFrom(ctx); ws != "" {
		return ws
	}
	return e.workspace
}

// inSkill resolves an absolute p inside the skill folder that holds it,
// with the same checks as the workspace (.. and symlinks may not leave the
// folder; os.Root enforces it again at use). matched is false when p is in
// no skill folder of the agent; a refusal inside one comes back as fail.
//
// A skill folder that is the filesystem root, or holds the workspace, is
// never a root here: a mislinked skill must not open more than the
// workspace already is.
func (e *env) inSkill(ctx context.Context, p string) (res paths.Resolved, fail tools.Result, matched bool) {
	if e.skillDirs == nil {
		return paths.Resolved{}, tools.Result{}, false
	}
	native := filepath.FromSlash(strings.ReplaceAll(p, `\`, "/"))
	if !filepath.IsAbs(native) {
		return paths.Resolved{}, tools.Result{}, false // relative paths name the workspace only
	}
	abs := filepath.Clean(native)
	ws := e.callWorkspace(ctx)
	for _, dir := range e.skillDirs(ctx) {
		if !filepath.IsAbs(dir) {
			continue
		}
		dir = filepath.Clean(dir)
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || real == filepath.Dir(real) || (ws != "" && (paths.Within(real, ws) || paths.Within(dir, ws))) {
			continue
		}
		if !paths.Within(dir, abs) && !paths.Within(real, abs) {
			continue
		}
		r, err := paths.New(paths.Config{Workspace: dir, Deny: DefaultDeny()})
		if err == nil {
			res, err = r.Resolve(dir, abs)
		}
		if err != nil {
			return paths.Resolved{}, tools.Errorf(tools.CodeSecurity, "%v (in the folder of a skill, only the folder's own files are readable)", err), true
		}
		// The skill folder stands where an alias would: messages show the
		// absolute path, and the memory and context-file interceptors,
		// which answer only for workspace paths, never claim its files.
		res.Alias = dir
		return res, tools.Result{}, true
	}
	return paths.Resolved{}, tools.Result{}, false
}
