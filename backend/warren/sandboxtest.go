package warren

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/warren-dev/warren/sandbox/podman"
)

// SandboxTest is the outcome of the sandbox's real test: the doctor's
// checks, ending with a command run in a real container on the default
// workspace. The Sandbox page's headline comes from it, so it never says
// "ready" while the first sandboxed command would fail.
type SandboxTest struct {
	// At is when the test finished.
	At time.Time `json:"at"`
	// OK: a test command ran in a container, the workspace writable.
	OK     bool           `json:"ok"`
	Checks []podman.Check `json:"checks"`
	// Failed is the first failed check that stops sandboxed commands; nil when OK.
	Failed *podman.Check `json:"failed,omitempty"`
	// NetworkFailed is a failed check that only agents with network on
	// meet (tun device, slirp4netns); the test can still be OK.
	NetworkFailed *podman.Check `json:"network_failed,omitempty"`
	// Action names what Warren can fix itself: SandboxActionBuildImage, or "".
	Action string `json:"action,omitempty"`
	// Seconds is how long the test took.
	Seconds float64 `json:"seconds"`
}

// SandboxActionBuildImage: the image is missing and Warren can build it
// offline (BuildSandboxImage).
const SandboxActionBuildImage = "build-image"

// networkOnly are the doctor's checks that matter only to the network opt-in.
var networkOnly = []string{"tun device", "slirp4netns", "network run"}

// sandboxTests runs one test at a time and keeps the last result.
type sandboxTests struct {
	run  sync.Mutex
	mu   sync.Mutex
	last *SandboxTest
}

// TestSandbox runs the sandbox doctor with a real command in a real
// container on the default workspace, and keeps the result for
// LastSandboxTest. Tests asked for while one runs wait for it and run
// their own: a re-test after a fix must see the fix.
func (w *Warren) TestSandbox(ctx context.Context) SandboxTest {
	st := &w.sandbox.tests
	st.run.Lock()
	defer st.run.Unlock()
	start := time.Now()
	checks := w.podman().Doctor(ctx, podman.DoctorOptions{Workspace: w.workspace, Run: true})
	res := judgeSandbox(checks)
	res.At, res.Seconds = time.Now(), time.Since(start).Seconds()
	st.mu.Lock()
	st.last = &res
	st.mu.Unlock()
	return res
}

// judgeSandbox reads the doctor's checks: OK only when the run check ran.
func judgeSandbox(checks []podman.Check) SandboxTest {
	res := SandboxTest{Checks: checks}
	if res.Checks == nil {
		res.Checks = []podman.Check{}
	}
	ran := false
	for _, c := range checks {
		if c.Name == "run" && c.OK {
			ran = true
		}
		if c.OK {
			continue
		}
		if slices.Contains(networkOnly, c.Name) {
			if res.NetworkFailed == nil {
				res.NetworkFailed = &c
			}
			continue
		}
		if res.Failed == nil {
			res.Failed = &c
		}
	}
	res.OK = ran && res.Failed == nil
	if !res.OK && res.Failed == nil {
		// Every check passed but none ran a command: say so rather than pass.
		res.Failed = &podman.Check{Name: "run", Detail: "no test command ran", Fix: "run the test again; if it persists, run `warren sandbox doctor` for details"}
	}
	if res.Failed != nil && res.Failed.Name == "image" {
		res.Action = SandboxActionBuildImage
	}
	return res
}

// LastSandboxTest returns the last TestSandbox result, or nil before the first.
func (w *Warren) LastSandboxTest() *SandboxTest {
	st := &w.sandbox.tests
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.last == nil {
		return nil
	}
	res := *st.last
	return &res
}

// forgetSandboxTest drops the kept result when what it tested changed.
func (w *Warren) forgetSandboxTest() {
	w.sandbox.tests.mu.Lock()
	w.sandbox.tests.last = nil
	w.sandbox.tests.mu.Unlock()
}
