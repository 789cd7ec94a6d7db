package cli_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/warren-dev/warren/app/cli"
	"github.com/warren-dev/warren/backend/llm/llmtest"
)

// spawnTurns are the parent's first turn: it starts a background subagent
// and answers before the subagent is done. The parent and the subagent
// call the model at the same time, so the cassette is concurrent.
func spawnTurns(child llmtest.Turn) llmtest.Cassette {
	return llmtest.Cassette{Concurrent: true, Turns: []llmtest.Turn{
		{Expect: "research the files", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "spawn",
			Arguments: []string{`{"action":"spawn","task":"count the files","label":"counter"}`}}}},
		{Expect: "sub-1 [running]", Chunks: []string{"A subagent is counting."}},
		child,
	}}
}

// slowChild is a subagent turn the model answers only after a minute, so
// the subagent is still running when the parent's turn ends.
var slowChild = llmtest.Turn{Expect: "count the files", Faults: []llmtest.Fault{{Status: 429, RetryAfter: 60}},
	Chunks: []string{"There are 3 files."}}

// TestRunWaitsForBackgroundSubagents: `warren run` does not exit when the
// parent's turn ends; the subagent finishes, its result starts a second
// parent turn, and that turn's answer is printed too.
func TestRunWaitsForBackgroundSubagents(t *testing.T) {
	t.Parallel()
	c := spawnTurns(llmtest.Turn{Expect: "count the files", Chunks: []string{"There are 3 files."}})
	c.Turns = append(c.Turns, llmtest.Turn{Expect: "[Subagent results]", Chunks: []string{"The subagent ", "counted 3 files."}})
	srv := llmtest.NewServer(t, c)
	r := warren(t, t.TempDir(), "run", "--base-url", srv.URL+"/v1", "--model", "m", "research the files with a subagent")
	if r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	first, final := strings.Index(r.stdout, "A subagent is counting.\n"), strings.Index(r.stdout, "The subagent counted 3 files.\n")
	if first < 0 || final < first {
		t.Fatalf("stdout: %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "← spawn ok") {
		t.Fatalf("stderr: %s", r.stderr)
	}
	if srv.Remaining() != 0 {
		t.Fatalf("%d turns not served", srv.Remaining())
	}
}

// TestRunNoWait: --no-wait exits when the turn ends and says which
// background subagent it cancelled.
func TestRunNoWait(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, spawnTurns(slowChild))
	r := warren(t, t.TempDir(), "run", "--no-wait", "--base-url", srv.URL+"/v1", "--model", "m", "research the files with a subagent")
	if r.code != 0 || r.stdout != "A subagent is counting.\n" {
		t.Fatalf("run: %+v", r)
	}
	if !strings.Contains(r.stderr, "cancelled 1 subagent (sub-1)") || strings.Contains(r.stderr, "waiting for") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}

// TestRunInterruptedWhileWaiting: Ctrl-C while `warren run` waits cancels
// the subagent and exits 1 saying so.
func TestRunInterruptedWhileWaiting(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, spawnTurns(slowChild))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	stderr := &interruptOn{text: "waiting for 1 subagent (sub-1) — Ctrl-C to stop", cancel: cancel}
	code := cli.Run(ctx, cli.Env{Stdout: &out, Stderr: stderr, DataDir: t.TempDir()},
		[]string{"run", "--base-url", srv.URL + "/v1", "--model", "m", "research the files with a subagent"})
	if code != cli.ExitError || !strings.Contains(stderr.String(), "interrupted while waiting: cancelled 1 subagent (sub-1)") {
		t.Fatalf("exit %d, stderr: %s", code, stderr.String())
	}
	if out.String() != "A subagent is counting.\n" {
		t.Fatalf("stdout: %q", out.String())
	}
}

// interruptOn is a stderr that cancels the command once text appears, as a
// user pressing Ctrl-C on reading it.
type interruptOn struct {
	text   string
	cancel context.CancelFunc
	mu     sync.Mutex
	buf    bytes.Buffer
}

func (w *interruptOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.text) {
		w.cancel()
	}
	return n, err
}

func (w *interruptOn) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
