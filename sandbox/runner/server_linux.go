package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ServeOptions configures Serve.
type ServeOptions struct {
	// ExitGrace is how long output may keep flowing after the command's
	// process group is gone (a process that left the group with setsid can
	// hold the pipes open); then the pipes are closed. Default 2 s, the
	// host runner's WaitDelay.
	ExitGrace time.Duration
	// Logf reports accept errors; nil discards them.
	Logf func(format string, args ...any)
}

// Serve answers connections on ln until ctx is done, one goroutine per
// exec. Commands get their own process group, which is killed when the
// command exits, times out or the client hangs up, so nothing a command
// started outlives it. Orphans are reaped by the container's init (Podman's
// Init=true), whose child this process is.
func Serve(ctx context.Context, ln net.Listener, opts ServeOptions) error {
	if opts.ExitGrace <= 0 {
		opts.ExitGrace = 2 * time.Second
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			// EMFILE and friends pass; dying here would end the container.
			opts.Logf("accept: %v", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		go serveConn(ctx, conn, opts)
	}
}

// frameWriter serialises the two output pumps and the exit frame.
type frameWriter struct {
	mu   sync.Mutex
	conn net.Conn
}

func (w *frameWriter) frame(typ byte, p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return WriteFrame(w.conn, typ, p)
}

func (w *frameWriter) exit(e Exit) {
	e.Version = Version
	b, _ := json.Marshal(e)
	_ = w.frame(FrameExit, b)
}

func serveConn(ctx context.Context, conn net.Conn, opts ServeOptions) {
	defer func() { _ = conn.Close() }()
	r := bufio.NewReader(conn)
	typ, payload, err := ReadFrame(r, nil)
	if err != nil || typ != FrameRequest {
		return
	}
	w := &frameWriter{conn: conn}
	var req ExecRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		w.exit(Exit{Code: -1, Error: "bad request: " + err.Error()})
		return
	}
	if req.Ping {
		w.exit(Exit{})
		return
	}
	// The client sends nothing after its request, so a read that returns
	// means it hung up: that is the cancel signal.
	hangup := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r)
		close(hangup)
	}()
	w.exit(run(ctx, req, w, hangup, opts.ExitGrace))
}

func run(ctx context.Context, req ExecRequest, w *frameWriter, hangup <-chan struct{}, grace time.Duration) Exit {
	if req.Script != "" {
		return runScript(ctx, req, w, hangup, grace)
	}
	if len(req.Argv) == 0 || req.Argv[0] == "" {
		return Exit{Code: -1, Error: "empty command"}
	}
	path, err := lookPath(req.Argv[0], req.Env, req.Dir)
	if err != nil {
		return Exit{Code: -1, Error: err.Error()}
	}
	st, err := openStreams()
	if err != nil {
		return Exit{Code: -1, Error: err.Error()}
	}
	cmd := &exec.Cmd{
		Path: path, Args: req.Argv, Env: req.Env, Dir: req.Dir,
		Stdout: st.outW, Stderr: st.errW,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err = cmd.Start()
	st.closeWriters() // the child has its copies
	if err != nil {
		st.closeReaders()
		return Exit{Code: -1, Error: err.Error()}
	}
	st.pump(req.MaxOutput, w)

	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() { waitNoReap(pid); close(exited) }()
	var deadline <-chan time.Time
	if req.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(req.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		deadline = t.C
	}
	timedOut := false
	select {
	case <-exited:
	case <-deadline:
		timedOut = true
	case <-hangup:
	case <-ctx.Done():
	}
	// The leader is not reaped yet (WNOWAIT), so its pid, which is the group
	// id, cannot have been reused: this kill reaches only this command's group.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-exited
	waitErr := cmd.Wait()

	st.drain(grace)

	exit := Exit{Code: cmd.ProcessState.ExitCode(), TimedOut: timedOut, Truncated: st.truncated.Load()}
	if timedOut {
		exit.Code = -1
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		exit.Error = waitErr.Error()
	}
	return exit
}

// streams are one exec's stdout and stderr pipes and the pumps that
// forward them as frames.
type streams struct {
	outR, outW, errR, errW *os.File
	truncated              atomic.Bool
	pumps                  sync.WaitGroup
}

func openStreams() (*streams, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, err
	}
	return &streams{outR: outR, outW: outW, errR: errR, errW: errW}, nil
}

// pump starts forwarding up to limit bytes of each stream (0: MaxFrame).
func (s *streams) pump(limit int, w *frameWriter) {
	if limit <= 0 {
		limit = MaxFrame
	}
	s.pumps.Add(2)
	go pump(s.outR, FrameStdout, limit, w, &s.truncated, &s.pumps)
	go pump(s.errR, FrameStderr, limit, w, &s.truncated, &s.pumps)
}

func (s *streams) closeWriters() { closeAll(s.outW, s.errW) }
func (s *streams) closeReaders() { closeAll(s.outR, s.errR) }

// drain waits for the pumps, at most grace (a process that left the group
// can hold the pipes open), then closes the readers.
func (s *streams) drain(grace time.Duration) {
	drained := make(chan struct{})
	go func() { s.pumps.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(grace):
		s.closeReaders() // unblocks the pumps
		<-drained
	}
	s.closeReaders()
}

// closeAll closes pipe ends whose close errors say nothing useful (the
// other end is gone, or they were closed already).
func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// pump forwards up to limit bytes of one stream and drains the rest, so the
// command never blocks on a full pipe.
func pump(f *os.File, typ byte, limit int, w *frameWriter, truncated *atomic.Bool, wg *sync.WaitGroup) {
	defer wg.Done()
	buf := make([]byte, 32<<10)
	sent := 0
	for {
		n, err := f.Read(buf)
		if n > 0 {
			room := limit - sent
			if n > room {
				truncated.Store(true)
			}
			if m := min(n, room); m > 0 {
				// A write error means the client left; hangup handles that.
				_ = w.frame(typ, buf[:m])
				sent += m
			}
		}
		if err != nil {
			return
		}
	}
}

// waitNoReap blocks until pid exits but leaves it a zombie, keeping its pid
// (and process group id) reserved until cmd.Wait reaps it.
func waitNoReap(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// lookPath finds argv0 on the request's PATH, not the runner's own.
func lookPath(argv0 string, env []string, dir string) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if err := executable(p); err != nil {
			return "", fmt.Errorf("%s: %w", argv0, err)
		}
		return argv0, nil
	}
	pathEnv := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, argv0)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: executable file not found in $PATH", argv0)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return errors.New("not an executable file")
	}
	return nil
}
