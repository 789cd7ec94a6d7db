package podman

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tree writes files (a trailing "@target" makes a symlink) under a new
// directory and returns its real path.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "@"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(body), 0o755) //nolint:gosec // test programs
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func staticBinary(t *testing.T) string {
	t.Helper()
	bb, err := findBusybox("")
	if err != nil {
		t.Skip(err)
	}
	if bb, err = filepath.EvalSymlinks(bb); err != nil {
		t.Fatal(err)
	}
	return bb
}

func TestResolveProgram(t *testing.T) {
	t.Parallel()
	bb := staticBinary(t)
	root := tree(t, map[string]string{
		"bin/node":                               "@" + bb, // an interpreter named node
		"app/node_modules/.bin/srv":              "@../srv/dist/index.js",
		"app/node_modules/srv/dist/index.js":     "#!/usr/bin/env -S node --no-warnings\n",
		"app/node_modules/srv/node_modules/x.js": "",
		"proj/package.json":                      "{}",
		"proj/dist/server.js":                    "#!/usr/bin/env node\n",
		"proj/dist/run.sh":                       "#!/bin/sh\n",
		"proj/dist/tool.py":                      "#!/usr/bin/env python3\n",
		"bin/python3":                            "#!/bin/sh\n",
		"bin/ruby":                               "#!/bin/sh\n",
		"proj/dist/tool.rb":                      "#!/usr/bin/env ruby\n",
		"lone/server.js":                         "#!" + bb + "\n",
	})
	path := filepath.Join(root, "bin") + ":relative/bin"
	tests := []struct {
		name     string
		in       programInput
		argv     []string
		readOnly []string
		err      string
	}{
		{"node_modules .bin link: the outermost node_modules", programInput{Command: root + "/app/node_modules/.bin/srv", Args: []string{"stdio"}},
			[]string{bb, "--no-warnings", root + "/app/node_modules/srv/dist/index.js", "stdio"}, []string{root + "/app/node_modules", bb}, ""},
		{"script in a project: its package.json directory", programInput{Command: "dist/server.js", Dir: root + "/proj"},
			[]string{bb, root + "/proj/dist/server.js"}, []string{root + "/proj", bb}, ""},
		{"home is never a package root", programInput{Command: root + "/proj/dist/server.js", Home: root + "/proj"},
			[]string{bb, root + "/proj/dist/server.js"}, []string{root + "/proj/dist/server.js", bb}, ""},
		{"absolute #! interpreter, lone file", programInput{Command: root + "/lone/server.js"},
			[]string{bb, root + "/lone/server.js"}, []string{bb, root + "/lone/server.js"}, ""},
		{"sh scripts use the image's sh", programInput{Command: root + "/proj/dist/run.sh", Home: root + "/proj"},
			[]string{"/bin/sh", root + "/proj/dist/run.sh"}, []string{root + "/proj/dist/run.sh"}, ""},
		{"a python that is not a binary is never run", programInput{Command: root + "/proj/dist/tool.py"}, nil, nil, "not a Python binary"},
		{"ruby is refused", programInput{Command: root + "/proj/dist/tool.rb"}, nil, nil, "library tree"},
		{"not found", programInput{Command: "nope"}, nil, nil, "command not found: nope"},
		{"not executable", programInput{Command: root + "/proj/package.json"}, nil, nil, "neither"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.in.Path = path
			got, err := resolveProgram(context.Background(), tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(tc.readOnly)
			if !slices.Equal(got.Argv, tc.argv) || !slices.Equal(got.ReadOnly, tc.readOnly) || len(got.LibDirs) != 0 {
				t.Fatalf("got %q %q %q\nwant %q %q", got.Argv, got.ReadOnly, got.LibDirs, tc.argv, tc.readOnly)
			}
		})
	}
}

// `node FILE`: FILE's package is mounted, and node's libraries.
func TestResolveNodeFile(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed on this host")
	}
	real, _ := filepath.EvalSymlinks(node)
	root := tree(t, map[string]string{"srv/package.json": "{}", "srv/index.js": ""})
	got, err := resolveProgram(context.Background(), programInput{Command: "node", Args: []string{"--no-warnings", "index.js", "index.js"}, Dir: root + "/srv", Path: filepath.Dir(node)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Argv, []string{real, "--no-warnings", root + "/srv/index.js", "index.js"}) {
		t.Fatalf("argv %q", got.Argv)
	}
	if !slices.Contains(got.ReadOnly, root+"/srv") || !slices.Contains(got.ReadOnly, real) || len(got.LibDirs) == 0 {
		t.Fatalf("mounts %q libdirs %q", got.ReadOnly, got.LibDirs)
	}
	var libc, loader bool
	for _, p := range got.ReadOnly {
		libc = libc || strings.HasPrefix(filepath.Base(p), "libc.so")
		loader = loader || strings.HasPrefix(filepath.Base(p), "ld-")
	}
	if !libc || !loader {
		t.Fatalf("node's libc or loader not mounted: %q", got.ReadOnly)
	}
}

func TestLdConfDirs(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		"ld.so.conf":          "include ld.so.conf.d/*.conf\n/opt/lib # trailing comment\n",
		"ld.so.conf.d/b.conf": "# libc default configuration\n/usr/local/lib\n",
		"ld.so.conf.d/a.conf": "/usr/lib/x86_64-linux-gnu\nrelative/ignored\n/old=libc6\n",
	})
	got := ldConfDirs(filepath.Join(root, "ld.so.conf"), 0)
	want := []string{"/usr/lib/x86_64-linux-gnu", "/old", "/usr/local/lib", "/opt/lib"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestOutermost(t *testing.T) {
	t.Parallel()
	got := outermost([]string{"/a/c", "/a-b", "/a", "/x/y", "/a", "/x/yz"})
	if want := []string{"/a", "/a-b", "/x/y", "/x/yz"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A stdio container is hardened exactly like a runner box: only the
// command, the mounts of the program and stdin differ.
func TestStdioSpecSameHardening(t *testing.T) {
	t.Parallel()
	var info hostInfo
	info.Host.Security.Rootless = true
	info.Host.IDMappings.UIDMap = []idMap{{0, 1001, 1}, {1, 100000, 65536}}
	info.Host.IDMappings.GIDMap = []idMap{{0, 1002, 1}, {1, 100000, 65536}}
	base := specInput{Name: "n", Image: DefaultImage, Workspace: "/home/u/p", Rootless: true, Limits: DefaultLimits,
		Enforced: enforced(info), KeepID: keepIDMapping(info)}
	box := base
	box.RunDir, box.BinDir = "/run/x", "/run/bin"
	stdio := base
	stdio.WorkspaceAt, stdio.Program, stdio.ReadOnly = "/home/u/p", []string{"/usr/bin/node", "/srv/index.js"}, []string{"/srv"}
	stdio.Env, stdio.Stdin, stdio.Remove = map[string]string{"TOKEN": "x"}, true, true
	b, bw := buildSpec(box)
	s, sw := buildSpec(stdio)
	if !reflect.DeepEqual(bw, sw) {
		t.Fatalf("warnings differ: %q %q", bw, sw)
	}
	if !slices.Equal(s.Entrypoint, []string{"/usr/bin/node"}) || !slices.Equal(s.Command, []string{"/srv/index.js"}) ||
		s.WorkDir != "/home/u/p" || !s.Stdin || !s.Remove || s.Env["TOKEN"] != "x" || s.Env["PATH"] != defaultPath {
		t.Fatalf("stdio spec: %+v", s)
	}
	mounts := map[string]mount{}
	for _, m := range s.Mounts {
		mounts[m.Destination] = m
	}
	if _, ok := mounts[runnerBinDir]; ok || mounts["/home/u/p"].Source != "/home/u/p" || !slices.Contains(mounts["/srv"].Options, "ro") ||
		mounts["/tmp"].Type != "tmpfs" {
		t.Fatalf("mounts: %+v", s.Mounts)
	}
	// The memory fallback: the runner sets RLIMIT_DATA in a runner
	// container; a stdio program's container carries it.
	if !slices.Contains(b.Command, "-rlimit-data") || !slices.ContainsFunc(s.Rlimits, func(r rlimit) bool { return r.Type == "data" }) {
		t.Fatalf("memory fallback: runner %v, stdio %+v", b.Command, s.Rlimits)
	}
	s.Rlimits = slices.DeleteFunc(s.Rlimits, func(r rlimit) bool { return r.Type == "data" })
	// Everything else is the same.
	s.Entrypoint, s.Command, s.WorkDir, s.Mounts, s.Env, s.Stdin, s.Remove = b.Entrypoint, b.Command, b.WorkDir, b.Mounts, b.Env, b.Stdin, b.Remove
	if !reflect.DeepEqual(s, b) {
		t.Fatalf("hardening differs:\n%+v\n%+v", s, b)
	}
}

// Python: the interpreter says where its library tree is; the system one
// runs as itself, a venv's through the venv (and every link on the way).
func TestResolvePython(t *testing.T) {
	t.Parallel()
	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("no system python3 here")
	}
	real, err := filepath.EvalSymlinks(python)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "proj", "src", "server.py")
	for p, body := range map[string]string{filepath.Join(dir, "proj", "pyproject.toml"): "", script: "print(1)\n"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil { //nolint:gosec // test files
			t.Fatal(err)
		}
	}
	got, err := resolveProgram(context.Background(), programInput{Command: python, Args: []string{"-u", script, "stdio"}, Path: "/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Argv, []string{real, "-u", script, "stdio"}) {
		t.Fatalf("argv %q", got.Argv)
	}
	stdlib := filepath.Join("/usr/lib", filepath.Base(real))
	for _, want := range []string{real, stdlib, filepath.Join(dir, "proj")} {
		if !slices.ContainsFunc(got.ReadOnly, func(m string) bool { return within(m, want) }) {
			t.Fatalf("%s is not mounted: %q", want, got.ReadOnly)
		}
	}
	if len(got.ReadOnly) > 30 {
		t.Fatalf("%d mounts: crowded library directories should be mounted whole: %q", len(got.ReadOnly), got.ReadOnly)
	}
	// A script outside any project mounts alone, even in a crowded directory.
	lone := filepath.Join(dir, "downloads", "x.py")
	if err := os.MkdirAll(filepath.Dir(lone), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, nil, 0o644); err != nil { //nolint:gosec // test file
		t.Fatal(err)
	}
	if got, err := resolveProgram(context.Background(), programInput{Command: python, Args: []string{lone}, Path: "/usr/bin"}); err != nil ||
		!slices.Contains(got.ReadOnly, lone) || slices.Contains(got.ReadOnly, filepath.Dir(lone)) {
		t.Fatalf("lone script: %q %v", got.ReadOnly, err)
	}
	// Something named python that is not a system binary is never run.
	marker := filepath.Join(dir, "fake-ran")
	fake := filepath.Join(dir, "bin", "python3")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil { //nolint:gosec // test script
		t.Fatal(err)
	}
	if _, err := resolveProgram(context.Background(), programInput{Command: fake}); err == nil || !strings.Contains(err.Error(), "not a Python binary") {
		t.Fatalf("fake python: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("resolving ran the fake interpreter on the host")
	}
	// -m names a module, not a file.
	if got, err := resolveProgram(context.Background(), programInput{Command: python, Args: []string{"-m", "server"}, Path: "/usr/bin"}); err != nil || !slices.Equal(got.Argv, []string{real, "-m", "server"}) {
		t.Fatalf("-m: %q %v", got.Argv, err)
	}

	venv := filepath.Join(dir, "venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("no venv module: %v %s", err, out)
	}
	// A .pth file of the (untrusted) environment runs code when site.py
	// starts; asking the interpreter for its layout must not run it.
	sitePkgs, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if len(sitePkgs) != 1 {
		t.Fatalf("venv site-packages: %q", sitePkgs)
	}
	marker = filepath.Join(dir, "pth-ran")
	pth := "import os; open(" + strconv.Quote(marker) + ", 'w').close()\n"
	if err := os.WriteFile(filepath.Join(sitePkgs[0], "evil.pth"), []byte(pth), 0o644); err != nil { //nolint:gosec // test file
		t.Fatal(err)
	}
	got, err = resolveProgram(context.Background(), programInput{Command: filepath.Join(venv, "bin", "python"), Path: "/usr/bin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("resolving the venv ran its .pth code on the host")
	}
	if !slices.Contains(got.ReadOnly, venv) {
		t.Fatalf("the venv (with its site-packages) is not mounted: %q", got.ReadOnly)
	}
	// A venv whose pyvenv.cfg points its home elsewhere changes nothing on
	// the host: the system interpreter is asked by its own path.
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = "+filepath.Join(dir, "evil")+"\n"), 0o644); err != nil { //nolint:gosec // test file
		t.Fatal(err)
	}
	if _, err := resolveProgram(context.Background(), programInput{Command: filepath.Join(venv, "bin", "python"), Path: "/usr/bin"}); err != nil {
		t.Fatalf("venv with another home: %v", err)
	}
	// A venv whose interpreter lives inside it is refused, not run.
	copied := filepath.Join(venv, "bin", "python3.99")
	if err := os.WriteFile(copied, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil { //nolint:gosec // test script
		t.Fatal(err)
	}
	if _, err := resolveProgram(context.Background(), programInput{Command: copied}); err == nil || !strings.Contains(err.Error(), "copy inside") {
		t.Fatalf("interpreter inside the venv: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("resolving ran the venv's own interpreter on the host")
	}
	if got.Argv[0] != filepath.Join(venv, "bin", "python") {
		t.Fatalf("a venv runs as its own python: %q", got.Argv)
	}
	for _, want := range []string{venv, python, real} {
		if !slices.ContainsFunc(got.ReadOnly, func(m string) bool { return within(m, want) }) {
			t.Fatalf("%s is not mounted: %q", want, got.ReadOnly)
		}
	}
}
