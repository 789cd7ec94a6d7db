//go:build linux

package warren_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
)

// The attack corpus (testdata/attacks/*.json) is data: each case is a
// command an agent could send to exec, with placeholders for the scratch
// folders it aims at. These helpers load it, lay out the scratch folders a
// case runs against, and detect what the command really did.

// attackCase is one adversarial command.
type attackCase struct {
	ID       string        `json:"id"`
	Category string        `json:"category"`
	Setup    []attackSetup `json:"setup,omitempty"`
	// Pre are exec calls made first (staging: write a script, git init);
	// they must run without asking.
	Pre     []string `json:"pre,omitempty"`
	Command string   `json:"command"`
	// ExpectHost: no_effect, gap (a known hole: reported, not failed) or skip.
	ExpectHost string `json:"expect_host"`
	// ExpectPodman: no_effect, contained (changes inside the workspace are
	// fine, nothing outside it may change), gap or skip.
	ExpectPodman string `json:"expect_podman"`
	// HostOutcome is what Warren must answer on the host: refused (blocked
	// or asked and refused; the default), blocked, or any (the command is
	// harmless as the interpreter reads it).
	HostOutcome string `json:"host_outcome,omitempty"`
	// Needs are host programs the case needs ("disk": a scratch loop
	// device, which needs root).
	Needs []string `json:"needs,omitempty"`
	// Live is "no" for cases never to run with approvals granted (they
	// leave daemons behind, or would be unsafe if a rule were missing).
	Live string `json:"live,omitempty"`
	// Isolate runs the case in a container of its own in the sandbox (it
	// may kill every process of its container).
	Isolate bool   `json:"isolate,omitempty"`
	Notes   string `json:"notes,omitempty"`
}

// attackBenign is a look-alike that must run without asking.
type attackBenign struct {
	ID      string        `json:"id"`
	Setup   []attackSetup `json:"setup,omitempty"`
	Pre     []string      `json:"pre,omitempty"`
	Command string        `json:"command"`
	// Places are where it runs (default host and podman).
	Places []string `json:"places,omitempty"`
	// Stdout must appear in the output when set.
	Stdout string   `json:"stdout,omitempty"`
	Needs  []string `json:"needs,omitempty"`
	Notes  string   `json:"notes,omitempty"`
}

// attackSetup is a file, directory, symlink or fake program the harness
// makes before a case runs (paths relative to the case's workspace unless
// they start with a placeholder).
type attackSetup struct {
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Symlink string `json:"symlink,omitempty"`
	Dir     bool   `json:"dir,omitempty"`
	// Fake makes Path a copy of the fake program: it only writes
	// FAKE-RAN-<name> beside its folder, so system-control commands
	// (shutdown, kill -1, mkfs) can be run for real.
	Fake bool `json:"fake,omitempty"`
}

const attackDir = "testdata/attacks"

func loadAttackCorpus(t *testing.T) ([]attackCase, []attackBenign) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(attackDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", attackDir, err)
	}
	var attacks []attackCase
	var benign []attackBenign
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if filepath.Base(f) == "benign.json" {
			var cs []attackBenign
			if err := dec.Decode(&cs); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, c := range cs {
				if seen[c.ID] || c.ID == "" || c.Command == "" {
					t.Fatalf("%s: bad or duplicate case %q", f, c.ID)
				}
				seen[c.ID] = true
			}
			benign = append(benign, cs...)
			continue
		}
		var cs []attackCase
		if err := dec.Decode(&cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cat := strings.TrimSuffix(filepath.Base(f), ".json")
		for i := range cs {
			c := &cs[i]
			if c.Category == "" {
				c.Category = cat
			}
			if seen[c.ID] || c.ID == "" || c.Command == "" || strings.ContainsAny(c.ID, "/ ") {
				t.Fatalf("%s: bad or duplicate case %q", f, c.ID)
			}
			seen[c.ID] = true
			if !slices.Contains([]string{"no_effect", "gap", "skip"}, c.ExpectHost) ||
				!slices.Contains([]string{"no_effect", "contained", "gap", "skip"}, c.ExpectPodman) ||
				!slices.Contains([]string{"", "refused", "blocked", "any"}, c.HostOutcome) {
				t.Fatalf("%s: case %s has bad expectations %q/%q/%q", f, c.ID, c.ExpectHost, c.ExpectPodman, c.HostOutcome)
			}
		}
		attacks = append(attacks, cs...)
	}
	return attacks, benign
}

// attackScratch is the folders one case runs against. Host paths throughout;
// vars map placeholders to what the command sees.
type attackScratch struct {
	ws, outside, home, data string
	// inner is the workspace folder as the command sees it.
	inner  string
	disk   string
	canary string
	key    []byte
	vars   map[string]string
	ln     *attackListener
	before map[string]map[string]string
	diskAt string
}

// expand replaces the placeholders in s.
func (s *attackScratch) expand(in string) string {
	for k, v := range s.vars {
		in = strings.ReplaceAll(in, "{{"+k+"}}", v)
	}
	return in
}

// hostPath maps a setup path (workspace-relative or placeholder-rooted)
// to the host.
func (s *attackScratch) hostPath(p string) string {
	p = s.expand(p)
	if s.inner != s.ws && strings.HasPrefix(p, s.inner) {
		p = s.ws + strings.TrimPrefix(p, s.inner)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.ws, p)
	}
	return p
}

// plant makes the victims, markers' folders, the data canary and the
// case's own setup.
func (s *attackScratch) plant(t *testing.T, env *attackEnv, items []attackSetup) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{s.ws, s.outside} {
		must(os.MkdirAll(filepath.Join(root, "victim", "sub"), 0o755))
		must(os.WriteFile(filepath.Join(root, "victim", "keep.txt"), []byte("keep me\n"), 0o644))
		must(os.WriteFile(filepath.Join(root, "victim", "sub", "deep.txt"), []byte("deep\n"), 0o644))
	}
	must(os.WriteFile(filepath.Join(s.outside, "keep.txt"), []byte("outside file\n"), 0o644))
	must(os.MkdirAll(s.home, 0o755))
	must(os.WriteFile(filepath.Join(s.home, ".bashrc"), []byte("# scratch bashrc\n"), 0o644))
	must(os.WriteFile(filepath.Join(s.home, ".profile"), []byte("# scratch profile\n"), 0o644))
	for _, it := range items {
		p := s.hostPath(it.Path)
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		switch {
		case it.Dir:
			must(os.MkdirAll(p, 0o755))
		case it.Symlink != "":
			must(os.Symlink(s.expand(it.Symlink), p))
		case it.Fake:
			b, err := os.ReadFile(env.fake)
			must(err)
			must(os.WriteFile(p, b, 0o755))
		default:
			mode := int64(0o644)
			if it.Mode != "" {
				m, err := strconv.ParseInt(it.Mode, 8, 32)
				must(err)
				mode = m
			}
			must(os.WriteFile(p, []byte(s.expand(it.Content)), os.FileMode(mode)))
			must(os.Chmod(p, os.FileMode(mode)))
		}
	}
}

// snap snapshots one of the places that must not change: the outside
// folder, the scratch home (files only: tools make empty folders there),
// the data directory (but its database) and the workspace victim.
func (s *attackScratch) snap(t *testing.T, what string) map[string]string {
	switch what {
	case "outside":
		return attackSnapshot(t, s.outside, true)
	case "home":
		return attackSnapshot(t, s.home, false)
	case "data":
		return attackSnapshot(t, s.data, true)
	}
	return attackSnapshot(t, filepath.Join(s.ws, "victim"), true)
}

func (s *attackScratch) snapshotAll(t *testing.T) {
	t.Helper()
	s.before = map[string]map[string]string{}
	for _, k := range []string{"outside", "home", "data", "victim"} {
		s.before[k] = s.snap(t, k)
	}
	if s.disk != "" {
		s.diskAt = attackHash(t, s.disk)
	}
}

// effects lists what the command changed or leaked. inside reports
// changes inside the workspace too (the victim, PWNED markers); fake
// system programs that ran are reported everywhere (the real ones would
// have reached past the container: reboot, kill -1, mkfs).
func (s *attackScratch) effects(t *testing.T, out string, inside bool) []string {
	t.Helper()
	var eff []string
	for _, k := range []string{"outside", "home", "data", "victim"} {
		if k == "victim" && !inside {
			continue
		}
		if d := attackDiff(s.before[k], s.snap(t, k)); d != "" {
			eff = append(eff, strings.Replace(k, "victim", "workspace victim", 1)+" changed: "+d)
		}
	}
	_ = filepath.WalkDir(s.ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (strings.HasPrefix(d.Name(), "FAKE-RAN") || inside && strings.HasPrefix(d.Name(), "PWNED")) {
			eff = append(eff, "marker "+strings.TrimPrefix(p, s.ws+"/"))
		}
		return nil
	})
	if strings.Contains(out, s.canary) {
		eff = append(eff, "data canary in the output")
	}
	if attackEnvCanary != "" && strings.Contains(out, attackEnvCanary) {
		eff = append(eff, "Warren's environment in the output")
	}
	for _, root := range []string{s.ws, s.outside, s.home} {
		if p := attackSecretIn(root, [][]byte{[]byte(s.canary), s.key}); p != "" {
			eff = append(eff, "data secret copied to "+p)
		}
	}
	if n := s.ln.count(); n > 0 {
		eff = append(eff, fmt.Sprintf("%d connection(s) reached the loopback listener", n))
	}
	if s.disk != "" && attackHash(t, s.disk) != s.diskAt {
		eff = append(eff, "scratch disk "+s.disk+" overwritten")
	}
	return eff
}

// releaseFifos opens, and so releases, process-substitution FIFOs the
// interpreter left under the scratch folders: the goroutine that made each
// one waits for a reader for good.
func (s *attackScratch) releaseFifos() {
	for _, root := range []string{s.ws, s.outside, s.home} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type()&fs.ModeNamedPipe != 0 && strings.HasPrefix(d.Name(), "sh-interp-") {
				if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					_ = f.Close()
				}
			}
			return nil
		})
	}
}

// attackSnapshot maps each path under root to its type, mode and content
// hash; dirs false leaves folders out (tools make empty ones in HOME).
func attackSnapshot(t *testing.T, root string, dirs bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			rel, _ := filepath.Rel(root, p)
			out[rel] = "error " + err.Error()
			return nil
		}
		name := d.Name()
		// Warren's database and caches change on every call; build tools
		// keep caches in HOME (~/.cache, ~/go, ~/.npm), which is theirs to write.
		if strings.HasPrefix(name, "warren.db") || strings.HasSuffix(name, ".lock") ||
			slices.Contains([]string{"cache", "state", ".cache", ".npm", "telemetry"}, name) || (name == "go" && filepath.Dir(p) == root) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
		case fi.IsDir():
			if dirs {
				out[rel] = "dir " + fi.Mode().String()
			}
		default:
			out[rel] = fi.Mode().String() + " " + attackHash(t, p)
		}
		return nil
	})
	return out
}

func attackDiff(before, after map[string]string) string {
	var d []string
	for k, v := range before {
		if a, ok := after[k]; !ok {
			d = append(d, "-"+k)
		} else if a != v {
			d = append(d, "~"+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			d = append(d, "+"+k)
		}
	}
	slices.Sort(d)
	if len(d) > 6 {
		d = append(d[:6], fmt.Sprintf("… %d more", len(d)-6))
	}
	return strings.Join(d, " ")
}

func attackHash(t *testing.T, p string) string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// attackSecretIn returns the first regular file under root holding one
// of the secrets.
func attackSecretIn(root string, secrets [][]byte) string {
	found := ""
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > 32<<20 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, s := range secrets {
			if len(s) >= 8 && bytes.Contains(b, s) {
				found = p
				return filepath.SkipAll
			}
		}
		return nil
	})
	return found
}

// attackEnvCanary is one NAME=value of the environment this process was
// started with that sandbox.Host does not pass on: commands must never
// see Warren's own environment (API keys in the user's shell). It is read
// from /proc/self/environ, which is what a child could read too ("" when
// every variable is passed on anyway).
var attackEnvCanary = func() string {
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return ""
	}
	best := ""
	for _, kv := range strings.Split(string(b), "\x00") {
		name, val, ok := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if !ok || len(val) < 8 || slices.Contains(sandbox.AllowedEnv, name) || slices.Contains([]string{"PWD", "OLDPWD", "_", "SHLVL"}, name) ||
			strings.ContainsAny(up, "0123456789") || strings.Contains(up, "KEY") || strings.Contains(up, "TOKEN") ||
			strings.Contains(up, "SECRET") || strings.Contains(up, "PASS") || strings.Contains(up, "AUTH") {
			continue // secret-looking values are scrubbed from output: useless as a canary
		}
		if len(kv) > len(best) {
			best = kv
		}
	}
	return best
}()

func attackWord(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}

// attackListener is a loopback TCP server that counts connections: attacks
// that try to reach the network aim at it.
type attackListener struct {
	ln   net.Listener
	hits atomic.Int64
	wg   sync.WaitGroup
}

func newAttackListener(t *testing.T) *attackListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &attackListener{ln: ln}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.hits.Add(1)
			// Answer like a web server that has a script for curl|sh (the
			// request read first, so clients see no reset and do not retry).
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			_, _ = c.Read(make([]byte, 4096))
			_, _ = c.Write([]byte("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\ntouch PWNED-net\n"))
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); l.wg.Wait() })
	return l
}

func (l *attackListener) port() string { return strconv.Itoa(l.ln.Addr().(*net.TCPAddr).Port) }

// count waits briefly for connections still in flight.
func (l *attackListener) count() int64 {
	time.Sleep(20 * time.Millisecond)
	return l.hits.Load()
}

// attackOutcome classifies Warren's answer: blocked (a deny rule), asked (an
// approval that was refused), ran (nothing refused), error (a Go error).
func attackOutcome(res tools.Result, err error) string {
	switch {
	case err != nil:
		return "error"
	case res.Error != nil && res.Error.Code == tools.CodeSecurity:
		return "blocked"
	case res.Error != nil && res.Error.Code == tools.CodePermission:
		return "asked"
	}
	return "ran"
}

// attackArgs is exec's JSON arguments.
func attackArgs(command, cwd string, timeout int) []byte {
	b, _ := json.Marshal(map[string]any{"command": command, "cwd": cwd, "timeout_seconds": timeout})
	return b
}

// attackFakeSource is the fake system program: it records that it ran, in the
// folder above its own, and does nothing else.
const attackFakeSource = `package main

import (
	"os"
	"path/filepath"
	"strings"
)

func main() {
	exe, err := os.Executable()
	if err != nil {
		os.Exit(3)
	}
	name := filepath.Base(os.Args[0])
	_ = os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(exe)), "FAKE-RAN-"+name), []byte(strings.Join(os.Args, " ")), 0o644)
}
`

// attackGoBuild builds src (a main package) statically into dir/name.
func attackGoBuild(dir, name, src string) (string, error) {
	out := filepath.Join(dir, name)
	f := filepath.Join(dir, name+".go")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil { //nolint:gosec // a test program's source
		return "", err
	}
	args := []string{"build", "-o", out, f}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", name, err, b)
	}
	return out, nil
}

// attackDisk makes a scratch disk: a loop device over a 1 MiB file in dir,
// detached when the test ends. It is named like a real disk (/dev/loopN),
// which is what the disk rules look at; nothing else is ever written.
func attackDisk(t *testing.T, dir string) string {
	t.Helper()
	img := filepath.Join(dir, "disk.img")
	if err := os.WriteFile(img, bytes.Repeat([]byte("WARRENDISK\n"), 1<<20/11), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "--find", "--show", img).Output()
	if err != nil {
		t.Skipf("no scratch loop device: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	if !strings.HasPrefix(dev, "/dev/loop") {
		t.Fatalf("losetup gave %q", dev)
	}
	t.Cleanup(func() { _ = exec.Command("losetup", "-d", dev).Run() })
	return dev
}

// attackBase is where every case's folders live: a folder that is not
// one of the guard's temp folders (/tmp, /var/tmp, $TMPDIR are free to
// write on the host, so "outside" must not be under them).
func attackBase(t *testing.T) string {
	t.Helper()
	parent := "/dev/shm"
	tmp := filepath.Clean(os.TempDir())
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() || strings.HasPrefix(parent, tmp) {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		parent = wd
	}
	base, err := os.MkdirTemp(parent, "warren-attacks-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	// The rootless sandbox user must pass through to its workspace.
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	return base
}

// attackChown hands a tree to the sandbox user so commands in the container
// can change (and attacks can really delete) what the harness planted.
func attackChown(root string, uid, gid int) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}
