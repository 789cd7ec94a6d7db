package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/tools"
)

// TestFormLinkButtonTabs drives one browser through a form, a button that
// changes the page, a link, a link to a new tab, waiting and a screenshot.
func TestFormLinkButtonTabs(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)

	snap := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"})
	if !strings.Contains(snap, "Opened "+s.site.URL+"/form — Form") {
		t.Fatalf("open header: %s", snap)
	}
	box := ref(t, snap, "textbox", "Name")
	r.ok(t, map[string]any{"action": "type", "ref": box, "text": "Ada <Lovelace>"})
	snap = r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "button", "Send")})
	if !strings.Contains(snap, `heading "Hello, Ada <Lovelace>"`) {
		t.Fatalf("form result: %s", snap)
	}

	// Enter in the field submits the form too.
	snap = r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"})
	r.ok(t, map[string]any{"action": "type", "ref": ref(t, snap, "textbox", "Name"), "text": "Grace"})
	if snap = r.ok(t, map[string]any{"action": "press", "key": "Enter"}); !strings.Contains(snap, `heading "Hello, Grace"`) {
		t.Fatalf("press Enter: %s", snap)
	}
	if res := r.call(t, map[string]any{"action": "press", "key": "Hyperdrive"}); res.Code() != tools.CodeValidation {
		t.Fatalf("unknown key: %+v", res)
	}
	if got := r.ok(t, map[string]any{"action": "scroll", "direction": "bottom"}); !strings.HasPrefix(got, "Scrolled to ") {
		t.Fatalf("scroll: %s", got)
	}

	snap = r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/button"})
	if got := r.ok(t, map[string]any{"action": "scroll", "ref": ref(t, snap, "button", "Change")}); !strings.Contains(got, "into view") {
		t.Fatalf("scroll to ref: %s", got)
	}
	snap = r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "button", "Change")})
	if !strings.Contains(snap, "Button was clicked") {
		t.Fatalf("the button did not change the page: %s", snap)
	}
	r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "link", "Second in a new tab")})
	tabs := r.ok(t, map[string]any{"action": "tabs"})
	if !strings.Contains(tabs, "2. "+s.site.URL+"/second") && !strings.Contains(tabs, "1. "+s.site.URL+"/second") {
		t.Fatalf("the new tab is not listed: %s", tabs)
	}
	second := "2"
	if strings.Contains(tabs, "1. "+s.site.URL+"/second") {
		second = "1"
	}
	r.ok(t, map[string]any{"action": "tabs", "tab": "switch", "index": atoi(second)})
	if snap = r.ok(t, map[string]any{"action": "snapshot"}); !strings.Contains(snap, `heading "Second page"`) {
		t.Fatalf("switched tab snapshot: %s", snap)
	}
	r.ok(t, map[string]any{"action": "tabs", "tab": "close", "index": atoi(second)})
	snap = r.ok(t, map[string]any{"action": "snapshot"})
	snap = r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "link", "Go to second")})
	if !strings.Contains(snap, `heading "Second page"`) {
		t.Fatalf("link click: %s", snap)
	}
	if back := r.ok(t, map[string]any{"action": "back"}); !strings.Contains(back, "Button was clicked") && !strings.Contains(back, "Waiting") {
		t.Fatalf("back: %s", back)
	}

	r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/late"})
	if got := r.ok(t, map[string]any{"action": "wait", "text": "Arrived late", "timeout_ms": 10000}); !strings.Contains(got, "Found") {
		t.Fatalf("wait text: %s", got)
	}
	if got := r.ok(t, map[string]any{"action": "wait", "selector": "p.late"}); !strings.Contains(got, "Found") {
		t.Fatalf("wait selector: %s", got)
	}
	res := r.call(t, map[string]any{"action": "wait", "text": "never there", "timeout_ms": 300})
	if res.Code() != tools.CodeTimeout {
		t.Fatalf("wait for missing text: %+v", res)
	}
	if res := r.call(t, map[string]any{"action": "click", "ref": "e999999"}); res.Code() != tools.CodeNotFound {
		t.Fatalf("stale ref: %+v", res)
	}

	shot := r.ok(t, map[string]any{"action": "screenshot"})
	matches, _ := filepath.Glob(filepath.Join(r.ws, "browser", "screenshot-*.png"))
	if len(matches) != 1 || !strings.Contains(shot, "browser/"+filepath.Base(matches[0])) {
		t.Fatalf("screenshot %q, files %v", shot, matches)
	}
	png, _ := os.ReadFile(matches[0])
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the screenshot is not a PNG (%d bytes)", len(png))
	}
	s.untouched(t)
}

// TestFramesInSnapshot: an iframe's content is in the snapshot under a line
// naming the frame, and its elements can be typed into and clicked.
func TestFramesInSnapshot(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)
	snap := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/framed"})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(snap, `textbox "Name"`) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		snap = r.ok(t, map[string]any{"action": "snapshot"})
	}
	if !strings.Contains(snap, `heading "Outer page"`) || !strings.Contains(snap, `frame "inner" `+s.site.URL+`/form:`) {
		t.Fatalf("frame missing: %s", snap)
	}
	r.ok(t, map[string]any{"action": "type", "ref": ref(t, snap, "textbox", "Name"), "text": "Framed Ada"})
	snap = r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "button", "Send")})
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(snap, `heading "Hello, Framed Ada"`) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		snap = r.ok(t, map[string]any{"action": "snapshot"})
	}
	if !strings.Contains(snap, `heading "Hello, Framed Ada"`) || !strings.Contains(snap, `heading "Outer page"`) {
		t.Fatalf("the form in the frame was not sent: %s", snap)
	}
	// A frame from another site (localhost is not 127.0.0.1's site) runs in
	// its own process: the snapshot names it and its URL instead.
	_, port, _ := strings.Cut(hostOf(s.site.URL), ":")
	cross := "localhost:" + port
	s.checker[cross] = true
	snap = r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/framed?src=http://" + cross + "/form"})
	want := `frame "inner" http://` + cross + `/form: (a frame from another site`
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(snap, want) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		snap = r.ok(t, map[string]any{"action": "snapshot"})
	}
	if !strings.Contains(snap, want) {
		t.Fatalf("cross-site frame: %s", snap)
	}
	s.untouched(t)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGuardBlocksSubrequestsAndRedirects: an image, an iframe and an XHR to
// a refused host, and a redirect to it, never reach it.
func TestGuardBlocksSubrequestsAndRedirects(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)

	res := r.call(t, map[string]any{"action": "open", "url": s.site.URL + "/leaky"})
	if res.IsError || !strings.Contains(res.ForLLM, `heading "Leaky page"`) {
		t.Fatalf("the page itself must load: %s", res.ForLLM)
	}
	for _, want := range []string{"Blocked by the network guard", s.other.URL + "/pixel.png", s.other.URL + "/frame", "not on the allow list"} {
		if !strings.Contains(res.ForLLM, want) {
			t.Errorf("result does not say %q:\n%s", want, res.ForLLM)
		}
	}
	// The XHR may still be in flight when open returns: wait for its report.
	deadline := time.Now().Add(10 * time.Second)
	text := res.ForLLM
	for !strings.Contains(text, "/xhr") && time.Now().Before(deadline) {
		text += r.ok(t, map[string]any{"action": "wait", "timeout_ms": 100})
	}
	if !strings.Contains(text, s.other.URL+"/xhr") {
		t.Errorf("the XHR to the refused host was not reported:\n%s", text)
	}

	res = r.call(t, map[string]any{"action": "open", "url": s.site.URL + "/redir"})
	if res.Code() != tools.CodeSecurity || !strings.Contains(res.ForLLM, s.other.URL+"/landing") {
		t.Fatalf("redirect to a refused host: %+v", res)
	}
	if snap := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/redir-ok"}); !strings.Contains(snap, "Second page") {
		t.Fatalf("redirect within the allowed host: %s", snap)
	}
	s.untouched(t)
}

// TestRefusals: schemes other than http(s), refused hosts, the network
// switch off and no guard at all are refused before any browser starts.
func TestRefusals(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)
	for _, u := range []string{
		"file:///etc/passwd", "chrome://version", "javascript:alert(1)", "data:text/html,<h1>x</h1>",
		"about:blank", "view-source:" + s.site.URL, "ftp://example.com/", s.other.URL + "/", "http:///nohost", "%zz",
	} {
		res := r.call(t, map[string]any{"action": "open", "url": u})
		if res.Code() != tools.CodeSecurity {
			t.Errorf("open %q: %+v", u, res)
		}
	}
	if res := r.call(t, map[string]any{"action": "tabs", "tab": "new", "url": "file:///etc/passwd"}); res.Code() != tools.CodeSecurity {
		t.Errorf("new tab with file: %+v", res)
	}
	off := *r
	off.cc.Network = false
	if res := off.call(t, map[string]any{"action": "open", "url": s.site.URL + "/form"}); res.Code() != tools.CodeSecurity || !strings.Contains(res.ForLLM, "network") {
		t.Errorf("network off: %+v", res)
	}
	if res := r.call(t, map[string]any{"action": "click"}); res.Code() != tools.CodeValidation {
		t.Errorf("click without ref: %+v", res)
	}
	if res := r.call(t, map[string]any{"action": "fly"}); !res.IsError {
		t.Errorf("unknown action: %+v", res)
	}

	noGuard := NewManager(Deps{Approvals: answerApprovals(t, approvals.Deny), ProfileDir: t.TempDir(), ExecPath: needChromium(t)})
	t.Cleanup(noGuard.Close)
	tool, err := noGuard.Tool()
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Execute(tools.WithCallContext(t.Context(), r.cc), []byte(`{"action":"open","url":"`+s.site.URL+`/form"}`))
	if err != nil || res.Code() != tools.CodeSecurity || !strings.Contains(res.ForLLM, "no network guard") {
		t.Errorf("no guard: %+v %v", res, err)
	}
	if _, err := launch(t.Context(), Deps{ProfileDir: t.TempDir()}, "x"); err == nil {
		t.Error("launch without a guard started a browser")
	}
	if n := r.m.Running() + noGuard.Running(); n != 0 {
		t.Errorf("%d browsers started for refused calls", n)
	}
	s.untouched(t)
}

// TestEvaluateNeedsApproval: a denied script does not run; an approved one
// returns its value.
func TestEvaluateNeedsApproval(t *testing.T) {
	s := newSites(t)
	denied := newRig(t, s.checker, approvals.Deny, 0)
	denied.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/button"})
	res := denied.call(t, map[string]any{"action": "evaluate", "script": "document.title = 'changed'; 1"})
	if res.Code() != tools.CodePermission {
		t.Fatalf("denied evaluate: %+v", res)
	}
	if got := denied.ok(t, map[string]any{"action": "snapshot"}); !strings.Contains(got, "— Button") {
		t.Fatalf("a denied script ran: %s", got)
	}

	allowed := newRig(t, s.checker, approvals.AllowOnce, 0)
	allowed.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/button"})
	if got := allowed.ok(t, map[string]any{"action": "evaluate", "script": "document.title + ' ' + (6*7)"}); got != "Result: Button 42" {
		t.Fatalf("approved evaluate: %q", got)
	}
	if res := allowed.call(t, map[string]any{"action": "evaluate", "script": "throw new Error('boom')"}); res.Code() != tools.CodeExecution || !strings.Contains(res.ForLLM, "boom") {
		t.Fatalf("throwing script: %+v", res)
	}
}

// TestCloseLeavesNoProcess: close, the idle timer and Manager.Close end
// every Chromium process of the profile, and the main one is reaped.
func TestCloseLeavesNoProcess(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)
	r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"})
	sess := r.m.sessions["tester"]
	pid := chromedp.FromContext(sess.browserCtx).Browser.Process().Pid
	if len(processesUsing(sess.dir, false)) < 2 {
		t.Fatalf("expected Chromium and its helpers to run with the profile %s", sess.dir)
	}
	if got := r.ok(t, map[string]any{"action": "close"}); got != "Browser closed." {
		t.Fatalf("close: %s", got)
	}
	assertGone(t, sess.dir, pid)

	// The idle timer closes a browser nobody uses.
	idle := newRig(t, s.checker, approvals.Deny, 200*time.Millisecond)
	idle.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/form"})
	sess = idle.m.sessions["tester"]
	pid = chromedp.FromContext(sess.browserCtx).Browser.Process().Pid
	waitFor(t, 20*time.Second, func() bool { return idle.m.Running() == 0 && len(processesUsing(sess.dir, false)) == 0 })
	assertGone(t, sess.dir, pid)
	// The next call starts a fresh browser on the same profile.
	idle.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/second"})

	// Manager.Close (Warren's shutdown) ends it and refuses later calls.
	sess = idle.m.sessions["tester"]
	pid = chromedp.FromContext(sess.browserCtx).Browser.Process().Pid
	idle.m.Close()
	assertGone(t, sess.dir, pid)
	if res := idle.call(t, map[string]any{"action": "snapshot"}); !res.IsError {
		t.Fatalf("a call after Close: %+v", res)
	}
}

// assertGone fails unless every Chromium process of the profile is gone and
// the main one reaped. The reaping happens in the allocator's goroutine
// after the kill, so the test waits for it (under load it lagged the kill).
func assertGone(t *testing.T, dir string, pid int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		left := processesUsing(dir, false)
		_, err := os.Stat(filepath.Join("/proc", itoa(pid)))
		switch {
		case len(left) == 0 && err != nil:
			return
		case time.Now().Before(deadline):
			time.Sleep(20 * time.Millisecond)
		case len(left) > 0:
			t.Fatalf("Chromium processes left after close: %v", left)
		default:
			t.Fatalf("the browser process %d is still there (not reaped)", pid)
		}
	}
}

func waitFor(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met in %s", limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestShowWindowWithoutDisplay: browser.headless false with no display to
// show the window on is a clear error, not a hang.
func TestShowWindowWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0, func(d *Deps) { d.Headless = func() bool { return false } })
	res := r.call(t, map[string]any{"action": "open", "url": s.site.URL + "/form"})
	if res.Code() != tools.CodeExecution || !strings.Contains(res.ForLLM, "browser.headless") {
		t.Fatalf("no display: %+v", res)
	}
	if r.m.Running() != 0 {
		t.Fatal("a browser is recorded as running")
	}
}

// TestTabClosedByThePage: when the current tab closes itself, the next
// call works on the tab that is left.
func TestTabClosedByThePage(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)
	snap := r.ok(t, map[string]any{"action": "open", "url": s.site.URL + "/button"})
	r.ok(t, map[string]any{"action": "click", "ref": ref(t, snap, "link", "Closer in a new tab")})
	tabs := r.ok(t, map[string]any{"action": "tabs"})
	idx := 1
	if strings.Contains(tabs, "2. "+s.site.URL+"/closer") {
		idx = 2
	}
	r.ok(t, map[string]any{"action": "tabs", "tab": "switch", "index": idx})
	snap = r.ok(t, map[string]any{"action": "snapshot"})
	r.call(t, map[string]any{"action": "click", "ref": ref(t, snap, "button", "Close me")})
	waitFor(t, 10*time.Second, func() bool {
		return !strings.Contains(r.ok(t, map[string]any{"action": "tabs"}), "/closer")
	})
	if snap = r.ok(t, map[string]any{"action": "snapshot"}); !strings.Contains(snap, "— Button") {
		t.Fatalf("after the tab closed itself: %s", snap)
	}
}
