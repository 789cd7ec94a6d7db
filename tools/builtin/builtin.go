// Package builtin builds every built-in tool Warren ships, in one place, so
// start-up either gets a complete tool set or a clear error.
package builtin

import (
	"fmt"
	"time"

	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/credexec"
	"github.com/warren-dev/warren/tools/fs"
	"github.com/warren-dev/warren/tools/media"
	"github.com/warren-dev/warren/tools/messaging"
	"github.com/warren-dev/warren/tools/runtime"
	"github.com/warren-dev/warren/tools/system"
)

// Deps is what the built-in tools need from the rest of Warren.
type Deps struct {
	// Workspace is the default workspace when a call carries none.
	Workspace string
	// CacheDir and StateDir back the file_cache_dir/ and file_state_dir/ aliases.
	CacheDir, StateDir string
	// ContextFiles stores SOUL.md, USER.md and the other routed context files.
	ContextFiles fs.ContextFileStore
	// Memory stores MEMORY.md, memory.md and memory/**; nil leaves them on disk.
	Memory fs.MemoryStore
	// HardLinks reports whether the file tools may use hard-linked files.
	HardLinks func() bool
	// SkillDirs lists the skill folders outside the workspace the read-only
	// file tools may read for the calling agent; nil: none.
	SkillDirs fs.SkillDirs
	// Started is when Warren started.
	Started time.Time
	// Runtime wires exec and process (runners, approvals).
	Runtime runtime.Deps
	// Credentialed wires credentialed_exec.
	Credentialed credexec.Deps
	// Messaging wires the message tool (conversation, bus, OS notifier).
	Messaging messaging.Deps
	// Media wires the media tools (providers, settings); nil leaves them
	// out. Its Files is filled in here from the file tools' settings.
	Media *media.Deps
}

// Tools builds the static built-in tools.
func Tools(d Deps) ([]tools.Tool, error) {
	fsDeps := fs.Deps{
		Workspace:      d.Workspace,
		CacheDir:       d.CacheDir,
		StateDir:       d.StateDir,
		ContextFiles:   d.ContextFiles,
		AllowHardLinks: d.HardLinks,
		SkillDirs:      d.SkillDirs,
		Interceptors:   []fs.Interceptor{fs.NewMemoryInterceptor(d.Memory)},
	}
	fsTools, err := fs.Tools(fsDeps)
	if err != nil {
		return nil, fmt.Errorf("filesystem tools: %w", err)
	}
	sysTools, err := system.Tools(system.Deps{Workspace: d.Workspace, Started: d.Started})
	if err != nil {
		return nil, fmt.Errorf("system tools: %w", err)
	}
	rtTools, err := runtime.Tools(d.Runtime)
	if err != nil {
		return nil, fmt.Errorf("runtime tools: %w", err)
	}
	cred, err := credexec.New(d.Credentialed)
	if err != nil {
		return nil, err
	}
	msgTools, err := messaging.Tools(d.Messaging)
	if err != nil {
		return nil, fmt.Errorf("messaging tools: %w", err)
	}
	out := append(append(append(append(fsTools, sysTools...), rtTools...), cred), msgTools...)
	if d.Media != nil {
		mediaTools, err := mediaTools(*d.Media, fsDeps)
		if err != nil {
			return nil, err
		}
		out = append(out, mediaTools...)
	}
	return out, nil
}

// mediaTools builds the media tools on the file tools' path checks, so a
// media path is refused exactly when read_file would refuse it.
func mediaTools(d media.Deps, fsDeps fs.Deps) ([]tools.Tool, error) {
	files, err := fs.NewFiles(fsDeps)
	if err != nil {
		return nil, fmt.Errorf("media tools: %w", err)
	}
	d.Files = files
	ts, err := media.Tools(d)
	if err != nil {
		return nil, fmt.Errorf("media tools: %w", err)
	}
	return ts, nil
}

// Register builds the built-in tools into r.
func Register(r *tools.Registry, d Deps) error {
	ts, err := Tools(d)
	if err != nil {
		return err
	}
	return r.RegisterAll(ts...)
}
