//go:build linux

package warren_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/sandbox/podman"
	"github.com/warren-dev/warren/tools/ratelimit"
)

// TestAttackCorpus runs every case of testdata/attacks for real through
// the core (warren.Open, then CallTool "exec") against scratch folders, on
// the host with approvals in deny mode and in the rootless Podman sandbox,
// and checks what each command really did: a victim folder inside the
// workspace and one outside it, marker files, a scratch HOME, Warren's data
// directory and a data canary, a loopback listener and a scratch loop
// device. Known holes are cases marked `gap`: they are reported, not
// failed, until the lead fixes them and flips the expectation. Benign
// look-alikes must run without asking. Set ATTACK_REPORT=FILE.json to write
// the per-case results as JSON to FILE-<test name>.json (docs/security.md's
// table comes from it).
func TestAttackCorpus(t *testing.T) {
	attacks, benign := loadAttackCorpus(t)
	if len(attacks) < 150 || len(benign) < 50 {
		t.Fatalf("corpus too small: %d attacks, %d benign", len(attacks), len(benign))
	}
	env := newAttackEnv(t)
	t.Run("host", func(t *testing.T) {
		for _, c := range attacks {
			t.Run(c.ID, func(t *testing.T) {
				t.Parallel()
				env.hostAttack(t, c, "deny")
			})
		}
	})
	t.Run("host-benign", func(t *testing.T) {
		for _, c := range benign {
			t.Run(c.ID, func(t *testing.T) {
				t.Parallel()
				env.hostBenign(t, c)
			})
		}
	})
	t.Run("podman", func(t *testing.T) {
		pod := env.podman(t)
		for _, c := range attacks {
			t.Run(c.ID, func(t *testing.T) {
				t.Parallel()
				pod.attack(t, env, c)
			})
		}
		for _, c := range benign {
			t.Run("benign-"+c.ID, func(t *testing.T) {
				t.Parallel()
				pod.benign(t, env, c)
			})
		}
	})
	env.log.report(t)
}

// TestAttackCorpusLive is the control experiment: the host cases run again
// with every approval granted, to show each attack is real (it has an
// effect once allowed) and the detectors see it; denied ones stay blocked,
// since an approval never un-denies. Cases marked live "no" (system
// control, disks, daemons) are never run this way. It only logs.
func TestAttackCorpusLive(t *testing.T) {
	attacks, _ := loadAttackCorpus(t)
	env := newAttackEnv(t)
	t.Run("host", func(t *testing.T) {
		for _, c := range attacks {
			if c.Live == "no" || c.ExpectHost == "skip" {
				continue
			}
			t.Run(c.ID, func(t *testing.T) {
				t.Parallel()
				env.hostAttack(t, c, "live")
			})
		}
	})
	env.log.report(t)
}

// attackEnv is what every case shares.
type attackEnv struct {
	base string
	fake string
	// path is the host commands' PATH: system folders and Go's, nothing
	// from the tester's shell (pyenv shims and the like).
	path string
	log  *attackLog
}

func newAttackEnv(t *testing.T) *attackEnv {
	t.Helper()
	env := &attackEnv{base: attackBase(t), log: &attackLog{}}
	bin := filepath.Join(env.base, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	if env.fake, err = attackGoBuild(bin, "fake", attackFakeSource); err != nil {
		t.Fatal(err)
	}
	dirs := []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}
	if goBin, err := exec.LookPath("go"); err == nil {
		dirs = append([]string{filepath.Dir(goBin)}, dirs...)
	}
	env.path = strings.Join(dirs, ":")
	return env
}

// hostScratch lays out base/<kind>/<id>/{ws,outside,home,data}.
func (env *attackEnv) hostScratch(t *testing.T, kind, id string, needs []string) *attackScratch {
	t.Helper()
	root := filepath.Join(env.base, kind, id)
	s := &attackScratch{
		ws: filepath.Join(root, "ws"), outside: filepath.Join(root, "outside"),
		home: filepath.Join(root, "home"), data: filepath.Join(root, "data"),
		canary: "WARRENCANARY" + attackWord(16), ln: newAttackListener(t),
	}
	s.inner = s.ws
	for _, d := range []string{s.ws, s.outside, s.data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range needs {
		switch n {
		case "disk":
			if os.Getuid() != 0 {
				t.Skip("a scratch loop device needs root")
			}
			s.disk = attackDisk(t, root)
		default:
			if _, err := attackLookPath(n, env.path); err != nil {
				t.Skipf("%s is not installed here", n)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(s.data, "canary.txt"), []byte("the canary word is "+s.canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.vars = attackVars(s, s.ws, s.ln.port())
	return s
}

func attackVars(s *attackScratch, inner, port string) map[string]string {
	rel, _ := filepath.Rel(s.ws, s.data)
	disk := s.disk
	if disk == "" {
		disk = "/dev/loop0" // never written: only cases that need "disk" get one
	}
	return map[string]string{
		"WS": inner, "VICTIM": inner + "/victim", "MARKER": inner + "/PWNED", "FAKEBIN": inner + "/fakebin",
		"OUTSIDE": s.outside, "OMARKER": s.outside + "/PWNED", "HOME": s.home,
		"DATA": s.data, "DATAREL": rel, "PORT": port, "DISK": disk,
	}
}

func attackLookPath(name, path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// openHost opens a Warren over the scratch folders that runs commands on
// the host with HOME pointing at the scratch home. approve is "deny"
// (every question refused) or "live" (every question granted).
func (env *attackEnv) openHost(t *testing.T, s *attackScratch, approve string) *warren.Warren {
	t.Helper()
	ctx := context.Background()
	w, err := warren.Open(ctx, warren.Options{DataDir: s.data, Workspace: s.ws, RateLimit: &ratelimit.Config{}, ApprovalTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	mode := "deny"
	if approve == "live" {
		mode = "ask"
		attackGrantAll(t, w)
	}
	if err := w.SetApprovalMode(ctx, mode); err != nil {
		t.Fatal(err)
	}
	settings := warren.SandboxSettings{Mode: warren.SandboxHost, InjectEnv: map[string]string{"HOME": s.home, "PATH": env.path}}
	if err := w.SetSandboxSettings(ctx, settings); err != nil {
		t.Fatal(err)
	}
	if s.key, err = os.ReadFile(filepath.Join(s.data, "master.key")); err != nil {
		t.Fatal(err)
	}
	return w
}

// attackGrantAll answers every approval request of w with "allow once".
func attackGrantAll(t *testing.T, w *warren.Warren) {
	evs, unsubscribe := w.Bus().Subscribe(64)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case ev := <-evs:
				if req, ok := ev.Payload.(approvals.Request); ok && ev.Topic == approvals.TopicRequested {
					w.Approvals().Answer(req.ID, approvals.AllowOnce)
				}
			case <-done:
				return
			}
		}
	}()
	t.Cleanup(func() { close(done); unsubscribe() })
}

// hostAttack runs one attack on the host.
func (env *attackEnv) hostAttack(t *testing.T, c attackCase, approve string) {
	if c.ExpectHost == "skip" {
		env.log.add(attackRow{c.ID, c.Category, "host", "skip", "", nil, c.Notes})
		t.Skip(c.Notes)
	}
	kind := "host"
	if approve == "live" {
		kind = "live"
	}
	s := env.hostScratch(t, kind, c.ID, c.Needs)
	s.plant(t, env, c.Setup)
	w := env.openHost(t, s, approve)
	call := func(cmd string) (string, string) {
		res, err := w.CallTool(context.Background(), warren.CallRequest{Name: "exec", Args: attackArgs(s.expand(cmd), "", 20), Sandbox: warren.SandboxHost})
		if err != nil {
			return "error", err.Error()
		}
		return attackOutcome(res, err), res.ForLLM + "\n" + res.ForUser
	}
	s.snapshotAll(t)
	for _, p := range c.Pre {
		if o, text := call(p); o != "ran" || strings.Contains(text, "exited with code") {
			t.Fatalf("pre step %q did not run cleanly (%s):\n%s", p, o, text)
		}
	}
	o, text := call(c.Command)
	eff := s.effects(t, text, true)
	s.releaseFifos()
	place := kind
	if approve == "live" {
		verdict := "inert"
		switch {
		case len(eff) > 0:
			verdict = "live"
		case o == "blocked":
			verdict = "blocked"
		}
		env.log.add(attackRow{c.ID, c.Category, place, verdict, o, eff, c.Notes})
		t.Logf("%s (%s): %v", verdict, o, eff)
		return
	}
	env.judge(t, c, place, c.ExpectHost, o, eff, text)
	want := c.HostOutcome
	if c.ExpectHost == "gap" || want == "any" {
		return
	}
	if want == "" {
		want = "refused"
	}
	if (want == "refused" && o != "blocked" && o != "asked") || (want == "blocked" && o != "blocked") {
		t.Errorf("host answered %s, want %s:\n%s", o, want, text)
	}
}

// judge checks a case's effects against its expectation and records it.
func (env *attackEnv) judge(t *testing.T, c attackCase, place, expect, o string, eff []string, text string) {
	t.Helper()
	r := attackRow{c.ID, c.Category, place, "", o, eff, c.Notes}
	switch {
	case expect == "gap" && len(eff) > 0:
		r.Verdict = "gap"
		t.Logf("KNOWN GAP (%s): %s\ncommand: %s", o, strings.Join(eff, "; "), c.Command)
	case expect == "gap":
		r.Verdict = "gap-closed"
		t.Logf("known gap had no effect this time (%s): flip its expectation once the fix is in\n%s", o, text)
	case len(eff) > 0:
		r.Verdict = "FAIL"
		t.Errorf("HOLE on %s (%s): %s\ncommand: %s\n%s", place, o, strings.Join(eff, "; "), c.Command, text)
	case expect == "contained" && o == "ran":
		r.Verdict = "contained"
	case o == "blocked":
		r.Verdict = "blocked"
	case o == "asked":
		r.Verdict = "asked-refused"
	default:
		r.Verdict = "no-effect"
	}
	env.log.add(r)
}

// hostBenign runs a look-alike on the host with approvals in deny mode:
// it must run, unasked, and succeed.
func (env *attackEnv) hostBenign(t *testing.T, c attackBenign) {
	if len(c.Places) > 0 && !slices.Contains(c.Places, "host") {
		t.Skip("podman only")
	}
	s := env.hostScratch(t, "benign", c.ID, c.Needs)
	s.plant(t, env, c.Setup)
	w := env.openHost(t, s, "deny")
	env.benignRun(t, c, "host", func(cmd string) (string, string, bool) {
		res, err := w.CallTool(context.Background(), warren.CallRequest{Name: "exec", Args: attackArgs(s.expand(cmd), "", 60), Sandbox: warren.SandboxHost})
		if err != nil {
			return "error", err.Error(), true
		}
		return attackOutcome(res, err), res.ForLLM, res.IsError
	})
}

func (env *attackEnv) benignRun(t *testing.T, c attackBenign, place string, call func(string) (string, string, bool)) {
	t.Helper()
	for _, p := range c.Pre {
		if o, text, isErr := call(p); o != "ran" || isErr {
			t.Fatalf("pre step %q: %s\n%s", p, o, text)
		}
	}
	o, text, isErr := call(c.Command)
	r := attackRow{c.ID, "benign", place, "ran", o, nil, c.Notes}
	if o != "ran" || isErr || (c.Stdout != "" && !strings.Contains(text, c.Stdout)) {
		r.Verdict = "FAIL"
		t.Errorf("benign command did not run cleanly on %s (%s): %s\n%s", place, o, c.Command, text)
	}
	env.log.add(r)
}

// attackPod is the shared Podman side: one Warren, one workspace with a
// folder per case (one container serves them all), one data directory.
// The container has no network, so no case's listener can be reached.
type attackPod struct {
	w              *warren.Warren
	ws, data, root string
	canary         string
	key            []byte
	uid, gid       int
}

// podman opens the Podman side, skipping or failing as the other sandbox
// tests do (mcpsandbox_test.go's sbxWarren): skip where no Podman answers,
// fail where the machine was set up for the sandbox.
func (env *attackEnv) podman(t *testing.T) *attackPod {
	t.Helper()
	ctx := context.Background()
	p := &attackPod{root: filepath.Join(env.base, "pod"), canary: "WARRENCANARY" + attackWord(16)}
	p.ws, p.data = filepath.Join(p.root, "ws"), filepath.Join(p.root, "data")
	for _, d := range []string{p.ws, p.data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(p.data, "canary.txt"), []byte("the canary word is "+p.canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := warren.Open(ctx, warren.Options{DataDir: p.data, Workspace: p.ws, RateLimit: &ratelimit.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	p.w = w
	st := w.SandboxStatus(ctx).Podman
	if !st.Connected {
		msg := "no Podman service answered (" + st.Error + "); run scripts/podman-setup.sh as root to set one up"
		if _, err := os.Stat(podman.DefaultEnvFile); err == nil || os.Getenv("WARREN_REQUIRE_PODMAN") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	p.uid, p.gid = os.Getuid(), os.Getgid()
	if u, err := url.Parse(st.Endpoint); err == nil && u.Scheme == "unix" && os.Getuid() == 0 {
		var fi syscall.Stat_t
		if err := syscall.Stat(u.Path, &fi); err == nil {
			p.uid, p.gid = int(fi.Uid), int(fi.Gid)
		}
	}
	if err := os.Chown(p.ws, p.uid, p.gid); err != nil {
		t.Fatal(err)
	}
	if p.key, err = os.ReadFile(filepath.Join(p.data, "master.key")); err != nil {
		t.Fatal(err)
	}
	return p
}

// scratch gives a case its folder in the shared workspace and its own
// outside and home folders on the host.
func (p *attackPod) scratch(t *testing.T, env *attackEnv, id string, items []attackSetup) *attackScratch {
	t.Helper()
	s := &attackScratch{
		ws: filepath.Join(p.ws, id), inner: "/workspace/" + id,
		outside: filepath.Join(p.root, "outside", id), home: filepath.Join(p.root, "home", id),
		data: p.data, canary: p.canary, key: p.key, ln: newAttackListener(t),
	}
	for _, d := range []string{s.ws, s.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.vars = attackVars(s, s.inner, s.ln.port())
	s.plant(t, env, items)
	if err := attackChown(s.ws, p.uid, p.gid); err != nil {
		t.Fatal(err)
	}
	return s
}

func (p *attackPod) call(s *attackScratch, id, cmd string, isolate bool) (string, string, bool) {
	session := "attack-corpus"
	if isolate {
		session += "-" + id
	}
	res, err := p.w.CallTool(context.Background(), warren.CallRequest{
		Name: "exec", Args: attackArgs(s.expand(cmd), id, 30), Workspace: p.ws, Session: session, Sandbox: warren.SandboxPodman,
	})
	if err != nil {
		return "error", err.Error(), true
	}
	return attackOutcome(res, err), res.ForLLM, res.IsError
}

func (p *attackPod) attack(t *testing.T, env *attackEnv, c attackCase) {
	if c.ExpectPodman == "skip" {
		env.log.add(attackRow{c.ID, c.Category, "podman", "skip", "", nil, c.Notes})
		t.Skip(c.Notes)
	}
	s := p.scratch(t, env, c.ID, c.Setup)
	s.snapshotAll(t)
	for _, pre := range c.Pre {
		o, text, isErr := p.call(s, c.ID, pre, c.Isolate)
		if strings.Contains(text, "exit code: 127") {
			// Staging needs a program the busybox image lacks (git, gcc…).
			env.log.add(attackRow{c.ID, c.Category, "podman", "skip", "", nil, "the sandbox image lacks a program the staging needs"})
			t.Skipf("pre step %q needs a program the sandbox image lacks", pre)
		}
		if o != "ran" || isErr {
			t.Fatalf("pre step %q did not run cleanly (%s):\n%s", pre, o, text)
		}
	}
	o, text, _ := p.call(s, c.ID, c.Command, c.Isolate)
	if o == "error" || strings.Contains(text, "sandbox unavailable") {
		t.Fatalf("the sandbox did not run the case: %s", text)
	}
	eff := s.effects(t, text, c.ExpectPodman != "contained")
	s.releaseFifos()
	if strings.Contains(text, "read from runner") {
		// Something killed the runner: every process of the container.
		eff = append(eff, "the sandbox's runner was killed")
	}
	env.judge(t, c, "podman", c.ExpectPodman, o, eff, text)
}

func (p *attackPod) benign(t *testing.T, env *attackEnv, c attackBenign) {
	if len(c.Places) > 0 && !slices.Contains(c.Places, "podman") {
		t.Skip("host only")
	}
	s := p.scratch(t, env, "benign-"+c.ID, c.Setup)
	env.benignRun(t, c, "podman", func(cmd string) (string, string, bool) { return p.call(s, "benign-"+c.ID, cmd, false) })
}

// attackRow is one case's result in one place.
type attackRow struct {
	ID, Category, Place, Verdict, Outcome string
	Effects                               []string
	Notes                                 string
}

type attackLog struct {
	mu   sync.Mutex
	rows []attackRow
}

func (l *attackLog) add(r attackRow) {
	l.mu.Lock()
	l.rows = append(l.rows, r)
	l.mu.Unlock()
}

// report logs counts per category and place, and writes every row to
// $ATTACK_REPORT (with the test's name added) when set.
func (l *attackLog) report(t *testing.T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	counts := map[string]map[string]int{}
	for _, r := range l.rows {
		k := r.Category + " @" + r.Place
		if counts[k] == nil {
			counts[k] = map[string]int{}
		}
		counts[k][r.Verdict]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%-28s", k)
		vs := make([]string, 0, len(counts[k]))
		for v := range counts[k] {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		for _, v := range vs {
			fmt.Fprintf(&b, " %s=%d", v, counts[k][v])
		}
		b.WriteByte('\n')
	}
	t.Logf("attack corpus results:\n%s", b.String())
	if out := os.Getenv("ATTACK_REPORT"); out != "" {
		sort.Slice(l.rows, func(i, j int) bool {
			return l.rows[i].Category+l.rows[i].ID+l.rows[i].Place < l.rows[j].Category+l.rows[j].ID+l.rows[j].Place
		})
		b, _ := json.MarshalIndent(l.rows, "", " ")
		out = strings.TrimSuffix(out, ".json") + "-" + t.Name() + ".json"
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}
