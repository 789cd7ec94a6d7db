package guard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxFollowWalk bounds the files a recursive, link-following reader's
// folders are searched for links; past it the command asks.
const maxFollowWalk = 20000

// errWalkLimit ends a walk that met more than maxFollowWalk entries.
var errWalkLimit = errors.New("too many files")

// followsLinks reports whether argv reads folders recursively and follows
// the symbolic links it meets inside them (grep -R, find -L, cp -rL…):
// such a program reaches wherever a link planted earlier points, which the
// words on its command line never show.
func followsLinks(argv []string) bool {
	name := filepath.Base(argv[0])
	has := func(opts ...string) bool {
		for _, a := range argv[1:] {
			if slices.Contains(opts, a) {
				return true
			}
			// Bundled short options: -RIl.
			if len(a) > 2 && a[0] == '-' && a[1] != '-' {
				for _, o := range opts {
					if len(o) == 2 && o[0] == '-' && o[1] != '-' && strings.ContainsRune(a[1:], rune(o[1])) {
						return true
					}
				}
			}
		}
		return false
	}
	switch name {
	case "grep", "egrep", "fgrep", "zgrep":
		return has("-R", "--dereference-recursive")
	case "rg":
		return has("-L", "--follow")
	case "find", "fd", "fdfind":
		return has("-L", "-follow", "--follow")
	case "cp":
		return has("-L", "--dereference") && has("-r", "-R", "--recursive", "-a")
	case "tar":
		return has("-h", "--dereference")
	case "du", "ls", "chmod", "chown", "chgrp":
		return has("-L", "--dereference")
	case "zip":
		return has("-r") && !has("-y", "--symlinks")
	case "rsync":
		return has("-L", "--copy-links")
	}
	return false
}

// linkIntoDataDir walks the folders a link-following reader is given (its
// working directory when none is) and returns a link inside them that
// leads into Warren's data directory, or why it could not tell.
func (g *Guard) linkIntoDataDir(c Command) (link string, unsure bool) {
	var roots []string
	for _, w := range pathWords(c.Argv) {
		for _, f := range resolve(c.Dir, expandHome(w)) {
			if _, err := os.Lstat(f); err == nil {
				roots = append(roots, f)
			}
		}
	}
	if len(roots) == 0 {
		roots = []string{c.Dir}
	}
	seen := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil //nolint:nilerr // an unreadable entry is not followed either
			}
			if seen++; seen > maxFollowWalk {
				return errWalkLimit
			}
			if d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if target, err := filepath.EvalSymlinks(p); err == nil && anyWithin(g.dataDir, []string{target}) {
				link = p
				return filepath.SkipAll
			}
			return nil
		})
		if link != "" {
			return link, false
		}
		if errors.Is(err, errWalkLimit) {
			return "", true
		}
	}
	return "", false
}
