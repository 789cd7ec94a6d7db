package podman

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCandidates(t *testing.T) {
	t.Parallel()
	envFile := []byte("# written by podman-setup.sh\nCONTAINER_HOST=unix:///run/user/1001/podman/podman.sock\nWARREN_SANDBOX_UID=1001\n")
	tests := []struct {
		name string
		vars map[string]string
		uid  int
		goos string
		want []string
	}{
		{"user", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}, 1000, "linux",
			[]string{"unix:///run/user/1000/podman/podman.sock XDG_RUNTIME_DIR"}},
		{"user without XDG", nil, 1000, "linux",
			[]string{"unix:///run/user/1000/podman/podman.sock XDG_RUNTIME_DIR"}},
		{"CONTAINER_HOST first", map[string]string{"CONTAINER_HOST": "ssh://u@h/run/podman.sock", "XDG_RUNTIME_DIR": "/x"}, 1000, "linux",
			[]string{"ssh://u@h/run/podman.sock CONTAINER_HOST", "unix:///x/podman/podman.sock XDG_RUNTIME_DIR"}},
		{"root: setup file, then rootful", nil, 0, "linux",
			[]string{"unix:///run/user/1001/podman/podman.sock env file /env", "unix:///run/podman/podman.sock rootful"}},
		{"macOS: machine", nil, 501, "darwin", []string{"unix:///m.sock podman machine"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := discoverEnv{
				Getenv: func(k string) string { return tc.vars[k] }, UID: tc.uid, GOOS: tc.goos, EnvFile: "/env",
				ReadFile: func(string) ([]byte, error) { return envFile, nil },
				Machine: func(context.Context) []Endpoint {
					return []Endpoint{{URI: "unix:///m.sock", Machine: true, Source: "podman machine"}}
				},
			}
			var got []string
			for _, ep := range candidates(context.Background(), env) {
				got = append(got, ep.URI+" "+ep.Source)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestMachineOutputs(t *testing.T) {
	t.Parallel()
	inspect := `[{"ConnectionInfo":{"PodmanSocket":{"Path":"/Users/a/.local/share/containers/podman/machine/podman.sock"}},"State":"running"},
	             {"ConnectionInfo":{"PodmanSocket":{"Path":"/stopped.sock"}},"State":"stopped"}]`
	got := parseMachineInspect([]byte(inspect))
	if len(got) != 1 || got[0].URI != "unix:///Users/a/.local/share/containers/podman/machine/podman.sock" || !got[0].Machine {
		t.Fatalf("inspect: %+v", got)
	}
	conns := `[{"Name":"other","URI":"ssh://core@127.0.0.1:1/run/user/1000/podman/podman.sock","Identity":"/k1","Default":false,"IsMachine":true},
	           {"Name":"podman-machine-default","URI":"ssh://core@127.0.0.1:2/run/user/1000/podman/podman.sock","Identity":"/k2","Default":true,"IsMachine":true}]`
	eps := parseConnections([]byte(conns))
	if len(eps) != 2 || eps[0].Identity != "/k2" || !strings.HasSuffix(eps[0].Source, "podman-machine-default") {
		t.Fatalf("connections: %+v", eps)
	}
	if parseMachineInspect([]byte("not json")) != nil || parseConnections([]byte("{")) != nil {
		t.Fatal("garbage parsed")
	}
}

func TestBuildSpec(t *testing.T) {
	t.Parallel()
	var info hostInfo
	info.Host.Security.Rootless = true
	info.Host.IDMappings.UIDMap = []idMap{{0, 1001, 1}, {1, 100000, 65536}}
	info.Host.IDMappings.GIDMap = []idMap{{0, 1002, 1}, {1, 100000, 65536}}
	in := specInput{Name: "warren-s-1", Image: DefaultImage, Workspace: "/home/u/p", RunDir: "/run/x", BinDir: "/run/bin",
		Rootless: true, Limits: DefaultLimits, Enforced: enforced(info), KeepID: keepIDMapping(info)}
	s, warn := buildSpec(in)
	if !s.Init || !s.ReadOnlyFilesystem || !s.NoNewPrivileges || !slices.Equal(s.CapDrop, []string{"ALL"}) || s.NetNS.NSMode != "none" {
		t.Fatalf("security options: %+v", s)
	}
	if s.UserNS.NSMode != "private" || s.User != "1001:1002" ||
		!reflect.DeepEqual(s.IDMappings.UIDMap, []idMap{{0, 1, 1001}, {1001, 0, 1}, {1002, 1002, 64535}}) {
		t.Fatalf("keep-id mapping: %+v %+v", s.UserNS, s.IDMappings)
	}
	mounts := map[string]mount{}
	for _, m := range s.Mounts {
		mounts[m.Destination] = m
	}
	if mounts["/workspace"].Source != "/home/u/p" || mounts["/tmp"].Type != "tmpfs" || !slices.Contains(mounts["/tmp"].Options, "U") ||
		!slices.Contains(mounts[runnerBinDir].Options, "ro") || mounts[runnerRunDir].Source != "/run/x" {
		t.Fatalf("mounts: %+v", s.Mounts)
	}
	// Rootless on cgroup v1: no cgroup limits sent, RLIMIT_NPROC instead,
	// RLIMIT_DATA set by the runner for memory, and a warning saying so.
	if s.ResourceLimits != nil || len(s.Rlimits) != 1 || s.Rlimits[0].Type != "nproc" || len(warn) != 1 ||
		!strings.Contains(warn[0], "RLIMIT_DATA") || !slices.Contains(s.Command, "-rlimit-data") {
		t.Fatalf("limits: %+v %+v %v %q", s.ResourceLimits, s.Rlimits, s.Command, warn)
	}
	b, _ := json.Marshal(s)
	for _, key := range []string{`"read_only_filesystem":true`, `"no_new_privileges":true`, `"cap_drop":["ALL"]`, `"init":true`, `"idmappings":{"HostUIDMapping":false`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}

	in.Network, in.Workspace, in.KeepID = true, "", nil
	in.Limits.CPUs = 2
	s, warn = buildSpec(in)
	if s.NetNS.NSMode != "" || mounts["/workspace"].Type == s.Mounts[0].Type || s.UserNS.NSMode != "keep-id" || len(warn) != 2 {
		t.Fatalf("network/scratch/keep-id: %+v %+v %q", s.NetNS, s.Mounts[0], warn)
	}

	// Rootful (or cgroup v2 with controllers): cgroup limits, no warnings.
	in = specInput{Limits: Limits{Memory: 1 << 30, Pids: 100, CPUs: 1.5}, Enforced: enforcement{true, true, true}, User: "1000:1000"}
	s, warn = buildSpec(in)
	if s.ResourceLimits == nil || s.ResourceLimits.Memory.Limit != 1<<30 || s.ResourceLimits.Pids.Limit != 100 ||
		s.ResourceLimits.CPU.Quota != 150000 || len(s.Rlimits) != 0 || len(warn) != 0 || s.User != "1000:1000" {
		t.Fatalf("rootful: %+v %+v %q", s.ResourceLimits, s.Rlimits, warn)
	}
}

func TestEnforced(t *testing.T) {
	t.Parallel()
	var v2 hostInfo
	v2.Host.Security.Rootless, v2.Host.CgroupVersion, v2.Host.CgroupControllers = true, "v2", []string{"memory", "pids"}
	if got := enforced(v2); got != (enforcement{memory: true, pids: true}) {
		t.Fatalf("v2: %+v", got)
	}
	var v1 hostInfo
	v1.Host.Security.Rootless, v1.Host.CgroupVersion = true, "v1"
	if got := enforced(v1); got != (enforcement{}) {
		t.Fatalf("v1: %+v", got)
	}
	if keepIDMapping(v1) != nil {
		t.Fatal("keep-id mapping from nothing")
	}
}

func TestContainerDir(t *testing.T) {
	t.Parallel()
	ok := map[[2]string]string{
		{"/home/u/p", ""}:                "/workspace",
		{"/home/u/p", "src"}:             "/workspace/src",
		{"/home/u/p", "/home/u/p"}:       "/workspace",
		{"/home/u/p", "/home/u/p/a/b/"}:  "/workspace/a/b",
		{"/home/u/p", "/workspace/x"}:    "/workspace/x",
		{"", "/workspace"}:               "/workspace",
		{"/home/u/p", "a/../b"}:          "/workspace/b",
		{"/home/u/p", "/home/u/p/../p2"}: "",
	}
	for in, want := range ok {
		got, err := containerDir(in[0], in[1])
		if want == "" {
			if err == nil {
				t.Errorf("%q: accepted as %q", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: got %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"../x", "/etc", "/home/u/project-other", "/workspacex"} {
		if got, err := containerDir("/home/u/project", bad); err == nil {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
}

func TestContainerName(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"session:42/agent":      "warren-session-42-agent-ab12",
		"":                      "warren-default-ab12",
		"..":                    "warren-default-ab12",
		strings.Repeat("k", 60): "warren-" + strings.Repeat("k", 40) + "-ab12",
	} {
		if got := containerName(key, "ab12"); got != want {
			t.Errorf("%q: %q, want %q", key, got, want)
		}
	}
	if r, tag := splitRef("localhost:5000/a/b"); r != "localhost:5000/a/b" || tag != "latest" {
		t.Fatalf("splitRef: %s %s", r, tag)
	}
	if r, tag := splitRef(DefaultImage); r != "localhost/warren-sandbox" || tag != "latest" {
		t.Fatalf("splitRef: %s %s", r, tag)
	}
}

func TestWriteRootfs(t *testing.T) {
	t.Parallel()
	bb := filepath.Join(t.TempDir(), "busybox")
	if err := os.WriteFile(bb, []byte("\x7fELF fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeRootfs(&buf, bb, []string{"bin/sh", "usr/bin/env", "bin/busybox", "../escape", "sbin/x/y"}); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	got := map[string]*tar.Header{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got[h.Name] = h
	}
	if h := got["bin/busybox"]; h == nil || h.Typeflag != tar.TypeReg || h.Mode != 0o755 {
		t.Fatalf("busybox: %+v", h)
	}
	if h := got["bin/sh"]; h == nil || h.Linkname != "/bin/busybox" {
		t.Fatalf("sh: %+v", h)
	}
	if h := got["tmp/"]; h == nil || h.Mode != 0o1777 {
		t.Fatalf("tmp: %+v", h)
	}
	for _, want := range []string{"usr/bin/env", "workspace/", "etc/passwd", "sbin/x/", "sbin/x/y"} {
		if got[want] == nil {
			t.Errorf("missing %s", want)
		}
	}
	for name := range got {
		if strings.Contains(name, "..") {
			t.Errorf("escaping entry %s", name)
		}
	}
}

func TestFindRunner(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string { return func(string) string { return v } }
	if p, err := FindRunner(testRunner, nil); err != nil || p != testRunner {
		t.Fatalf("explicit: %s %v", p, err)
	}
	if p, err := FindRunner("", env(testRunner)); err != nil || p != testRunner {
		t.Fatalf("$WARREN_RUNNER: %s %v", p, err)
	}
	if _, err := FindRunner("/no/such/runner", nil); err == nil {
		t.Fatal("missing explicit runner accepted")
	}
	script := filepath.Join(t.TempDir(), "warren-runner")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindRunner(script, nil); err == nil {
		t.Fatal("script accepted as runner")
	}
	if dyn, err := os.Executable(); err == nil && checkRunner("/bin/ls") == nil {
		t.Fatalf("dynamically linked /bin/ls accepted (test binary %s)", dyn)
	}
}
