package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
)

// fakeApprover plays the human: it records requests and answers with allow.
type fakeApprover struct {
	mu    sync.Mutex
	allow bool
	asked []approvals.Request
}

func (f *fakeApprover) Decide(_ context.Context, req approvals.Request) (approvals.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, req)
	if f.allow {
		return approvals.Outcome{Allowed: true, Decision: approvals.AllowOnce, By: "user"}, nil
	}
	return approvals.Outcome{Decision: approvals.Deny, By: "user", Reason: "denied by the user"}, nil
}

type unavailable struct{}

func (unavailable) Name() string { return "podman" }
func (unavailable) Run(context.Context, sandbox.Request) (sandbox.Result, error) {
	return sandbox.Result{}, fmt.Errorf("no podman socket: %w", sandbox.ErrUnavailable)
}

func setup(t *testing.T, allow bool) (*tools.Registry, *fakeApprover, string) {
	t.Helper()
	ws := t.TempDir()
	ap := &fakeApprover{allow: allow}
	host := &sandbox.Host{}
	ts, err := Tools(Deps{
		Workspace: ws, Approvals: ap,
		Runner: func(_ context.Context, want string) (sandbox.Runner, error) {
			if want == "podman" {
				return &sandbox.Router{Sandbox: unavailable{}, Host: host, Fallback: sandbox.FallbackDeny}, nil
			}
			return host, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r, ap, ws
}

func execCall(t *testing.T, r *tools.Registry, args map[string]any, cc tools.CallContext) tools.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: "exec", Args: raw, Context: cc})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExec(t *testing.T) {
	t.Parallel()
	r, ap, ws := setup(t, false)
	if err := os.MkdirAll(filepath.Join(ws, "scratch", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args map[string]any
		cc   tools.CallContext
		code tools.ErrorCode
		want []string
	}{
		{"stdout and stderr apart", map[string]any{"command": "echo out; echo err >&2"}, tools.CallContext{}, "",
			[]string{"exit code: 0", "ran in: host", "--- stdout ---\nout\n", "--- stderr ---\nerr\n"}},
		{"cwd", map[string]any{"command": "pwd", "cwd": "scratch/sub"}, tools.CallContext{}, "", []string{"scratch/sub\n"}},
		{"exit code", map[string]any{"command": "echo partial; exit 3"}, tools.CallContext{}, tools.CodeExecution, []string{"exited with code 3", "partial"}},
		{"blocked", map[string]any{"command": "rm -rf ./scratch"}, tools.CallContext{}, tools.CodeSecurity, []string{"blocked by safety policy", "destructive"}},
		{"blocked via wrapper", map[string]any{"command": "env rm -rf ./scratch"}, tools.CallContext{}, tools.CodeSecurity, []string{"blocked"}},
		{"needs approval, denied", map[string]any{"command": "sudo ls"}, tools.CallContext{}, tools.CodePermission, []string{"not approved"}},
		{"timeout", map[string]any{"command": "sleep 30", "timeout_seconds": 1}, tools.CallContext{}, tools.CodeTimeout, []string{"timed out"}},
		{"cwd escape", map[string]any{"command": "ls", "cwd": "../.."}, tools.CallContext{}, tools.CodeSecurity, []string{"cwd"}},
		{"empty", map[string]any{"command": "  "}, tools.CallContext{}, tools.CodeValidation, []string{"empty"}},
		{"sandbox unavailable, fallback deny", map[string]any{"command": "echo hi"}, tools.CallContext{Sandbox: "podman"}, tools.CodeExecution, []string{"sandbox unavailable", "fallback"}},
		{"output cap", map[string]any{"command": "yes | head -c 1100000"}, tools.CallContext{}, "", []string{"output truncated"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := execCall(t, r, c.args, c.cc)
			if res.Code() != c.code {
				t.Fatalf("code %q, want %q: %s", res.Code(), c.code, res.ForLLM)
			}
			for _, w := range c.want {
				if !strings.Contains(res.ForLLM, w) {
					t.Fatalf("output lacks %q:\n%s", w, res.ForLLM)
				}
			}
		})
	}
	t.Cleanup(func() {
		for _, req := range ap.asked {
			if strings.Contains(req.Summary, "rm -rf") {
				t.Errorf("a denied command reached approval: %+v", req)
			}
		}
	})
}

func TestExecApprovedAndBackground(t *testing.T) {
	t.Parallel()
	r, ap, _ := setup(t, true)
	res := execCall(t, r, map[string]any{"command": "sh -c \"$CMD\"; echo ran"}, tools.CallContext{Agent: "coder"})
	if res.IsError || !strings.Contains(res.ForLLM, "ran") {
		t.Fatalf("approved command: %+v", res)
	}
	if len(ap.asked) != 1 || ap.asked[0].Agent != "coder" || ap.asked[0].Commands != nil {
		t.Fatalf("approval request %+v (non-literal commands must not be rememberable)", ap.asked)
	}
	start := execCall(t, r, map[string]any{"command": "echo bg; sleep 30", "background": true}, tools.CallContext{})
	if start.IsError || !strings.Contains(start.ForLLM, "started background process p1") {
		t.Fatalf("background: %+v", start)
	}
	call := func(args string) tools.Result {
		res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: "process", Args: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(`{"action":"list"}`); !strings.Contains(res.ForLLM, "running") {
		t.Fatalf("list: %s", res.ForLLM)
	}
	if res := call(`{"action":"poll","id":"p1"}`); !strings.Contains(res.ForLLM, "is running") {
		t.Fatalf("poll: %s", res.ForLLM)
	}
	if res := call(`{"action":"kill","id":"p1"}`); !strings.Contains(res.ForLLM, "p1 finished") {
		t.Fatalf("kill: %+v", res)
	}
	if res := call(`{"action":"poll","id":"p9"}`); res.Code() != tools.CodeNotFound {
		t.Fatalf("unknown id: %+v", res)
	}
	if res := call(`{"action":"poll"}`); res.Code() != tools.CodeValidation {
		t.Fatalf("missing id: %+v", res)
	}
	execCall(t, r, map[string]any{"command": "echo quick", "background": true}, tools.CallContext{})
	if res := call(`{"action":"poll","id":"p2","wait_seconds":10}`); !strings.Contains(res.ForLLM, "quick") {
		t.Fatalf("poll with wait: %+v", res)
	}
}
