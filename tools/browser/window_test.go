package browser

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/warren-dev/warren/backend/approvals"
)

// startXvfb runs a virtual display for the test and returns its name.
func startXvfb(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatalf("this test shows the browser window on a virtual display: install Debian's xvfb package (apt-get install xvfb; scripts/bootstrap.sh does it): %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	_ = r.Close()
	n, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("Xvfb did not say its display: %q %v", line, err)
	}
	return ":" + strconv.Itoa(n)
}

// TestShowWindow: with browser.headless false the browser runs with a
// window (no --headless) on the display, and works the same.
func TestShowWindow(t *testing.T) {
	t.Setenv("DISPLAY", startXvfb(t))
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0, func(d *Deps) { d.Headless = func() bool { return false } })
	if snap := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"}); !strings.Contains(snap, `textbox "Name"`) {
		t.Fatalf("open with a window: %s", snap)
	}
	pid := chromedp.FromContext(r.m.sessions["tester"].browserCtx).Browser.Process().Pid
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cmdline), "--headless") {
		t.Fatalf("the browser runs headless: %q", cmdline)
	}
	r.ok(t, map[string]any{"action": "close"})
}
