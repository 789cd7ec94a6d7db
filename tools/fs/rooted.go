package fs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// rooted is an os.Root opened on one allowed root plus a name inside it.
// Every disk operation of the fs tools goes through one. policy/paths gives
// the name and the refusals the model reads; the Root is what enforces them:
// its traversal refuses ".." and symlinks out of the root at the moment of
// use, so a link swapped after the check cannot lead outside.
type rooted struct {
	root    *os.Root
	name    string // Location.Name with native separators
	display string // the path as the agent knows it, for messages
}

// openRoot opens loc's root. create first makes a missing root directory
// (the first write into an alias root, or a workspace not made yet); the
// root's own path is configuration, not agent input.
func openRoot(loc paths.Location, display string, create bool) (*rooted, error) {
	if create {
		if err := os.MkdirAll(loc.Dir, 0o755); err != nil {
			return nil, err
		}
	}
	r, err := os.OpenRoot(loc.Dir)
	if err != nil {
		return nil, err
	}
	return &rooted{root: r, name: filepath.FromSlash(loc.Name), display: display}, nil
}

func (r *rooted) Close() { _ = r.root.Close() } // a directory handle: nothing to flush

// target opens the root holding what res leads to (symlinks followed).
func (e *env) target(res paths.Resolved, op string, create bool) (*rooted, tools.Result, bool) {
	r, err := openRoot(res.Target, res.Display(), create)
	if err != nil {
		return nil, failure(res.Display(), op, err), false
	}
	return r, tools.Result{}, true
}

// entry opens the root holding res's last component itself (not followed).
func (e *env) entry(res paths.Resolved, op string) (*rooted, tools.Result, bool) {
	r, err := openRoot(res.Entry, res.Display(), false)
	if err != nil {
		return nil, failure(res.Display(), op, err), false
	}
	return r, tools.Result{}, true
}

// openRegular opens r's file and refuses, before a byte is read or written,
// anything but a regular file with a single hard link (more are refused
// unless allowed). The checks run on the open descriptor, so they describe
// the very file used. nonBlock makes a FIFO open at once instead of hanging
// the call; it is then refused like any other non-regular file.
func (e *env) openRegular(r *rooted, op string, flag int, perm iofs.FileMode) (*os.File, iofs.FileInfo, tools.Result, bool) {
	f, err := r.root.OpenFile(r.name, flag|nonBlock, perm)
	if err != nil {
		return nil, nil, failure(r.display, op, err), false
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, failure(r.display, op, err), false
	}
	var fail tools.Result
	var ok bool
	switch {
	case fi.IsDir():
		fail, ok = tools.Errorf(tools.CodeValidation, "%s is a directory; use list_files to see its contents", r.display), false
	case !fi.Mode().IsRegular():
		fail, ok = tools.Errorf(tools.CodeValidation, "%s is not a regular file (%s)", r.display, fi.Mode().Type()), false
	default:
		fail, ok = e.checkLinks(f, fi, r.display)
	}
	if !ok {
		_ = f.Close()
		return nil, nil, fail, false
	}
	return f, fi, tools.Result{}, true
}

// checkLinks refuses a regular file with more than one hard link. A hard
// link is not a symlink: no root can see that it is a second name for a file
// outside the workspace (~/.ssh/id_ed25519 linked in by a shell command), so
// any file with several names is refused unless Deps.AllowHardLinks is set.
func (e *env) checkLinks(f *os.File, fi iofs.FileInfo, name string) (tools.Result, bool) {
	if e.allowHardLinks() {
		return tools.Result{}, true
	}
	n, err := linkCount(f, fi)
	if err != nil {
		return failure(name, "count the hard links of", err), false
	}
	if n > 1 {
		return hardLinked(name, n), false
	}
	return tools.Result{}, true
}

// hardLinked is the refusal of a file with n > 1 hard links.
func hardLinked(name string, n uint64) tools.Result {
	return tools.Errorf(tools.CodeSecurity,
		"%s has %d hard links, so it may be another name for a file outside the workspace; refused. "+
			"If the user wants it used, they can allow hard-linked files in the settings", name, n)
}

// readText loads r's text file, refusing directories, devices and FIFOs,
// hard-linked files, files over MaxReadBytes and binaries.
func (e *env) readText(r *rooted) (string, tools.Result, bool) {
	f, fi, fail, ok := e.openRegular(r, "read", os.O_RDONLY, 0)
	if !ok {
		return "", fail, false
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose
	if fi.Size() > MaxReadBytes {
		return "", tooBig(r.display, fi.Size()), false
	}
	// Read one byte past the cap in case the file grew since Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return "", failure(r.display, "read", err), false
	}
	if len(data) > MaxReadBytes {
		return "", tooBig(r.display, int64(len(data))), false
	}
	if isBinary(data) {
		return "", tools.Errorf(tools.CodeValidation, "%s looks like a binary file (NUL byte in the first 8 KB); only text files can be read", r.display), false
	}
	return string(data), tools.Result{}, true
}

// writeAtomic replaces r's file with data: a temp file beside it, inside the
// same root, written and synced, then renamed over the target within the
// root, so readers never see half a file and nothing is created outside. An
// existing file keeps its permissions; one that is not a regular file or
// has several hard links is refused.
func (e *env) writeAtomic(r *rooted, data []byte) (tools.Result, bool) {
	mode := iofs.FileMode(0o644)
	if f, fi, fail, ok := e.openRegular(r, "write", os.O_RDONLY, 0); ok {
		mode = fi.Mode().Perm()
		_ = f.Close() // opened only to fstat
	} else if fail.Code() != tools.CodeNotFound {
		return fail, false
	}
	tmp, tmpName, err := createTemp(r.root, filepath.Dir(r.name), mode)
	if err != nil {
		return failure(r.display, "write", err), false
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = tmp.Close()
			_ = r.root.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return failure(r.display, "write", err), false
	}
	// CreateTemp's mode went through the umask; set the one the file had.
	if err := tmp.Chmod(mode); err != nil {
		return failure(r.display, "write", err), false
	}
	if err := tmp.Sync(); err != nil {
		return failure(r.display, "write", err), false
	}
	if err := tmp.Close(); err != nil {
		return failure(r.display, "write", err), false
	}
	// rename(2) replaces the directory entry: whatever sits at the name now
	// (even a link swapped in since the check) is replaced, never followed.
	if err := r.root.Rename(tmpName, r.name); err != nil {
		return failure(r.display, "write", err), false
	}
	renamed = true
	syncDir(r.root, filepath.Dir(r.name))
	return tools.Result{}, true
}

// createTemp makes a new file in dir inside root. O_EXCL never follows a
// symlink, so a link planted at a guessed name cannot redirect the write.
func createTemp(root *os.Root, dir string, mode iofs.FileMode) (*os.File, string, error) {
	for range 10 {
		var b [8]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		name := filepath.Join(dir, ".warren-write-"+hex.EncodeToString(b[:])+".tmp")
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, iofs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("cannot find an unused temporary file name")
}

// syncDir makes a rename durable where the platform allows syncing a
// directory; failing to is not worth failing a write that already happened.
func syncDir(root *os.Root, dir string) {
	d, err := root.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// appendFile appends data to r's file, creating it when needed.
func (e *env) appendFile(r *rooted, data []byte) (tools.Result, bool) {
	f, _, fail, ok := e.openRegular(r, "write", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if !ok {
		return fail, false
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return failure(r.display, "write", err), false
	}
	if err := f.Close(); err != nil {
		return failure(r.display, "write", err), false
	}
	return tools.Result{}, true
}

// walkRooted walks the tree below r's name through the root, so a directory
// swapped for a link to the outside is not entered. fn gets the path below
// the walk's start ("" for the start itself) in slash form.
func walkRooted(r *rooted, fn func(sub string, d iofs.DirEntry, err error) error) error {
	start := filepath.ToSlash(r.name)
	return iofs.WalkDir(r.root.FS(), start, func(p string, d iofs.DirEntry, err error) error {
		sub := ""
		switch {
		case p == start:
		case start == ".":
			sub = p
		default:
			sub = p[len(start)+1:]
		}
		return fn(sub, d, err)
	})
}

// join names a file below r's name inside r's root.
func (r *rooted) join(sub string) string {
	return filepath.FromSlash(path.Join(filepath.ToSlash(r.name), sub))
}

// readDisk reads the text file res leads to, through its root.
func (e *env) readDisk(res paths.Resolved) (string, tools.Result, bool) {
	r, fail, ok := e.target(res, "read", false)
	if !ok {
		return "", fail, false
	}
	defer r.Close()
	return e.readText(r)
}
