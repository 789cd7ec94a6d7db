package warren

import (
	"testing"

	"github.com/warren-dev/warren/sandbox/podman"
)

func TestJudgeSandbox(t *testing.T) {
	t.Parallel()
	pass := func(name string) podman.Check { return podman.Check{Name: name, OK: true} }
	fail := func(name string) podman.Check {
		return podman.Check{Name: name, Detail: name + " broke", Fix: "fix " + name}
	}
	tests := []struct {
		name    string
		checks  []podman.Check
		ok      bool
		failed  string
		network string
		action  string
	}{
		{"all pass", []podman.Check{pass("socket"), pass("image"), pass("run"), pass("network run")}, true, "", "", ""},
		{"a warning still passes", []podman.Check{pass("socket"), {Name: "cgroup limits", OK: true, Warn: true}, pass("run")}, true, "", "", ""},
		{"no socket", []podman.Check{fail("socket")}, false, "socket", "", ""},
		{"missing image can be built", []podman.Check{pass("socket"), fail("image"), pass("runner")}, false, "image", "", SandboxActionBuildImage},
		{"the first failure is named", []podman.Check{pass("socket"), fail("subuid"), fail("image")}, false, "subuid", "", ""},
		{"network only problems do not fail the test", []podman.Check{pass("socket"), fail("tun device"), pass("run")}, true, "", "tun device", ""},
		{"the run itself failed", []podman.Check{pass("socket"), pass("workspace"), fail("run")}, false, "run", "", ""},
		{"nothing ran", []podman.Check{pass("socket"), pass("image")}, false, "run", "", ""},
		{"no checks", nil, false, "run", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := judgeSandbox(tt.checks)
			name := func(c *podman.Check) string {
				if c == nil {
					return ""
				}
				return c.Name
			}
			if res.OK != tt.ok || name(res.Failed) != tt.failed || name(res.NetworkFailed) != tt.network || res.Action != tt.action || res.Checks == nil {
				t.Fatalf("judge = ok %v failed %q network %q action %q", res.OK, name(res.Failed), name(res.NetworkFailed), res.Action)
			}
		})
	}
}
