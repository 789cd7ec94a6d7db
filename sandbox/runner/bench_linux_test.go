package runner

import (
	"context"
	"io"
	"os/exec"
	"testing"
)

// BenchmarkRunnerLocal is the runner's own overhead: the same server as in
// a container, on a socket in this process, versus a plain fork of sh.
func BenchmarkRunnerLocal(b *testing.B) {
	c := startServer(b)
	req := ExecRequest{Argv: []string{"sh", "-c", "echo hi"}, Env: testEnv}
	b.Run("runner", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Exec(context.Background(), req, io.Discard, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exec.Command", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("sh", "-c", "echo hi").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
