package podman

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/warren-dev/warren/policy/guard"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/script"
)

// BenchmarkExec compares where a command can run: the host runner, a warm
// sandbox (through warren-runner), `podman exec` (the CLI: API exec plus
// the client's start-up), and a cold sandbox (create + start + first
// exec). Besides ns/op it reports the median and 99th percentile.
func BenchmarkExec(b *testing.B) {
	for _, script := range []string{"true", "echo hi"} {
		b.Run("host/"+script, func(b *testing.B) {
			h := &sandbox.Host{}
			measure(b, func(int) time.Duration {
				return timed(func() {
					if _, err := h.Run(context.Background(), sandbox.Request{Argv: sh(script)}); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
	// The same scripts through Warren's interpreter with the host policy
	// judging each command: the exec tool's path since issue 10.
	ws := b.TempDir()
	judge := script.Judge{Policy: guard.New(guard.Options{Mode: guard.Host, Workspace: ws})}
	for _, src := range []string{"true", "echo hi", "ls"} {
		b.Run("host-script/"+src, func(b *testing.B) {
			h := &sandbox.Host{}
			measure(b, func(int) time.Duration {
				return timed(func() {
					res, err := h.Run(context.Background(), sandbox.Request{Script: src, Guard: judge, Dir: ws})
					if err != nil || res.ExitCode != 0 {
						b.Fatalf("%+v %v", res, err)
					}
				})
			})
		})
	}
	b.Run("host/ls", func(b *testing.B) {
		h := &sandbox.Host{}
		measure(b, func(int) time.Duration {
			return timed(func() {
				if _, err := h.Run(context.Background(), sandbox.Request{Argv: sh("ls"), Dir: ws}); err != nil {
					b.Fatal(err)
				}
			})
		})
	})
	m := newManager(b, Options{})
	for _, src := range []string{"true", "echo hi", "ls"} {
		b.Run("warm-script/"+src, func(b *testing.B) {
			run(b, m, sandbox.Request{Key: "bench", Script: src})
			measure(b, func(int) time.Duration {
				return timed(func() { run(b, m, sandbox.Request{Key: "bench", Script: src}) })
			})
		})
	}
	for _, script := range []string{"true", "echo hi"} {
		b.Run("warm/"+script, func(b *testing.B) {
			run(b, m, sandbox.Request{Key: "bench", Argv: sh(script)})
			measure(b, func(int) time.Duration {
				return timed(func() { run(b, m, sandbox.Request{Key: "bench", Argv: sh(script)}) })
			})
		})
	}
	b.Run("podman-exec/echo hi", func(b *testing.B) {
		if _, err := exec.LookPath("podman"); err != nil {
			b.Skip("no podman CLI")
		}
		id := run(b, m, sandbox.Request{Key: "bench", Argv: []string{"true"}}).Where[len("podman:"):]
		measure(b, func(int) time.Duration {
			return timed(func() {
				if out, err := exec.Command("podman", "--url", probe.uri, "exec", id, "sh", "-c", "echo hi").CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			})
		})
	})
	b.Run("cold/echo hi", func(b *testing.B) {
		measure(b, func(i int) time.Duration {
			key := fmt.Sprintf("cold-%d", i)
			d := timed(func() { run(b, m, sandbox.Request{Key: key, Argv: sh("echo hi")}) })
			b.StopTimer() // removal is not part of a cold start
			m.mu.Lock()
			bx := m.boxes[boxKey{key: key}]
			m.mu.Unlock()
			m.discard(context.Background(), bx, "benchmark")
			b.StartTimer()
			return d
		})
	})
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

// measure runs f b.N times and reports the p50 and p99 of the durations
// it returns, besides the mean.
func measure(b *testing.B, f func(i int) time.Duration) {
	b.Helper()
	var d []time.Duration
	i := 0
	for b.Loop() {
		d = append(d, f(i))
		i++
	}
	slices.Sort(d)
	if len(d) > 0 {
		b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
	}
}
