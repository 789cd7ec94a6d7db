//go:build unix

package podman

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// owner is a uid/gid pair; -1 means unknown.
type owner struct{ uid, gid int }

// pathOwner returns who owns path.
func pathOwner(path string) owner {
	fi, err := os.Stat(path)
	if err != nil {
		return owner{-1, -1}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{-1, -1}
	}
	return owner{int(st.Uid), int(st.Gid)}
}

// handTo gives path to o when Warren runs as root and the Podman service
// (hence the container user) is another user: bind-mount sources must be
// reachable from the service's user namespace, and the runner must be able
// to create its socket.
func handTo(path string, o owner) error {
	if os.Getuid() != 0 || o.uid <= 0 {
		return nil
	}
	return os.Chown(path, o.uid, o.gid)
}

// pidAlive reports whether a process exists; EPERM means it does.
func pidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// detach puts a started daemon in its own session so terminal signals to
// Warren do not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
