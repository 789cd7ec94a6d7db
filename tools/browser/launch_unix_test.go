//go:build unix

package browser

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
)

// TestLaunchDoesNotBlockOtherAgents: while one agent's Chromium is still
// starting, another agent's browser works and the manager answers; the
// first starts once its launcher goes on, and Close waits for nothing stuck.
func TestLaunchDoesNotBlockOtherAgents(t *testing.T) {
	s := newSites(t)
	real := needChromium(t)
	dir := t.TempDir()
	gate, began := filepath.Join(dir, "gate"), filepath.Join(dir, "began")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	// Chromium for the agent "slow" waits at the gate (a FIFO the test
	// opens), every other agent's starts at once.
	wrapper := filepath.Join(dir, "chromium")
	script := "#!/bin/sh\ncase \"$*\" in *slow*) : > " + began + "; read _ < " + gate + " ;; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, s.checker, approvals.Deny, 0, func(d *Deps) { d.ExecPath = wrapper })
	slow := *r
	slow.cc.Agent = "slow"
	done := make(chan string, 1)
	go func() {
		res := slow.call(t, map[string]any{"action": "open", "url": s.site.URL + "/second"})
		done <- res.ForLLM
	}()
	waitFor(t, 30*time.Second, func() bool { _, err := os.Stat(began); return err == nil })
	if n := r.m.Running(); n != 0 {
		t.Fatalf("running while the first browser starts: %d", n)
	}
	if got := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"}); !strings.Contains(got, "— Form") {
		t.Fatalf("the other agent's browser: %s", got)
	}
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("go\n")
	_ = f.Close()
	if got := <-done; !strings.Contains(got, "— Second") {
		t.Fatalf("the slow agent's browser: %s", got)
	}
	if n := r.m.Running(); n != 2 {
		t.Fatalf("running: %d, want 2", n)
	}
}
