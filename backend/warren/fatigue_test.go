//go:build linux

package warren_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
)

// Approval fatigue: a scripted, typical coding session of 50 exec commands
// asks at most maxHostAsks times on the host and never in the sandbox. The
// commands run through the real core (registry, policy, the guard judging
// every program as it runs, the approvals service); a subscriber answers
// what is asked, as a person at the window would, and the approvals audit
// counts the questions independently of the event bus.

// maxHostAsks is the budget for a typical session on the host.
const maxHostAsks = 3

// sandboxHint is what an approval says when the sandbox would not ask
// (tools/runtime/judge.go questionRequest).
const sandboxHint = "Run it in the sandbox instead"

// sessionStep is one exec call of the session and text its output must
// contain ("" checks only that it succeeded).
type sessionStep struct {
	cmd, want string
}

// Edits shared by both sessions: a heredoc that writes a new file and
// heredocs that append a test, as agents edit without an editor tool.
const (
	editNewFile = `cat > shout.go <<'EOF'
package main

import "strings"

// Shout returns the greeting for name in capitals.
func Shout(name string) string {
	return strings.ToUpper(Greet(name))
}
EOF`
	editAppendGoTest = `cat >> main_test.go <<'EOF'

func TestShout(t *testing.T) {
	if got, want := Shout("Ada"), "HELLO, ADA!"; got != want {
		t.Fatalf("Shout(Ada) = %q, want %q", got, want)
	}
}
EOF`
	editAppendJSTest = `cat >> test.js <<'EOF'
assert.strictEqual(slug('Shout!'), 'shout');
console.log('slug: shout ok');
EOF`
)

// hostSession is what a coding agent runs on a Go + JavaScript project:
// look around, build and test, branch, edit, rebuild, run, commit, merge.
var hostSession = []sessionStep{
	{"go version", "go version"},
	{"node --version", "v"},
	{"ls -la", "Makefile"},
	{"cat README.md", "make build"},
	{"git status", "On branch main"},
	{"git log --oneline -5", "Initial commit"},
	{"find . -name '*.go' -not -path './.git/*' | sort", "./main.go"},
	{"cat main.go", "func Greet"},
	{"grep -rn 'func ' --include='*.go' .", "main.go:"},
	{"sed -n '1,20p' main_test.go", "TestGreet"},
	{"find . -name '*.go' -not -path './.git/*' | xargs wc -l", "total"},
	{"head -n 12 Makefile", "build:"},
	{"cat package.json", "node test.js"},
	{"go build ./...", ""},
	{"go test ./...", "ok"},
	{"make test", "ok"},
	{"npm test", "slug: ok"},
	{"git checkout -b feature/shout", "feature/shout"},
	{"cp main.go main.go.orig", ""},
	{editNewFile, ""},
	{editAppendGoTest, ""},
	{`sed -i 's/"world"/"gopher"/' main.go`, ""},
	{"diff -u main.go.orig main.go || true", "gopher"},
	{"rm main.go.orig", ""},
	{"gofmt -l .", ""},
	{"go vet ./...", ""},
	{"go test -run TestShout -v ./...", "--- PASS: TestShout"},
	{"make build", "go build"},
	{"./bin/greet Ada", "Hello, Ada!"},
	{"ls -l bin", "greet"},
	{"mkdir -p docs", ""},
	{"echo '# Usage' > docs/usage.md", ""},
	{"printf '%s\\n' '' 'Run make build, then bin/greet NAME.' >> docs/usage.md", ""},
	{"touch CHANGELOG.md", ""},
	{"mv CHANGELOG.md docs/", ""},
	{"cat docs/usage.md", "bin/greet NAME"},
	{editAppendJSTest, ""},
	{"npm test", "slug: shout ok"},
	{"chmod +x scripts/check.sh", ""},
	{"./scripts/check.sh", "check: ok"},
	{"tail -n 6 main_test.go", "TestShout"},
	{"grep -c Shout shout.go main_test.go", "shout.go:"},
	{"grep -rhoE '[A-Z][a-z]+' --include='*.go' . | sort | uniq -c | sort -rn | head -5", "Greet"},
	{"git diff --stat", "main.go"},
	{"git add -A", ""},
	{"git status --short", "A  shout.go"},
	{"git commit -m 'Add Shout and usage docs'", "Add Shout"},
	{"git log --oneline | head -3", "Add Shout"},
	{"make clean", "rm -rf bin"},
	{"git checkout main && git merge --ff-only feature/shout", "Fast-forward"},
}

// sandboxSession is the same workflow in busybox applets, which is all
// the default sandbox image has (no go, node, git or make inside).
var sandboxSession = []sessionStep{
	{"ls -la", "Makefile"},
	{"cat README.md", "make build"},
	{"find . -name '*.go' | sort", "./main.go"},
	{"cat main.go", "func Greet"},
	{"grep -rn 'func ' .", "main.go:"},
	{"sed -n '1,20p' main_test.go", "TestGreet"},
	{"find . -name '*.go' | xargs wc -l", "total"},
	{"head -n 12 Makefile", "build:"},
	{"cat package.json", "node test.js"},
	{"wc -c slug.js test.js", "slug.js"},
	{"cp main.go main.go.orig", ""},
	{editNewFile, ""},
	{editAppendGoTest, ""},
	{`sed -i 's/"world"/"gopher"/' main.go`, ""},
	{"diff -u main.go.orig main.go || true", "gopher"},
	{"rm main.go.orig", ""},
	{"grep -n gopher main.go", "gopher"},
	{"sed -n '/^func Greet/,/^}/p' main.go", "Hello"},
	{"mkdir -p docs", ""},
	{"echo '# Usage' > docs/usage.md", ""},
	{"printf '%s\\n' '' 'Run make build, then bin/greet NAME.' >> docs/usage.md", ""},
	{"touch CHANGELOG.md", ""},
	{"mv CHANGELOG.md docs/", ""},
	{"cat docs/usage.md", "bin/greet NAME"},
	{"ls -R docs", "usage.md"},
	{editAppendJSTest, ""},
	{"grep -n assert test.js", "shout"},
	{"chmod +x scripts/check.sh", ""},
	{"./scripts/check.sh", "check: ok"},
	{"tail -n 6 main_test.go", "TestShout"},
	{"grep -c Shout shout.go main_test.go", "shout.go:"},
	{"grep -hoE '[A-Z][a-z]+' main.go shout.go main_test.go | sort | uniq -c | sort -rn | head -5", "Greet"},
	{`awk '/^func / {print FILENAME ": " $2}' main.go shout.go`, "Shout"},
	{"tr 'a-z' 'A-Z' < README.md | head -n 1", "# GREET"},
	{"md5sum main.go shout.go", "shout.go"},
	{"sort -u docs/usage.md", "Usage"},
	{"nl -ba shout.go | head -n 5", "package main"},
	{"cut -d'(' -f1 main.go | grep '^func'", "func Greet"},
	{"stat -c '%n %s' main.go shout.go", "shout.go"},
	{"du -sh .", ""},
	{"tar -czf /tmp/src.tgz *.go && tar -tzf /tmp/src.tgz", "shout.go"},
	{"ln -s main.go link.go && readlink link.go && rm link.go", "main.go"},
	{"mkdir -p build && cp *.go build/ && ls build", "shout.go"},
	{"rm -r build", ""},
	{"cmp main.go main.go && echo same", "same"},
	{`basename "$(pwd)"`, ""},
	{"date +%Y", "20"},
	{"expr 2 + 3", "5"},
	{`for f in *.go; do printf '%s ' "$f"; grep -c func "$f"; done`, "shout.go 1"},
	{"ls -la docs", "usage.md"},
}

func TestApprovalFatigue(t *testing.T) {
	if len(hostSession) != 50 || len(sandboxSession) != 50 {
		t.Fatalf("sessions have %d and %d commands, want 50 each", len(hostSession), len(sandboxSession))
	}
	t.Run("host", testFatigueHost)
	t.Run("sandbox", testFatigueSandbox)
}

func testFatigueHost(t *testing.T) {
	for _, prog := range []string{"go", "git", "make", "node", "npm"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Fatalf("the host session needs %s: %v", prog, err)
		}
	}
	ctx := context.Background()
	ws, home := t.TempDir(), t.TempDir()
	copyProject(t, ws)
	// Git's identity comes from a scratch HOME, handed to commands through
	// InjectEnv: changing GIT_* variables in a script asks, as it should.
	writeFile(t, filepath.Join(home, ".gitconfig"),
		"[user]\n\tname = Warren Test\n\temail = test@warren.invalid\n[init]\n\tdefaultBranch = main\n")
	inject := map[string]string{
		"HOME": home, "GOCACHE": goEnv(t, "GOCACHE"), "GOPATH": goEnv(t, "GOPATH"), "GOTOOLCHAIN": "local",
		"npm_config_update_notifier": "false", "npm_config_fund": "false", "npm_config_audit": "false",
	}
	setup := exec.Command("sh", "-c", "git init -q && git add -A && git commit -q -m 'Initial commit'") //nolint:gosec // fixed
	setup.Dir, setup.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("git setup: %v\n%s", err, out)
	}

	w, err := warren.Open(ctx, warren.Options{DataDir: t.TempDir(), Workspace: ws, ApprovalTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	if err := w.SetSandboxSettings(ctx, warren.SandboxSettings{InjectEnv: inject}); err != nil {
		t.Fatal(err)
	}
	ans := answerApprovals(t, w)
	asked := replaySession(t, w, warren.SandboxHost, hostSession, ans)
	for _, a := range asked {
		t.Logf("asked: %s — %s", a.Summary, a.Reason)
	}
	t.Logf("host: %d of %d commands asked (budget %d)", len(asked), len(hostSession), maxHostAsks)
	if len(asked) > maxHostAsks {
		t.Errorf("the host session asked %d times, want at most %d", len(asked), maxHostAsks)
	}
	assertAudited(t, w, len(asked))

	// A command that asks on the host but not in the sandbox says so, and a
	// "no" refuses it.
	ans.decision.Store(int32(approvals.Deny))
	before := len(ans.requests())
	res, err := callExec(ctx, w, "node -e 'console.log(1)'", warren.SandboxHost)
	if err != nil {
		t.Fatal(err)
	}
	reqs := ans.requests()[before:]
	if len(reqs) != 1 {
		t.Fatalf("node -e asked %d times, want once: %+v", len(reqs), reqs)
	}
	if !strings.Contains(reqs[0].Reason, sandboxHint) {
		t.Errorf("the approval does not point to the sandbox: %q", reqs[0].Reason)
	}
	if !res.IsError || !strings.Contains(res.ForLLM, "not approved") {
		t.Errorf("denied, yet: %+v", res)
	}
	t.Logf("a denied ask reads: %s — %s", reqs[0].Summary, reqs[0].Reason)
}

func testFatigueSandbox(t *testing.T) {
	ctx := context.Background()
	w, ws, _ := sbxWarren(t)
	copyProject(t, ws)
	// The sandbox user's service must be able to write what root copied.
	if os.Getuid() == 0 {
		var st syscall.Stat_t
		if err := syscall.Stat(ws, &st); err != nil {
			t.Fatal(err)
		}
		err := filepath.WalkDir(ws, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(st.Uid), int(st.Gid))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The sandbox is the default where Podman works: a call that names no
	// sandbox runs in it.
	if s := w.SandboxSettings(); s.Mode != warren.SandboxPodman {
		t.Fatalf("default sandbox mode %q, want %q", s.Mode, warren.SandboxPodman)
	}
	ans := answerApprovals(t, w)
	res, err := callExec(ctx, w, "true", "")
	if err != nil || res.IsError || !strings.Contains(res.ForLLM, "ran in: podman:") {
		t.Fatalf("a call without a sandbox choice: %v %+v", err, res)
	}
	asked := replaySession(t, w, warren.SandboxPodman, sandboxSession, ans)
	for _, a := range asked {
		t.Logf("asked: %s — %s", a.Summary, a.Reason)
	}
	t.Logf("sandbox: %d of %d commands asked", len(asked), len(sandboxSession))
	if len(asked) != 0 {
		t.Errorf("the sandbox session asked %d times, want never", len(asked))
	}
	assertAudited(t, w, len(asked))
}

// replaySession runs every step as one exec call where sandbox says, and
// returns the approvals asked. Every command must succeed: a session whose
// commands fail is not a typical one.
func replaySession(t *testing.T, w *warren.Warren, sandbox string, steps []sessionStep, ans *answerer) []approvals.Request {
	t.Helper()
	ctx := context.Background()
	where := "ran in: " + sandbox
	var asked []approvals.Request
	for i, s := range steps {
		before := len(ans.requests())
		res, err := callExec(ctx, w, s.cmd, sandbox)
		if err != nil {
			t.Fatalf("%d %q: %v", i+1, s.cmd, err)
		}
		reqs := ans.requests()[before:]
		asked = append(asked, reqs...)
		mark := "   "
		if len(reqs) > 0 {
			mark = "ASK"
		}
		t.Logf("%2d %s %s", i+1, mark, firstLine(s.cmd))
		switch {
		case res.IsError:
			t.Errorf("%d %q failed: %s", i+1, s.cmd, res.ForLLM)
		case !strings.Contains(res.ForLLM, where):
			t.Errorf("%d %q did not run where asked (%s): %s", i+1, s.cmd, sandbox, res.ForLLM)
		case s.want != "" && !strings.Contains(res.ForLLM, s.want):
			t.Errorf("%d %q: output lacks %q: %s", i+1, s.cmd, s.want, res.ForLLM)
		}
	}
	return asked
}

// callExec makes one exec call, waiting out the per-session rate limit
// (10 calls a second after a burst of 30) as an agent would: sandboxed
// busybox commands finish faster than a model could ask for them.
func callExec(ctx context.Context, w *warren.Warren, cmd, sandbox string) (tools.Result, error) {
	for {
		res, err := w.CallTool(ctx, warren.CallRequest{Name: "exec", Args: execArgs(cmd), Sandbox: sandbox})
		if err != nil || res.Code() != tools.CodeRateLimited {
			return res, err
		}
		time.Sleep(time.Duration(res.Error.RetryAfterMS+1) * time.Millisecond)
	}
}

// answerer answers every approval request with its decision (AllowOnce
// unless changed) and keeps the requests.
type answerer struct {
	decision atomic.Int32
	mu       sync.Mutex
	asked    []approvals.Request
}

func (a *answerer) requests() []approvals.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]approvals.Request(nil), a.asked...)
}

func answerApprovals(t *testing.T, w *warren.Warren) *answerer {
	t.Helper()
	a := &answerer{}
	a.decision.Store(int32(approvals.AllowOnce))
	evs, unsubscribe := w.Bus().Subscribe(1024)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range evs {
			req, ok := ev.Payload.(approvals.Request)
			if !ok || ev.Topic != approvals.TopicRequested {
				continue
			}
			a.mu.Lock()
			a.asked = append(a.asked, req)
			a.mu.Unlock()
			w.Approvals().Answer(req.ID, approvals.Decision(a.decision.Load()))
		}
	}()
	t.Cleanup(func() {
		unsubscribe()
		<-done
	})
	return a
}

// assertAudited checks the approvals audit holds exactly the questions the
// bus showed: a request lost on the bus would still be audited.
func assertAudited(t *testing.T, w *warren.Warren, want int) {
	t.Helper()
	entries, err := w.Approvals().Audit(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != want {
		t.Errorf("the approvals audit has %d entries, the bus showed %d requests: %+v", len(entries), want, entries)
	}
}

// copyProject copies the sample project (testdata/session/project) into
// dir; "gitignore" becomes .gitignore.
func copyProject(t *testing.T, dir string) {
	t.Helper()
	src := filepath.Join("testdata", "session", "project")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if rel == "gitignore" {
			rel = ".gitignore"
		}
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p) //nolint:gosec // test data
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644) //nolint:gosec // a project's ordinary files
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// goEnv reads one of the go command's settings, so commands run with a
// scratch HOME keep the build cache warm.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output() //nolint:gosec // fixed
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

func execArgs(cmd string) []byte {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

func firstLine(s string) string {
	if l, _, ok := strings.Cut(s, "\n"); ok {
		return l + " …"
	}
	return s
}
