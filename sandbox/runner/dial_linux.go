package runner

import (
	"context"
	"net"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// dialSocket connects to the socket at path without following a symlink
// there. The socket's directory is writable from inside the sandbox, so a
// command could swap runner.sock for a link to a host socket (Podman's
// API, an ssh agent) and have Warren connect to it. Opening the final
// component with O_PATH|O_NOFOLLOW and connecting through /proc/self/fd
// pins the socket inode itself; it also lifts the 108-byte sun_path limit.
func dialSocket(ctx context.Context, path string) (net.Conn, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer func() { _ = unix.Close(fd) }()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return nil, &os.PathError{Op: "dial", Path: path, Err: unix.ENOTSOCK}
	}
	var d net.Dialer
	return d.DialContext(ctx, "unix", "/proc/self/fd/"+strconv.Itoa(fd))
}
