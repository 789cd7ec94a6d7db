package podman

import (
	"bufio"
	"bytes"
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
//
// Finding the tree must not run anything of the untrusted server on the
// host. So the venv (PEP 405: pyvenv.cfg beside the interpreter or one
// level up) is read here, not by Python; the interpreter it leads to must
// be a system binary (owned by root, writable by nobody else) outside the
// venv; and only that binary is asked, by its own path, where its standard
// library and site-packages are — with -I -S, so no environment variable,
// user site directory, site.py or .pth file plays a part.

// isPython reports whether a file name is a Python interpreter's
// (python, python3, python3.11).
func isPython(base string) bool {
	return strings.HasPrefix(base, "python") && strings.Trim(base[len("python"):], "0123456789.") == ""
}

// pythonLayout is what the system interpreter reports about itself.
type pythonLayout struct {
	Version string   `json:"version"` // "3.11"
	Stdlib  []string `json:"stdlib"`  // sys.path without site
	Site    []string `json:"site"`    // the system site-packages
}

const pythonProbe = `import json, site, sys
print(json.dumps({"version": "%d.%d" % sys.version_info[:2], "stdlib": [p for p in sys.path if p],
    "site": site.getsitepackages()}))`

// maxExtensionModules bounds the shared objects scanned for libraries.
const maxExtensionModules = 4000

// python returns the argv prefix that runs the interpreter invoked as
// path (real is where its symlinks lead) and mounts its library tree.
func (r *resolver) python(path, real string) ([]string, error) {
	venv, cfg, err := findVenv(path)
	if err != nil {
		return nil, err
	}
	if venv != "" && within(venv, real) {
		return nil, fmt.Errorf("%s: the venv's interpreter is a copy inside it (python -m venv --copies); "+
			"make the venv with links to a system Python, which Warren can trust to run on the host", path)
	}
	if err := trustedInterpreter(real); err != nil {
		return nil, err
	}
	l, err := probePython(r.ctx, real)
	if err != nil {
		return nil, err
	}
	r.mount(real)
	if err := r.libraries(real); err != nil {
		return nil, err
	}
	argv0 := real
	trees := append([]string(nil), l.Stdlib...)
	if venv == "" || strings.EqualFold(cfg["include-system-site-packages"], "true") {
		trees = append(trees, l.Site...)
	}
	if venv != "" {
		// The interpreter finds its venv through pyvenv.cfg beside the path
		// it was started as, so that path, the venv and every link on the
		// way (python -> python3 -> /usr/bin/python3 -> python3.11) go in.
		argv0 = filepath.Clean(path)
		r.mount(venv)
		for _, hop := range symlinkChain(argv0) {
			r.mount(hop)
		}
		trees = append(trees, filepath.Join(venv, "lib", "python"+l.Version, "site-packages"))
	}
	var mounted []string
	for _, p := range trees {
		if !filepath.IsAbs(p) || p == "/" || within(p, r.in.Home) {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			continue // listed but absent (the stdlib zip, usually)
		}
		r.mount(p)
		mounted = append(mounted, p)
	}
	r.extensionLibraries(mounted)
	r.libDirMounts = true
	return []string{argv0}, nil
}

// findVenv looks for pyvenv.cfg beside the interpreter path or one level
// up and reads its key = value lines.
func findVenv(path string) (string, map[string]string, error) {
	dir := filepath.Dir(filepath.Clean(path))
	for _, d := range []string{dir, filepath.Dir(dir)} {
		data, err := os.ReadFile(filepath.Join(d, "pyvenv.cfg")) //nolint:gosec // the venv's own config, read, never run
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", d, err)
		}
		cfg := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				cfg[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
		}
		return d, cfg, nil
	}
	return "", nil, nil
}

// trustedInterpreter accepts a Python binary Warren may run on the host
// to ask for its layout: an ELF file owned by root that no one else can
// change — a system interpreter, not one a server's files brought along.
func trustedInterpreter(real string) error {
	head, err := readHead(real)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		return fmt.Errorf("%s is not a Python binary; a sandboxed Python server must use a system interpreter or a venv made from one", real)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err
	}
	if pathOwner(real).uid != 0 || fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is not a system interpreter (owned by root, writable by no one else): "+
			"Warren asks the interpreter of a sandboxed server where its library is, on the host, so it must be "+
			"one installed by the system; use the system python3 or a venv made from it", real)
	}
	return nil
}

// probePython asks a trusted interpreter for its standard library and
// site-packages directories.
func probePython(ctx context.Context, real string) (pythonLayout, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, real, "-I", "-S", "-c", pythonProbe) //nolint:gosec // a root-owned system interpreter (trustedInterpreter)
	cmd.Env, cmd.Dir = []string{"LC_ALL=C.UTF-8"}, "/"
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return pythonLayout{}, fmt.Errorf("%s: could not ask the interpreter where its library tree is: %w", real, err)
	}
	var l pythonLayout
	if err := json.Unmarshal(out, &l); err != nil || l.Version == "" {
		return pythonLayout{}, fmt.Errorf("%s: unexpected answer about its library tree: %q", real, out)
	}
	return l, nil
}

// extensionLibraries mounts the shared libraries the extension modules
// under trees need. A module whose libraries this host lacks is skipped:
// it could not be imported on the host either.
func (r *resolver) extensionLibraries(trees []string) {
	n := 0
	for _, tree := range outermost(trees) {
		_ = filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
			switch {
			case r.ctx.Err() != nil:
				return filepath.SkipAll
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
// setup.py, setup.cfg) — never /, /tmp, the home directory or one above
// it — else FILE alone, as for node.
func pythonScriptRoot(file, home string) string {
	for d := filepath.Dir(file); d != "/" && d != "." && d != "/tmp" && !within(d, home); d = filepath.Dir(d) {
		for _, marker := range []string{"pyproject.toml", "setup.py", "setup.cfg"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
	}
	return file
}
