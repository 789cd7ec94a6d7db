package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/podman"
	"github.com/warren-dev/warren/tools"
)

// setup wires exec to the real approvals service (a bus subscriber plays
// the human and gives answer) and to a real Podman manager aimed at a socket
// that does not exist, for the "sandbox unavailable" path.
func setup(t *testing.T, answer approvals.Decision) (*tools.Registry, *approvals.Service, string) {
	t.Helper()
	ws := t.TempDir()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	bus := events.New()
	svc := approvals.New(approvals.Options{Store: approvals.NewSQLStore(db.SQL()), Bus: bus})
	ch, unsubscribe := bus.Subscribe(64)
	t.Cleanup(unsubscribe)
	go func() {
		for ev := range ch {
			if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
				svc.Answer(req.ID, answer)
			}
		}
	}()
	missing := podman.New(context.Background(), podman.Options{Endpoint: "unix:///nonexistent/podman.sock", NoAutoStart: true})
	t.Cleanup(func() { _ = missing.Close(context.Background()) })
	host := &sandbox.Host{}
	ts, err := Tools(Deps{
		Workspace: ws, Approvals: svc,
		Runner: func(_ context.Context, want string) (sandbox.Runner, error) {
			if want == "podman" {
				return &sandbox.Router{Sandbox: missing, Host: host, Fallback: sandbox.FallbackDeny}, nil
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
	return r, svc, ws
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
	r, svc, ws := setup(t, approvals.Deny)
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
		{"needs approval, denied", map[string]any{"command": "echo before; ldd /bin/true; echo after"}, tools.CallContext{}, tools.CodePermission,
			[]string{"not approved", "stopped at run time", "before"}},
		{"judged as it runs", map[string]any{"command": "X=rm; $X -rf ./scratch"}, tools.CallContext{}, tools.CodeSecurity, []string{"blocked by safety policy", "destructive"}},
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
		audit, err := svc.Audit(context.Background(), 100)
		if err != nil {
			t.Error(err)
		}
		for _, e := range audit {
			if strings.Contains(e.Summary, "rm -rf") {
				t.Errorf("a denied command reached approval: %+v", e)
			}
		}
	})
}

func TestExecApprovedAndBackground(t *testing.T) {
	t.Parallel()
	r, svc, _ := setup(t, approvals.AllowAlways)
	// A command that asks, run through a shell string whose text is only
	// known at run time: judged (and remembered) as it really runs.
	for _, cmd := range []string{`CMD="ldd /bin/true"; sh -c "$CMD"; echo ran`, `ldd /bin/true; echo ran`, `FOO=1 ldd /bin/true; echo ran`} {
		res := execCall(t, r, map[string]any{"command": cmd}, tools.CallContext{Agent: "coder"})
		if res.IsError || !strings.Contains(res.ForLLM, "ran") {
			t.Fatalf("approved command %q: %+v", cmd, res)
		}
	}
	audit, _ := svc.Audit(context.Background(), 10)
	pats, _ := svc.Patterns(context.Background())
	// Newest first: the changed environment asked again; the repeat
	// matched the stored pattern.
	if len(audit) != 3 || audit[0].DecidedBy != "user" || audit[1].DecidedBy != "pattern" || audit[2].Agent != "coder" ||
		audit[2].Decision != "allow-always" || len(pats) != 2 {
		t.Fatalf("audit %+v, patterns %+v", audit, pats)
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
