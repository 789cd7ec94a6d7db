package podman

import (
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A Python program runs from the host's interpreter like node does, but
// Python also needs its library tree: the standard library, lib-dynload's
// extension modules and the site-packages of its environment (a venv).
// The interpreter itself says where they are (sys.path, sys.prefix); every
// extension module's shared libraries are mounted as well, found from ELF
// headers as for any binary.

// isPython reports whether a file name is a Python interpreter's
// (python, python3, python3.11).
func isPython(base string) bool {
	return strings.HasPrefix(base, "python") && strings.Trim(base[len("python"):], "0123456789.") == ""
}

// pythonLayout is what the host interpreter reports about itself.
type pythonLayout struct {
	// Venv is the virtual environment the interpreter was invoked from.
	Venv string   `json:"venv"`
	Path []string `json:"path"`
}

// pythonProbe prints the layout. It runs with -I (no PYTHONPATH, no user
// site directory: the container has neither) and -S: site.py, which would
// run the environment's .pth files — code of the untrusted server's
// packages — is not imported to run, only asked for directory names. So
// the venv (PEP 405: pyvenv.cfg beside the interpreter or one level up)
// is found here, not by site.py.
const pythonProbe = `import json, os, site, sys
exe = sys.argv[1]
venv = ""
for d in (os.path.dirname(exe), os.path.dirname(os.path.dirname(exe))):
    if os.path.isfile(os.path.join(d, "pyvenv.cfg")):
        venv = d
        break
paths = list(sys.path)
system = True
if venv:
    paths += site.getsitepackages([venv])
    with open(os.path.join(venv, "pyvenv.cfg")) as f:
        system = any(l.replace(" ", "").lower() == "include-system-site-packages=true" for l in f.read().splitlines())
if system:
    paths += site.getsitepackages()
print(json.dumps({"venv": venv, "path": [p for p in paths if p]}))
`

// maxExtensionModules bounds the shared objects scanned for libraries.
const maxExtensionModules = 4000

// python returns the argv prefix that runs the interpreter invoked as
// path (real is where its symlinks lead) and mounts its library tree.
func (r *resolver) python(path, real string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-I", "-S", "-c", pythonProbe, path) //nolint:gosec // the user's configured interpreter, asked where its files are
	cmd.Env = []string{"PATH=" + r.in.Path, "LC_ALL=C.UTF-8"}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("%s: could not ask the interpreter where its library tree is: %w", path, err)
	}
	var l pythonLayout
	if err := json.Unmarshal(out, &l); err != nil {
		return nil, fmt.Errorf("%s: unexpected answer about its library tree: %w", path, err)
	}
	r.mount(real)
	if err := r.libraries(real); err != nil {
		return nil, err
	}
	argv0 := real
	if l.Venv != "" {
		// A venv: the interpreter finds it through pyvenv.cfg beside the
		// path it was started as, so that path and the venv go in.
		argv0 = filepath.Clean(path)
		r.mount(l.Venv)
		// Its bin/python is a chain of links (python -> python3 ->
		// /usr/bin/python3 -> python3.11): every hop must exist inside.
		for _, hop := range symlinkChain(argv0) {
			r.mount(hop)
		}
	}
	var trees []string
	for _, p := range l.Path {
		if !filepath.IsAbs(p) || p == "/" || p == r.in.Home {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			continue // listed but absent (the stdlib zip, usually)
		}
		r.mount(p)
		trees = append(trees, p)
	}
	r.extensionLibraries(trees)
	r.libDirMounts = true
	return []string{argv0}, nil
}

// extensionLibraries mounts the shared libraries the extension modules
// under trees need. A module whose libraries this host lacks is skipped:
// it could not be imported on the host either.
func (r *resolver) extensionLibraries(trees []string) {
	n := 0
	for _, tree := range outermost(trees) {
		_ = filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil //nolint:nilerr // an unreadable directory is skipped, not fatal
			case d.IsDir() && d.Name() == "__pycache__":
				return filepath.SkipDir
			case d.IsDir() || !d.Type().IsRegular() || !isSharedObject(d.Name()):
				return nil
			}
			if n++; n > maxExtensionModules {
				return filepath.SkipAll
			}
			f, err := elf.Open(p)
			if err != nil {
				return nil //nolint:nilerr // not an ELF file after all
			}
			_ = r.needed(p, f, f.Class, f.Machine)
			_ = f.Close()
			return nil
		})
	}
}

// symlinkChain lists the paths a chain of symbolic links goes through,
// path first, the final file excluded.
func symlinkChain(path string) []string {
	var out []string
	for range 40 {
		target, err := os.Readlink(path)
		if err != nil {
			return out // not a link: the end
		}
		out = append(out, path)
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = filepath.Clean(target)
	}
	return out
}

func isSharedObject(name string) bool {
	return strings.HasSuffix(name, ".so") || strings.Contains(name, ".so.")
}

// pythonScriptRoot is what to mount for `python FILE`: the nearest
// directory above it that holds a Python project (pyproject.toml,
// setup.py, setup.cfg), else FILE's own directory, since a script imports
// its neighbours; never / or the home directory (then FILE alone).
func pythonScriptRoot(file, home string) string {
	dir := filepath.Dir(file)
	for d := dir; d != "/" && d != "." && d != home; d = filepath.Dir(d) {
		for _, marker := range []string{"pyproject.toml", "setup.py", "setup.cfg"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
	}
	if dir == "/" || dir == home {
		return file
	}
	return dir
}
