//go:build !windows

package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestHostRun(t *testing.T) {
	t.Parallel()
	h := &Host{
		Inject: map[string]string{"WARREN_INJECTED": "yes"},
		LookupEnv: func(k string) (string, bool) {
			v, ok := map[string]string{"PATH": os.Getenv("PATH"), "OPENAI_API_KEY": "sk-x"}[k]
			return v, ok
		},
	}
	ctx := context.Background()
	res, err := h.Run(ctx, Request{Argv: []string{"sh", "-c", "env; echo oops >&2; exit 3"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || !strings.Contains(res.Stderr, "oops") || res.Where != "host" {
		t.Fatalf("%+v", res)
	}
	if strings.Contains(res.Stdout, "OPENAI_API_KEY") || !strings.Contains(res.Stdout, "WARREN_INJECTED=yes") {
		t.Fatalf("environment not allowlisted: %s", res.Stdout)
	}
	res, err = h.Run(ctx, Request{Argv: []string{"sh", "-c", "yes | head -c 5000"}, MaxOutput: 100})
	if err != nil || len(res.Stdout) != 100 || !res.Truncated {
		t.Fatalf("cap: %d %v %v", len(res.Stdout), res.Truncated, err)
	}
	if _, err := h.Run(ctx, Request{}); err == nil {
		t.Fatal("empty argv accepted")
	}
	if _, err := h.Run(ctx, Request{Argv: []string{"/no/such/binary"}}); err == nil {
		t.Fatal("missing binary not reported")
	}
}

// TestHostTimeoutKillsGroup checks that a timeout kills the whole process
// group: the background grandchild dies with the command.
func TestHostTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	h := &Host{}
	pidFile := filepath.Join(t.TempDir(), "pid")
	res, err := h.Run(context.Background(), Request{Argv: []string{"sh", "-c", "sleep 30 & echo $! > " + pidFile + "; sleep 30"}, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	// The killed grandchild may stay a zombie until its new parent reaps
	// it; it must not be running.
	for range 100 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("background process %d survived the timeout", pid)
}
