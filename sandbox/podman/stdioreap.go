package podman

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// reap removes a stdio container once its attach client is gone, however
// it ended: the service removes a container when its program exits, but a
// program that ignores SIGTERM and EOF would outlive a killed client. The
// client is found as Warren's child process whose command line names the
// container (the exec.Cmd itself belongs to the caller, who starts it).
// When no client shows up within startTimeout (the caller failed before
// Start), the never-started container is removed.
func (m *Manager) reap(ctx context.Context, id string) {
	pid := 0
	deadline := time.Now().Add(startTimeout)
	for wait := 5 * time.Millisecond; pid == 0 && time.Now().Before(deadline); wait = min(2*wait, 250*time.Millisecond) {
		time.Sleep(wait)
		if pid = findClient(id); pid == 0 && wait == 250*time.Millisecond && m.containerGone(ctx, id) {
			return // ran and was removed between two looks
		}
	}
	for pid != 0 && clientAlive(pid, id) {
		time.Sleep(250 * time.Millisecond)
	}
	m.removeContainer(ctx, id)
}

func (m *Manager) containerGone(ctx context.Context, id string) bool {
	err := m.withAPI(ctx, func(s *session) error {
		_, err := s.api.inspect(ctx, id)
		return err
	})
	return isNotFound(err)
}

// findClient returns the pid of this process's child running `podman …
// start … ID`, or 0.
func findClient(id string) int {
	self := strconv.Itoa(os.Getpid())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == self && clientAlive(pid, id) {
				return pid
			}
		}
	}
	return 0
}

// clientAlive reports whether pid still runs the client of container id:
// its command line (empty once it is a zombie) ends with the id.
func clientAlive(pid int, id string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.HasSuffix(b, []byte("\x00"+id+"\x00"))
}

// removeContainer force-removes a container; one already gone is fine.
func (m *Manager) removeContainer(ctx context.Context, id string) {
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := m.withAPI(rctx, func(s *session) error { return s.api.remove(rctx, id) }); err != nil {
		m.log.Warn("sandbox: removing stdio container failed", "id", shortID(id), "err", err)
		return
	}
	m.log.Debug("sandbox: stdio container gone", "id", shortID(id))
}

// removeStdio removes this manager's stdio containers still there (Close).
// It does not connect just for that: without a session there are none.
func (m *Manager) removeStdio(ctx context.Context) error {
	m.connMu.Lock()
	s := m.sess
	m.connMu.Unlock()
	if s == nil {
		return nil
	}
	list, err := s.api.list(ctx, labelInstance+"="+m.instance)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range list {
		if c.Labels[labelStdio] == "1" {
			errs = append(errs, s.api.remove(ctx, c.ID))
		}
	}
	return errors.Join(errs...)
}
