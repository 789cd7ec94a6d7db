package podman

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// runnerBinary is the file name of the in-container exec service.
const runnerBinary = "warren-runner"

// FindRunner locates warren-runner (sandbox/cmd/warren-runner, built static
// by `make build` into build/bin next to warren): the explicit path if
// given, then $WARREN_RUNNER, then next to the running executable, then
// PATH. It must be a static Linux binary: it runs inside images without a
// libc.
func FindRunner(explicit string, getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var tried []string
	try := func(p string) (string, bool) {
		if p == "" {
			return "", false
		}
		tried = append(tried, p)
		fi, err := os.Stat(p)
		return p, err == nil && !fi.IsDir()
	}
	if p, ok := try(explicit); ok {
		return p, checkRunner(p)
	}
	if explicit != "" {
		return "", fmt.Errorf("runner %s not found", explicit)
	}
	if p, ok := try(getenv("WARREN_RUNNER")); ok {
		return p, checkRunner(p)
	}
	if exe, err := os.Executable(); err == nil {
		if p, ok := try(filepath.Join(filepath.Dir(exe), runnerBinary)); ok {
			return p, checkRunner(p)
		}
	}
	if p, err := exec.LookPath(runnerBinary); err == nil {
		return p, checkRunner(p)
	}
	return "", fmt.Errorf("%s not found (looked at %v, $WARREN_RUNNER and PATH): build it with `make build` or "+
		"`CGO_ENABLED=0 go build -o build/bin/warren-runner ./sandbox/cmd/warren-runner`", runnerBinary, tried)
}

// checkRunner refuses binaries that cannot start in a bare image: not ELF,
// or dynamically linked (a cgo build).
func checkRunner(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("runner %s: not a Linux executable: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("runner %s is dynamically linked: rebuild it with CGO_ENABLED=0", path)
		}
	}
	return nil
}

// installRunner copies the runner into dir, which containers mount
// read-only, so its own location (often a 0700 build or temp directory)
// need not be reachable by the container user. An identical copy is kept;
// a new one replaces it by rename, so running containers keep their inode.
func installRunner(src, dir string, o owner) error {
	want, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(dir, runnerBinary)
	if have, err := os.ReadFile(dst); err == nil && bytes.Equal(have, want) {
		return nil
	}
	tmp, err := os.CreateTemp(dir, runnerBinary+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(want)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o755), handTo(tmp.Name(), o)); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), dst)
}
