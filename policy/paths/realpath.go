package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// maxLinkHops bounds dangling-link chains we follow by hand (Linux's MAXSYMLINKS).
const maxLinkHops = 40

// realPath evaluates the symlinks of the longest existing prefix of p and
// appends the not-yet-existing tail, so a path about to be created can be
// checked too. A dangling symlink is followed to its target, because writing
// through it would create the target wherever it points.
func realPath(p string) (string, error) { return evalExisting(p, 0) }

func evalExisting(p string, hops int) (string, error) {
	if hops > maxLinkHops {
		return "", fmt.Errorf("too many levels of symbolic links at %s", p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return "", err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	realParent, err := evalExisting(parent, hops)
	if err != nil {
		return "", err
	}
	joined := filepath.Join(realParent, filepath.Base(p))
	fi, err := os.Lstat(joined)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		// Missing (or under a regular file): nothing to follow; the
		// operation itself will report the problem.
		return joined, nil
	}
	target, err := os.Readlink(joined)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		// realParent has no symlinks left, so cleaning ".." lexically is exact.
		target = filepath.Join(realParent, target)
	}
	return evalExisting(target, hops+1)
}
