package runner

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// startServer runs Serve in this process on a socket in a temp dir: the
// same code the container runs, minus the container.
func startServer(t testing.TB) *Client {
	t.Helper()
	sock := filepath.Join(t.TempDir(), SocketName)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, ServeOptions{ExitGrace: 500 * time.Millisecond}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return &Client{Socket: sock}
}

var testEnv = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}

func execSh(t *testing.T, c *Client, ctx context.Context, script string, req ExecRequest) (Exit, string, string, error) {
	t.Helper()
	req.Argv = []string{"sh", "-c", script}
	if req.Env == nil {
		req.Env = testEnv
	}
	var out, errb bytes.Buffer
	exit, err := c.Exec(ctx, req, &out, &errb)
	return exit, out.String(), errb.String(), err
}

// gone reports whether pid has exited (a zombie waiting for its new parent
// counts: it runs nothing).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if gone(pid) {
			return
		}
	}
	t.Fatalf("pid %d still running", pid)
}

func TestExec(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	ctx := context.Background()
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	exit, out, errs, err := execSh(t, c, ctx, `pwd; echo "$FOO"; echo oops >&2; exit 3`,
		ExecRequest{Dir: dir, Env: append([]string{"FOO=bar"}, testEnv...)})
	if err != nil || exit.Code != 3 || out != dir+"\nbar\n" || errs != "oops\n" || exit.Version != Version {
		t.Fatalf("exit %+v out %q err %q: %v", exit, out, errs, err)
	}
	exit, _, _, err = execSh(t, c, ctx, "exit 0", ExecRequest{Env: []string{"PATH=/nonexistent"}})
	if err != nil || exit.Error == "" || exit.Code != -1 {
		t.Fatalf("missing binary: %+v %v", exit, err)
	}
	exit, out, _, err = execSh(t, c, ctx, "yes | head -c 3000000", ExecRequest{MaxOutput: 100})
	if err != nil || len(out) != 100 || !exit.Truncated || exit.Code != 0 {
		t.Fatalf("cap: %d %+v %v", len(out), exit, err)
	}
}

func TestTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	exit, out, _, err := execSh(t, c, context.Background(), "sleep 30 & echo $!; sleep 30", ExecRequest{TimeoutMS: 200})
	if err != nil || !exit.TimedOut || exit.Code != -1 {
		t.Fatalf("%+v %v", exit, err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	waitGone(t, pid)
}

// TestBackgroundDiesWithCommand: a job left running by a finished command
// would hold the output pipes and pile up across thousands of execs.
func TestBackgroundDiesWithCommand(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	// The job sleeps far longer than the guard: returning at all (no
	// deadline error) means the runner did not wait for it.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	exit, out, _, err := execSh(t, c, ctx, "sleep 300 & echo $!", ExecRequest{})
	if err != nil || exit.Code != 0 {
		t.Fatalf("%+v %v", exit, err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	waitGone(t, pid)
}

// pidWriter hands the first line a command prints to the test as a pid,
// while the command is still running (the client streams output).
type pidWriter chan int

func (w pidWriter) Write(p []byte) (int, error) {
	pid, _ := strconv.Atoi(strings.TrimSpace(string(p)))
	select {
	case w <- pid:
	default:
	}
	return len(p), nil
}

func TestCancelKills(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	pids := make(pidWriter, 1)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(ctx, ExecRequest{Argv: []string{"sh", "-c", "echo $$; exec sleep 30"}, Env: testEnv}, pids, &bytes.Buffer{})
		done <- err
	}()
	pid := <-pids
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, pid)
}

func TestConcurrentExecs(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			exit, out, _, err := execSh(t, c, context.Background(), "echo "+strconv.Itoa(i), ExecRequest{})
			if err != nil || exit.Code != 0 || out != strconv.Itoa(i)+"\n" {
				errs <- errors.New("exec " + strconv.Itoa(i) + ": " + out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestDialFailure(t *testing.T) {
	t.Parallel()
	c := &Client{Socket: filepath.Join(t.TempDir(), "none.sock")}
	if _, err := c.Exec(context.Background(), ExecRequest{Argv: []string{"true"}}, nil, nil); !errors.Is(err, ErrNoRunner) {
		t.Fatalf("err = %v", err)
	}
}

// TestDialRefusesSymlink: a command in the sandbox can write the socket's
// directory, so it could point runner.sock at a host socket.
func TestDialRefusesSymlink(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	link := filepath.Join(t.TempDir(), "link.sock")
	if err := os.Symlink(c.Socket, link); err != nil {
		t.Fatal(err)
	}
	if err := (&Client{Socket: link}).Ping(context.Background()); !errors.Is(err, ErrNoRunner) {
		t.Fatalf("followed a symlink: %v", err)
	}
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(c.Socket, filepath.Join(long, SocketName)); err == nil {
		// A path past sun_path's 108 bytes still dials.
		if err := (&Client{Socket: filepath.Join(long, SocketName)}).Ping(context.Background()); err != nil {
			t.Fatalf("long path: %v", err)
		}
	}
}
