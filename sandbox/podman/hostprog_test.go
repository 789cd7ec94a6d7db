package podman

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
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
		{"python is refused", programInput{Command: root + "/proj/dist/tool.py"}, nil, nil, "library tree"},
		{"not found", programInput{Command: "nope"}, nil, nil, "command not found: nope"},
		{"not executable", programInput{Command: root + "/proj/package.json"}, nil, nil, "neither"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.in.Path = path
			got, err := resolveProgram(tc.in)
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
	got, err := resolveProgram(programInput{Command: "node", Args: []string{"--no-warnings", "index.js", "index.js"}, Dir: root + "/srv", Path: filepath.Dir(node)})
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
	// Everything else is the same.
	s.Entrypoint, s.Command, s.WorkDir, s.Mounts, s.Env, s.Stdin, s.Remove = b.Entrypoint, b.Command, b.WorkDir, b.Mounts, b.Env, b.Stdin, b.Remove
	if !reflect.DeepEqual(s, b) {
		t.Fatalf("hardening differs:\n%+v\n%+v", s, b)
	}
}
