package warren

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
)

// Two cores over one data directory, as the window and `warren tool call`:
// the CLI's delete_file waits for an answer the window gives.
func TestApprovalsAcrossCores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	openCore := func() *Warren {
		w, err := Open(ctx, Options{DataDir: dir, ApprovalTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Close() })
		return w
	}
	window, cli := openCore(), openCore()
	evs, unsubscribe := window.Bus().Subscribe(64)
	defer unsubscribe()
	wctx, stop := context.WithCancel(ctx)
	watched := make(chan error, 1)
	go func() { watched <- window.RunApprovalWatcher(wctx) }()
	defer func() {
		stop()
		if err := <-watched; err != nil {
			t.Errorf("RunApprovalWatcher: %v", err)
		}
	}()
	// The CLI knows a window would answer.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ws, err := cli.Approvals().Watchers(ctx)
		if err == nil && len(ws) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the window is not listed as a watcher: %+v %v", ws, err)
		}
		time.Sleep(20 * time.Millisecond)
	}

	call := func(name string, d approvals.Decision) (string, bool) {
		t.Helper()
		path := filepath.Join(cli.Workspace(), name)
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		type result struct {
			isErr bool
			text  string
		}
		done := make(chan result, 1)
		go func() {
			res, err := cli.CallTool(ctx, CallRequest{Name: "delete_file", Args: []byte(`{"path":"` + name + `"}`), Channel: "cli"})
			text := res.ForLLM
			if err != nil {
				text = err.Error()
			} else if res.IsError {
				text = res.Error.Message
			}
			done <- result{res.IsError || err != nil, text}
		}()
		req := waitApproval(t, evs)
		if req.Tool != "delete_file" || !strings.Contains(req.Summary, name) || req.Origin == nil ||
			req.Origin.PID != os.Getpid() || req.Origin.Process != filepath.Base(os.Args[0]) {
			t.Fatalf("request as the window sees it: %+v origin %+v", req, req.Origin)
		}
		if !window.Approvals().Answer(req.ID, d) {
			t.Fatalf("the window's %s lost", d)
		}
		r := <-done
		// The file is gone exactly when the call was allowed.
		if _, statErr := os.Stat(path); errors.Is(statErr, os.ErrNotExist) == r.isErr {
			t.Fatalf("result %+v, file stat %v", r, statErr)
		}
		return r.text, !r.isErr
	}
	if text, ok := call("a.txt", approvals.AllowOnce); !ok {
		t.Fatalf("allowed in the window, yet: %s", text)
	}
	if text, ok := call("b.txt", approvals.Deny); ok || !strings.Contains(text, "denied by the user") {
		t.Fatalf("denied in the window, yet: ok=%v %s", ok, text)
	}
}

func waitApproval(t *testing.T, ch <-chan events.Event) approvals.Request {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev := <-ch:
			if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
				return req
			}
		case <-timeout:
			t.Fatal("the window never saw the request")
		}
	}
}
