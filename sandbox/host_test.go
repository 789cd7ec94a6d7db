//go:build !windows

package sandbox

import (
	"context"
	"os"
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

// TestHostTimeoutKillsGroup checks that a grandchild holding the output pipe
// does not keep a timed-out command alive.
func TestHostTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	h := &Host{}
	start := time.Now()
	res, err := h.Run(context.Background(), Request{Argv: []string{"sh", "-c", "sleep 30 & sleep 30"}, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("group not killed: took %s", time.Since(start))
	}
}
