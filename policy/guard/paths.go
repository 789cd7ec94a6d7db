package guard

import (
	"github.com/warren-dev/warren/policy/paths"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// resolve makes p absolute against dir and returns it cleaned and, when it
// (or its parent) exists, with symlinks resolved.
func resolve(dir, p string) []string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	out := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if r != p {
			out = append(out, r)
		}
	} else if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		if j := filepath.Join(r, filepath.Base(p)); j != p {
			out = append(out, j)
		}
	}
	return out
}

// allWithin reports whether every form of a path (as written, resolved) is
// inside one of dirs: a symlink in the workspace pointing outside is not.
func allWithin(dirs, forms []string) bool {
	for _, p := range forms {
		if !anyWithin(dirs, []string{p}) {
			return false
		}
	}
	return len(forms) > 0
}

func anyWithin(dirs, forms []string) bool {
	for _, d := range dirs {
		for _, p := range forms {
			if paths.Within(d, p) {
				return true
			}
		}
	}
	return false
}

// writable reports whether path is in the workspace or a temp folder.
func (g *Guard) writable(path string) bool { return anyWithin(g.writeOK, resolve("/", path)) }

// writeInside reports whether writing p (relative to dir) stays in the
// workspace or a temp folder in every form.
func (g *Guard) writeInside(dir, p string) bool {
	return allWithin(g.writeOK, resolve(dir, expandHome(p)))
}

// pathWords are the words of argv that may name files: operands, option
// values after '=' (--file=x, of=x) and options glued to a path (-o/x).
func pathWords(argv []string) []string {
	var out []string
	for _, a := range argv[1:] {
		if a == "" || strings.ContainsRune(a, 0) {
			continue
		}
		out = append(out, a)
		if _, v, ok := strings.Cut(a, "="); ok && v != "" {
			out = append(out, v)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			// A value glued to a short option, maybe after others: -o/x, -vC../d.
			if i := strings.IndexAny(a[2:], "/~."); i >= 0 {
				out = append(out, a[2+i:])
			}
		}
	}
	return out
}

// dataDirUse refuses a command that runs in, or names a path in, Warren's
// data directory (on the host; the sandbox does not mount it).
func (g *Guard) dataDirUse(c Command) (Verdict, bool) {
	if g.opts.Mode != Host || len(g.dataDir) == 0 {
		return Verdict{}, false
	}
	deny := func(p string) (Verdict, bool) {
		return Verdict{Decision: Deny, Class: ClassOf(c.Argv[0]), Reason: p + " is in Warren's data directory (keys, database), which commands may not touch"}, true
	}
	if c.Dir != "" && anyWithin(g.dataDir, resolve("/", c.Dir)) {
		return deny(c.Dir)
	}
	for _, w := range pathWords(c.Argv) {
		if !strings.ContainsAny(w, `/\.`) && !g.existsIn(c.Dir, w) {
			continue // a plain word, not a file here
		}
		forms := resolve(c.Dir, expandHome(w))
		if anyWithin(g.dataDir, forms) {
			return deny(w)
		}
		for _, f := range forms {
			if secretProc(f) {
				return Verdict{Decision: Deny, Class: ClassOf(c.Argv[0]), Reason: f + " holds a process's environment or memory"}, true
			}
		}
	}
	// A symbolic link's relative target is read from the link's folder,
	// not the working directory: ln -s ../../data x/d.
	if filepath.Base(c.Argv[0]) == "ln" {
		var ops []string
		for _, a := range c.Argv[1:] {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) >= 2 {
			linkDir := filepath.Join(c.Dir, ops[len(ops)-1])
			if filepath.IsAbs(ops[len(ops)-1]) {
				linkDir = ops[len(ops)-1]
			}
			if fi, err := os.Stat(linkDir); err != nil || !fi.IsDir() {
				linkDir = filepath.Dir(linkDir)
			}
			for _, target := range ops[:len(ops)-1] {
				if !filepath.IsAbs(target) && anyWithin(g.dataDir, resolve(linkDir, target)) {
					return deny(target + " (from " + linkDir + ")")
				}
			}
		}
	}
	return Verdict{}, false
}

// holdsDataDir returns the first word of argv naming a folder that holds
// Warren's data directory (`grep -r x ..`, `tar -C ~`), or "".
func (g *Guard) holdsDataDir(c Command) string {
	if len(g.dataDir) == 0 {
		return ""
	}
	for _, w := range pathWords(c.Argv) {
		if !strings.ContainsAny(w, `/\.~`) {
			continue
		}
		for _, f := range resolve(c.Dir, expandHome(w)) {
			for _, d := range g.dataDir {
				if f != d && paths.Within(f, d) {
					if fi, err := os.Stat(f); err == nil && fi.IsDir() {
						return w
					}
				}
			}
		}
	}
	return ""
}

func (g *Guard) existsIn(dir, name string) bool {
	for _, p := range resolve(dir, name) {
		if anyWithin(g.dataDir, []string{p}) {
			return true
		}
	}
	return false
}

// expandHome reads ~/x as the user's home: a program given "~/x" literally
// does not expand it, but a careless check should not wave it through.
func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[2:])
		}
	}
	return p
}

// outsideWrite returns the first file a writer changes that is outside
// the workspace and temp folders, or "".
func (g *Guard) outsideWrite(dir string, argv []string) string {
	for _, a := range writeTargets(argv) {
		if strings.HasPrefix(a, "-") || a == "" {
			continue
		}
		if v, ok := strings.CutPrefix(a, "of="); ok && filepath.Base(argv[0]) == "dd" {
			a = v
		} else if filepath.Base(argv[0]) == "dd" && strings.Contains(a, "=") {
			continue // if=, bs=…
		}
		if a == "/dev/null" {
			continue
		}
		if !g.writeInside(dir, a) {
			return a
		}
	}
	return ""
}

// Open judges a file a redirection (or source) is about to open.
func (g *Guard) Open(dir, path string, write bool) Verdict {
	clean := path
	if !filepath.IsAbs(clean) {
		clean = filepath.Join(dir, clean)
	}
	clean = filepath.Clean(clean)
	switch {
	case strings.HasPrefix(clean, "/dev/tcp/") || strings.HasPrefix(clean, "/dev/udp/"):
		return Verdict{Decision: Deny, Reason: "opening " + clean + " would connect to the network (reverse shell)"}
	}
	for _, p := range resolve(dir, path) {
		if write && isDiskDevice(p) {
			return Verdict{Decision: Deny, Reason: "writing to the disk device " + p + " (disk destruction)"}
		}
	}
	if g.opts.Mode == Host {
		for _, p := range resolve(dir, path) {
			if secretProc(p) {
				return Verdict{Decision: Deny, Reason: p + " holds a process's environment or memory"}
			}
		}
	}
	if g.opts.Mode == Sandbox {
		return Verdict{Decision: Allow}
	}
	if len(g.dataDir) > 0 && (anyWithin(g.dataDir, resolve(dir, path)) || (dir != "" && anyWithin(g.dataDir, resolve("/", dir)))) {
		return Verdict{Decision: Deny, Reason: clean + " is in Warren's data directory (keys, database), which commands may not touch"}
	}
	if !write || isHarmlessDevice(clean) || g.writeInside(dir, path) {
		return Verdict{Decision: Allow}
	}
	return Verdict{Decision: Ask, Reason: "writes " + clean + ", outside the workspace", SandboxRuns: true}
}

// secretProc is /proc/PID/environ, /proc/self/mem and the like: Warren's
// own environment holds what the host's allowlist keeps from commands.
func secretProc(p string) bool {
	rest, ok := strings.CutPrefix(filepath.Clean(p), "/proc/")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 2 {
		return false
	}
	switch parts[len(parts)-1] {
	case "environ", "mem", "auxv", "maps", "smaps", "pagemap", "cmdline", "fd", "fdinfo":
		return strings.Trim(parts[0], "0123456789") == "" || parts[0] == "self" || parts[0] == "thread-self"
	}
	return false
}

func isDiskDevice(p string) bool {
	for _, pre := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/dm-", "/dev/md", "/dev/loop", "/dev/mapper/", "/dev/disk/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

func isHarmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// writeTargets are the words of a writer's command line that name files it
// changes: cp, install and ln change only their destination (the last
// operand or -t DIR); the others every operand (mv removes its sources).
func writeTargets(argv []string) []string {
	switch filepath.Base(argv[0]) {
	case "mv":
		out := argv[1:]
		for i, a := range argv[1:] {
			switch {
			case strings.HasPrefix(a, "-t") && !strings.HasPrefix(a, "--") && len(a) > 2:
				out = append(out, a[2:])
			case strings.HasPrefix(a, "--t") && strings.Contains(a, "="):
				out = append(out, a[strings.Index(a, "=")+1:])
			case (a == "-t" || len(a) > 3 && strings.HasPrefix("--target-directory", a)) && i+2 < len(argv):
				out = append(out, argv[i+2])
			}
		}
		return out
	case "cp", "install", "ln":
		var ops []string
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			switch {
			case a == "-t" || (len(a) > 3 && strings.HasPrefix("--target-directory", a)):
				if i+1 < len(argv) {
					return []string{argv[i+1]}
				}
			case strings.HasPrefix(a, "-t") && !strings.HasPrefix(a, "--"):
				return []string{a[2:]}
			case strings.HasPrefix(a, "--t") && strings.Contains(a, "=") && strings.HasPrefix("--target-directory", a[:strings.Index(a, "=")]):
				return []string{a[strings.Index(a, "=")+1:]}
			case a == "--":
				ops = append(ops, argv[i+1:]...)
				i = len(argv)
			case !strings.HasPrefix(a, "-"):
				ops = append(ops, a)
			}
		}
		if len(ops) == 0 {
			return nil
		}
		return ops[len(ops)-1:]
	}
	return argv[1:]
}

// outputTargets are the files and folders a read-only or build tool writes
// because of its options or operands: sort -o, gcc -o, tar -C with x, tar
// -f with c, unzip -d, gzip's operands, git init DIR, uniq IN OUT…
func outputTargets(argv []string) []string {
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	var out []string
	opt := func(short, long string) {
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			switch {
			case short != "" && a == short && i+1 < len(argv):
				out = append(out, argv[i+1])
			case short != "" && len(short) == 2 && strings.HasPrefix(a, short) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				out = append(out, a[2:])
			case long != "" && strings.HasPrefix(a, long+"="):
				out = append(out, a[len(long)+1:])
			case long != "" && a == long && i+1 < len(argv):
				out = append(out, argv[i+1])
			}
		}
	}
	operands := func() []string {
		var ops []string
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		return ops
	}
	switch name {
	case "sort":
		opt("-o", "--output")
	case "iconv", "patch", "gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "as", "go", "rustc", "javac":
		opt("-o", "--output")
		if name == "javac" {
			opt("-d", "")
		}
	case "unzip":
		opt("-d", "")
	case "tar", "gtar", "bsdtar":
		mode := ""
		if len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
			mode = argv[1] // old style: tar cf x.tar …
		}
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
				mode += a[1:]
			}
			if a == "--extract" || a == "--get" {
				mode += "x"
			}
			if a == "--create" || a == "--append" || a == "--update" {
				mode += "c"
			}
			if a == "--remove-files" {
				mode += "R"
			}
		}
		files, dirs := tarValues(argv)
		if strings.ContainsAny(mode, "x") {
			out = append(out, dirs...)
		}
		if strings.ContainsAny(mode, "cru") {
			out = append(out, files...)
		}
		if strings.Contains(mode, "R") {
			out = append(out, operands()...)
		}
	case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "zip":
		out = append(out, operands()...)
	case "uniq":
		if ops := operands(); len(ops) > 1 {
			out = append(out, ops[1])
		}
	case "git":
		sub, dir := "", ""
		for i := 1; i < len(argv); i++ {
			switch a := argv[i]; {
			case a == "-C" && i+1 < len(argv):
				dir = argv[i+1]
				i++
			case !strings.HasPrefix(a, "-") && sub == "":
				sub = a
				if rest := argv[i+1:]; sub == "init" || sub == "clone" {
					var ops []string
					for _, r := range rest {
						if !strings.HasPrefix(r, "-") {
							ops = append(ops, r)
						}
					}
					switch {
					case sub == "init" && len(ops) > 0, sub == "clone" && len(ops) > 1:
						target := ops[len(ops)-1]
						if !filepath.IsAbs(target) && dir != "" {
							target = filepath.Join(dir, target)
						}
						out = append(out, target)
					case sub == "init" && dir != "":
						out = append(out, dir)
					}
				}
				i = len(argv)
			}
		}
	case "sqlite3":
		if ops := operands(); len(ops) > 0 && ops[0] != ":memory:" {
			out = append(out, ops[0])
		}
	case "xxd":
		if slices.Contains(argv, "-r") {
			if ops := operands(); len(ops) > 1 {
				out = append(out, ops[1])
			}
		}
	}
	return out
}

// tarValues reads tar's -f FILE and -C DIR, glued or not, in clusters
// (-cf x.tar, -vC../d) and in the old style's first word (cf x.tar).
func tarValues(argv []string) (files, dirs []string) {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case strings.HasPrefix(a, "--file="):
			files = append(files, a[len("--file="):])
		case strings.HasPrefix(a, "--directory="):
			dirs = append(dirs, a[len("--directory="):])
		case (a == "--file" || a == "--directory") && i+1 < len(argv):
			if a == "--file" {
				files = append(files, argv[i+1])
			} else {
				dirs = append(dirs, argv[i+1])
			}
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") || i == 1 && !strings.HasPrefix(a, "-"):
			letters := strings.TrimPrefix(a, "-")
			for j := 0; j < len(letters); j++ {
				if letters[j] != 'f' && letters[j] != 'C' {
					continue
				}
				v := letters[j+1:]
				if v == "" && i+1 < len(argv) {
					v = argv[i+1]
					i++
				}
				if letters[j] == 'f' {
					files = append(files, v)
				} else {
					dirs = append(dirs, v)
				}
				break
			}
		}
	}
	return files, dirs
}
