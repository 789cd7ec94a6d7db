package fs

import (
	"context"
	"os"

	"github.com/warren-dev/warren/tools"
)

// Files lends other tool packages (media, browser screenshots) the file
// tools' path checks for binary files: the same resolver, deny list,
// aliases, os.Root containment and hard-link rule, without the text-only
// reads and the interceptors (context files and memory are text the fs
// tools own). Errors come back as the same results read_file gives.
type Files struct{ e *env }

// NewFiles builds a Files from the same Deps the fs tools take; Deps.Deny
// nil means DefaultDeny().
func NewFiles(deps Deps) (*Files, error) {
	deps.ContextFiles, deps.Interceptors = nil, nil
	e, err := newEnv(deps)
	if err != nil {
		return nil, err
	}
	return &Files{e: e}, nil
}

// Open checks p against the call's workspace and opens it for reading:
// only a regular file with one hard link (unless allowed) is opened, and
// only when it is at most maxBytes long (0: no limit). display is the path
// as the agent knows it. The caller closes f.
func (fl *Files) Open(ctx context.Context, p string, maxBytes int64) (f *os.File, display string, fail tools.Result, ok bool) {
	res, fail, ok := fl.e.resolve(ctx, p)
	if !ok {
		return nil, p, fail, false
	}
	r, fail, ok := fl.e.target(res, "read", false)
	if !ok {
		return nil, res.Display(), fail, false
	}
	defer r.Close() // the open file keeps working without its root
	f, fi, fail, ok := fl.e.openRegular(r, "read", os.O_RDONLY, 0)
	if !ok {
		return nil, res.Display(), fail, false
	}
	if maxBytes > 0 && fi.Size() > maxBytes {
		_ = f.Close()
		return nil, res.Display(), tools.Errorf(tools.CodeValidation, "%s is %s, over this tool's %s limit",
			res.Display(), humanBytes(fi.Size()), humanBytes(maxBytes)), false
	}
	return f, res.Display(), tools.Result{}, true
}

// Write checks p and writes data to it atomically, creating parent
// directories inside the root; an existing file is replaced.
func (fl *Files) Write(ctx context.Context, p string, data []byte) (display string, fail tools.Result, ok bool) {
	res, fail, ok := fl.e.resolve(ctx, p)
	if !ok {
		return p, fail, false
	}
	if fail, ok := fl.e.writeDisk(res, data, false); !ok {
		return res.Display(), fail, false
	}
	return res.Display(), tools.Result{}, true
}
