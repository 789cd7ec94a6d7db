package podman

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// A sandboxed stdio program runs from the host's own files, mounted
// read-only at their host paths: the default image is busybox and carries
// no language runtime, and keeping the paths keeps shebangs, node's module
// resolution, $ORIGIN run paths and error messages meaningful.

// hostProgram is a host program made runnable inside a container.
type hostProgram struct {
	// Argv is what the container runs: absolute host paths, the
	// interpreter of a script spelled out (no /usr/bin/env lookup inside).
	Argv []string
	// ReadOnly are the host paths to mount read-only at the same path.
	ReadOnly []string
	// LibDirs hold the shared libraries mounted, in search order, for
	// LD_LIBRARY_PATH: an image has no ld.so.cache naming host directories.
	LibDirs []string
}

// programInput says which program and where to look for it.
type programInput struct {
	Command string
	Args    []string
	// Dir resolves relative paths; "" means Warren's working directory.
	Dir string
	// Path is searched for bare command names and `#!/usr/bin/env NAME`.
	Path string
	// Home is never mounted as a package root (a stray ~/package.json).
	Home string
	// LdConf is the loader configuration (default /etc/ld.so.conf).
	LdConf string
}

// scriptRuntimes take the program as their first file argument (`node
// server.js`): that file's package is mounted too.
var scriptRuntimes = map[string]bool{"node": true, "nodejs": true, "bun": true}

// treeRuntimes need a standard library tree beside the binary, which the
// sandbox does not mount for them (it does for Python, see hostpython.go);
// they fail inside with obscure errors, so they are refused with a clear one.
var treeRuntimes = []string{"ruby", "perl", "php", "java"}

// imageShells are shebang interpreters the image has itself (busybox's
// sh): mounting the host's over them would replace busybox, whose applets
// are links to one binary.
var imageShells = map[string]bool{"/bin/sh": true, "/usr/bin/sh": true, "/bin/ash": true}

// resolveProgram finds the command on the host and what must be mounted
// for it to run in a container:
//   - the program file, or its package: for a path under node_modules
//     (node_modules/.bin/x links into node_modules/pkg/…) the outermost
//     node_modules directory, since node resolves dependencies up to it;
//     for another script the nearest directory above it with a
//     package.json (a checked-out server with its own node_modules),
//     never / or the home directory; otherwise the file alone;
//   - for a script, its #! interpreter, resolved on the host (through
//     /usr/bin/env too) and mounted the same way, except /bin/sh, which
//     the image has;
//   - for a dynamically linked binary, its ELF loader and the closure of
//     its DT_NEEDED libraries, found as ld.so would (RPATH/RUNPATH with
//     $ORIGIN, ld.so.conf, the default directories).
//
// `node FILE` (and bun) also mounts FILE's package.
func resolveProgram(ctx context.Context, in programInput) (hostProgram, error) {
	r := &resolver{ctx: ctx, in: in, seen: map[string]bool{}}
	path, err := r.lookPath(in.Command)
	if err != nil {
		return hostProgram{}, err
	}
	argv, err := r.program(path, 0)
	if err != nil {
		return hostProgram{}, err
	}
	args := slices.Clone(in.Args)
	runtime := filepath.Base(argv[len(argv)-1])
	if scriptRuntimes[runtime] || isPython(runtime) {
		for i, a := range args {
			if a == "-m" || a == "-c" {
				break // a module or a command, not a file
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			if p, ok := r.regularFile(a); ok {
				args[i] = p
				if isPython(runtime) {
					r.mount(pythonScriptRoot(p, in.Home))
				} else {
					r.mount(packageRoot(p, true, in.Home))
				}
				break
			}
		}
	}
	mounts := r.mounts
	if r.libDirMounts {
		mounts = collapseLibraries(mounts, r.libDirs)
	}
	return hostProgram{Argv: append(argv, args...), ReadOnly: outermost(mounts), LibDirs: r.libDirs}, nil
}

// collapseLibraries mounts a library directory whole in place of many of
// its files (Python's extension modules need dozens of libraries; one
// read-only mount of a system directory beats a hundred file mounts).
func collapseLibraries(mounts, libDirs []string) []string {
	const many = 8
	count := map[string]int{}
	for _, m := range mounts {
		if d := filepath.Dir(m); slices.Contains(libDirs, d) {
			count[d]++
		}
	}
	out := make([]string, 0, len(mounts))
	for _, m := range mounts {
		if d := filepath.Dir(m); count[d] >= many {
			m = d
		}
		out = append(out, m)
	}
	return out
}

type resolver struct {
	ctx     context.Context
	in      programInput
	mounts  []string
	libDirs []string
	seen    map[string]bool // libraries resolved
	search  []string        // ld.so.conf and default directories, once read
	// libDirMounts mounts crowded library directories whole (Python).
	libDirMounts bool
}

func (r *resolver) mount(p string) { r.mounts = append(r.mounts, p) }

func (r *resolver) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if r.in.Dir != "" {
		return filepath.Join(r.in.Dir, p), nil
	}
	return filepath.Abs(p)
}

// lookPath finds an executable: a path (relative to Dir), or a name on Path.
func (r *resolver) lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		p, err := r.abs(name)
		if err != nil {
			return "", err
		}
		if !executable(p) {
			return "", fmt.Errorf("command not found: %s is not an executable file", p)
		}
		return p, nil
	}
	for _, d := range filepath.SplitList(r.in.Path) {
		if d == "" || !filepath.IsAbs(d) {
			continue // a relative PATH entry means nothing for a container
		}
		if p := filepath.Join(d, name); executable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("command not found: %s (searched PATH %s)", name, r.in.Path)
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// regularFile reports whether arg names an existing file, and its real path.
func (r *resolver) regularFile(arg string) (string, bool) {
	p, err := r.abs(arg)
	if err != nil {
		return "", false
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return "", false
	}
	fi, err := os.Stat(p)
	return p, err == nil && fi.Mode().IsRegular()
}

// program returns the argv prefix that runs the executable at path.
func (r *resolver) program(path string, depth int) ([]string, error) {
	if depth > 4 {
		return nil, fmt.Errorf("%s: too many nested #! interpreters", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(real)
	if isPython(base) || isPython(filepath.Base(path)) {
		return r.python(path, real)
	}
	for _, rt := range treeRuntimes {
		if base == rt || strings.HasPrefix(base, rt) && strings.Trim(base[len(rt):], "0123456789.") == "" {
			return nil, fmt.Errorf("%s needs its library tree, which the sandbox does not mount: "+
				"only node and Python servers and self-contained binaries run sandboxed for now", real)
		}
	}
	head, err := readHead(real)
	if err != nil {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		interp, iargs, err := r.shebang(real, head)
		if err != nil {
			return nil, err
		}
		prefix := []string{"/bin/sh"}
		if !imageShells[interp] {
			if prefix, err = r.program(interp, depth+1); err != nil {
				return nil, fmt.Errorf("interpreter of %s: %w", real, err)
			}
		}
		r.mount(packageRoot(real, true, r.in.Home))
		return append(append(prefix, iargs...), real), nil
	case bytes.HasPrefix(head, []byte(elf.ELFMAG)):
		r.mount(packageRoot(real, false, r.in.Home))
		if err := r.libraries(real); err != nil {
			return nil, err
		}
		return []string{real}, nil
	}
	return nil, fmt.Errorf("%s is neither a #! script nor an ELF executable", real)
}

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p) //nolint:gosec // the user's configured program
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	b := make([]byte, 256)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}

// shebang parses a #! line into the interpreter's host path and its
// arguments; `/usr/bin/env [-S] NAME ARGS` looks NAME up on Path.
func (r *resolver) shebang(script string, head []byte) (string, []string, error) {
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	f := strings.Fields(strings.TrimSpace(string(line)))
	if len(f) == 0 {
		return "", nil, fmt.Errorf("%s: empty #! line", script)
	}
	interp, args := f[0], f[1:]
	if filepath.Base(interp) != "env" {
		return interp, args, nil
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:] // -S splits (done by Fields), other flags are rare
	}
	if len(args) == 0 {
		return "", nil, fmt.Errorf("%s: #!%s names no program", script, line)
	}
	if p := "/bin/" + args[0]; imageShells[p] {
		return p, args[1:], nil
	}
	p, err := r.lookPath(args[0])
	if err != nil {
		return "", nil, fmt.Errorf("%s: #! interpreter: %w", script, err)
	}
	return p, args[1:], nil
}

// packageRoot is what to mount for a program file (see resolveProgram).
func packageRoot(file string, script bool, home string) string {
	parts := strings.Split(file, string(filepath.Separator))
	if i := slices.Index(parts, "node_modules"); i > 0 {
		return strings.Join(parts[:i+1], string(filepath.Separator))
	}
	if script {
		for d := filepath.Dir(file); d != "/" && d != "." && d != home; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
				return d
			}
		}
	}
	return file
}

// outermost sorts paths and drops those inside another one.
func outermost(paths []string) []string {
	sorted := slices.Clone(paths)
	sort.Strings(sorted)
	var out []string
	for _, p := range slices.Compact(sorted) {
		if !slices.ContainsFunc(out, func(root string) bool { return within(root, p) }) {
			out = append(out, p)
		}
	}
	return out
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}
