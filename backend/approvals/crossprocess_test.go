package approvals_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
)

// Environment of TestApprovalChild, the second process.
const (
	childDirEnv     = "WARREN_APPROVAL_CHILD_DIR"
	childTimeoutEnv = "WARREN_APPROVAL_CHILD_TIMEOUT"
	childOutEnv     = "WARREN_APPROVAL_CHILD_OUT"
)

// TestApprovalChild is process B of TestCrossProcessApprovals: it asks one
// request as `warren mcp serve` would and writes the outcome to a file.
func TestApprovalChild(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		t.Skip("helper process")
	}
	timeout, err := time.ParseDuration(os.Getenv(childTimeoutEnv))
	if err != nil {
		t.Fatal(err)
	}
	b := openPeer(t, dir, peerOptions{process: "warren mcp serve", timeout: timeout})
	out, err := b.svc.Decide(context.Background(), sharedReq())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(out)
	if err := os.WriteFile(os.Getenv(childOutEnv), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCrossProcessApprovals: process B (a re-run of this test binary) asks;
// process A (this one) sees the request through its watcher and answers,
// or not.
func TestCrossProcessApprovals(t *testing.T) {
	t.Parallel()
	if os.Getenv(childDirEnv) != "" {
		return
	}
	type scenario struct {
		childTimeout time.Duration
		// act is what A does once the request shows up; check looks at
		// B's outcome (nil when B was killed) and A's resolution.
		act   func(t *testing.T, a peer, req approvals.Request, child *exec.Cmd)
		check func(t *testing.T, out *approvals.Outcome, res approvals.Resolution)
	}
	answer := func(d approvals.Decision) func(*testing.T, peer, approvals.Request, *exec.Cmd) {
		return func(t *testing.T, a peer, req approvals.Request, _ *exec.Cmd) {
			if !a.svc.Answer(req.ID, d) {
				t.Fatalf("answer %s lost", d)
			}
			if a.svc.Answer(req.ID, approvals.Deny) {
				t.Fatal("a second answer won")
			}
		}
	}
	for name, sc := range map[string]scenario{
		"allow once": {
			childTimeout: time.Minute,
			act:          answer(approvals.AllowOnce),
			check: func(t *testing.T, out *approvals.Outcome, res approvals.Resolution) {
				if !out.Allowed || out.Decision != approvals.AllowOnce || out.By != "user" {
					t.Fatalf("B's outcome %+v", out)
				}
				if !res.Outcome.Allowed {
					t.Fatalf("A's resolution %+v", res)
				}
			},
		},
		"deny": {
			childTimeout: time.Minute,
			act:          answer(approvals.Deny),
			check: func(t *testing.T, out *approvals.Outcome, res approvals.Resolution) {
				if out.Allowed || out.By != "user" || !strings.Contains(out.Reason, "denied by the user") {
					t.Fatalf("B's outcome %+v", out)
				}
				if res.Outcome.Allowed || res.Outcome.Decision != approvals.Deny {
					t.Fatalf("A's resolution %+v", res)
				}
			},
		},
		"nobody answers": {
			childTimeout: 1500 * time.Millisecond,
			act:          func(*testing.T, peer, approvals.Request, *exec.Cmd) {},
			check: func(t *testing.T, out *approvals.Outcome, res approvals.Resolution) {
				if out.Allowed || out.By != "timeout" {
					t.Fatalf("B's outcome %+v", out)
				}
				if res.Outcome.By != "timeout" {
					t.Fatalf("A's resolution %+v", res)
				}
			},
		},
		"asker killed": {
			childTimeout: time.Minute,
			act: func(t *testing.T, _ peer, _ approvals.Request, child *exec.Cmd) {
				if err := child.Process.Kill(); err != nil {
					t.Fatal(err)
				}
			},
			check: func(t *testing.T, out *approvals.Outcome, res approvals.Resolution) {
				if out != nil {
					t.Fatalf("a killed process wrote %+v", out)
				}
				if res.Outcome.By != "cancelled" || !strings.Contains(res.Outcome.Reason, "exited") {
					t.Fatalf("A's resolution %+v", res)
				}
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := openPeer(t, dir, peerOptions{process: "Warren window", timeout: time.Minute})
			evs := watch(t, a)
			outFile := filepath.Join(t.TempDir(), "outcome.json")
			child := exec.Command(os.Args[0], "-test.run=^TestApprovalChild$", "-test.count=1")
			child.Env = append(os.Environ(), childDirEnv+"="+dir, childTimeoutEnv+"="+sc.childTimeout.String(), childOutEnv+"="+outFile)
			var stderr strings.Builder
			child.Stdout, child.Stderr = &stderr, &stderr
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{}) // closed once B is reaped
			go func() {
				_ = child.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				_ = child.Process.Kill()
				<-exited
			})

			req := nextEvent(t, evs, approvals.TopicRequested, "").Payload.(approvals.Request)
			sameRequest(t, req, sharedReq())
			if req.Origin == nil || req.Origin.PID != child.Process.Pid || req.Origin.Process != "warren mcp serve" {
				t.Fatalf("origin %+v, want warren mcp serve (pid %d)", req.Origin, child.Process.Pid)
			}
			if p := a.svc.Pending(); len(p) != 1 || p[0].ID != req.ID || p[0].Origin == nil {
				t.Fatalf("A's queue %+v", p)
			}
			sc.act(t, a, req, child)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				t.Fatal("B never finished")
			}
			var out *approvals.Outcome
			if raw, err := os.ReadFile(outFile); err == nil {
				out = new(approvals.Outcome)
				if err := json.Unmarshal(raw, out); err != nil {
					t.Fatal(err)
				}
			} else if name != "asker killed" {
				t.Fatalf("B wrote no outcome: %v\n%s", err, stderr.String())
			}
			res := nextEvent(t, evs, approvals.TopicResolved, req.ID).Payload.(approvals.Resolution)
			sc.check(t, out, res)

			// However it ended, the request is off A's queue and a late
			// answer (a dialog left open) is a no-op.
			if p := a.svc.Pending(); len(p) != 0 {
				t.Fatalf("A still lists %+v", p)
			}
			if a.svc.Answer(req.ID, approvals.AllowOnce) {
				t.Fatal("a late answer won")
			}
			row, err := a.store.SharedRequest(context.Background(), req.ID)
			want := map[string]approvals.RequestStatus{"nobody answers": approvals.StatusExpired, "asker killed": approvals.StatusCancelled}[name]
			if want == "" {
				want = approvals.StatusAnswered
			}
			if err != nil || row.Status != want {
				t.Fatalf("row %+v %v, want status %s", row, err, want)
			}
		})
	}
}
