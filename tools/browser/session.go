package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// session is one agent's running Chromium: its tabs, the current one and
// the request interceptor. Calls on a session run one at a time.
type session struct {
	agent string
	dir   string
	in    *interceptor
	proxy *proxy

	allocCancel   context.CancelFunc
	browserCtx    context.Context
	browserCancel context.CancelFunc
	// tabs are the tabs this session attached to, by target id.
	tabs    map[target.ID]tab
	current target.ID

	// running is set once Chromium answered; chromedp's cancel functions
	// wait for a browser that never came when it did not.
	running bool

	mu     sync.Mutex // held for the whole of a call
	closed atomic.Bool
	timer  *time.Timer
	// busy counts calls in flight, so the idle timer never closes a
	// browser in the middle of a call.
	busy int
}

type tab struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// launchTimeout bounds starting Chromium and its first tab.
const launchTimeout = 30 * time.Second

// launch starts Chromium with the agent's profile and request
// interception on before any page loads.
func launch(life context.Context, d Deps, agent string) (*session, error) {
	if d.Checker == nil {
		return nil, errors.New("no network guard is configured: the browser does not start without one")
	}
	execPath := d.ExecPath
	if execPath == "" {
		var err error
		if execPath, err = FindChromium(); err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(execPath); err != nil {
		return nil, fmt.Errorf("%w (%s: %v)", ErrNoChromium, execPath, err)
	}
	dir := filepath.Join(d.ProfileDir, profileName(agent))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	if err := profileInUse(dir); err != nil {
		return nil, err
	}
	in := &interceptor{checker: d.Checker}
	px, err := startProxy(life, in, d.Dial)
	if err != nil {
		return nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		// Every connection goes through Warren's proxy, loopback included
		// (Chromium skips the proxy for loopback unless told <-loopback>).
		chromedp.ProxyServer(px.addr()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(dir),
		// Chromium refuses to start as root with its sandbox on; only then
		// (euid 0, e.g. CI or a container) is it turned off. A normal user
		// keeps Chromium's sandbox.
		chromedp.Flag("no-sandbox", os.Geteuid() == 0),
		chromedp.WindowSize(1280, 900),
		// WebRTC can open UDP connections the request interception never
		// sees: only proxied UDP (none) is allowed.
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
	)
	if !d.headless() {
		opts = append(opts, chromedp.VisibleWindow)
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(life, opts...)
	bctx, bcancel := chromedp.NewContext(allocCtx)
	s := &session{agent: agent, dir: dir, allocCancel: allocCancel, browserCtx: bctx, browserCancel: bcancel,
		in: in, proxy: px, tabs: map[target.ID]tab{}}
	if err := s.start(bctx); err != nil {
		s.shutdown()
		return nil, err
	}
	return s, nil
}

// start runs the browser and turns interception and download refusal on.
func (s *session) start(bctx context.Context) error {
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err := <-started:
		if err != nil {
			if errors.Is(err, chromedp.ErrNoDisplay) {
				return errors.New("browser.headless is false but there is no display to show the window on (set browser.headless to true)")
			}
			return fmt.Errorf("start chromium: %w", err)
		}
	case <-time.After(launchTimeout):
		return fmt.Errorf("start chromium: no answer in %s", launchTimeout)
	}
	s.running = true
	c := chromedp.FromContext(bctx)
	if err := s.in.start(bctx, c.Browser); err != nil {
		return err
	}
	// Downloads would land outside the workspace: refused.
	if _, err := cdp.Call(bctx, c.Browser, cdpbrowser.SetDownloadBehavior,
		cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny}); err != nil {
		return fmt.Errorf("refuse downloads: %w", err)
	}
	s.current = c.Target.TargetID
	s.tabs[s.current] = tab{ctx: bctx, cancel: func() {}}
	return nil
}

// shutdown closes the browser gracefully, then kills what is left: the
// process is reaped (allocCancel waits for it) and child processes that
// outlived it are killed (killLeftovers), so no chromium process remains.
func (s *session) shutdown() {
	defer s.proxy.close()
	if !s.running {
		// Cancelling the allocator ends the never-answered start too.
		s.allocCancel()
		killLeftovers(s.dir)
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = chromedp.Cancel(s.browserCtx)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	s.browserCancel()
	s.allocCancel()
	killLeftovers(s.dir)
}

// tabCtx returns the context of the current tab, attaching to it first
// when the page opened it (target=_blank, window.open). When the current
// tab is gone (the page closed itself), the first open tab becomes current.
func (s *session) tabCtx(ctx context.Context) (context.Context, error) {
	pages, err := s.pages(ctx)
	if err != nil {
		return nil, err
	}
	open := map[target.ID]bool{}
	for _, p := range pages {
		open[p.TargetID] = true
	}
	for id, t := range s.tabs {
		if !open[id] && id != s.current {
			t.cancel()
			delete(s.tabs, id)
		}
	}
	if !open[s.current] {
		if len(pages) == 0 {
			return nil, errors.New("the browser has no open tab: use action close, then open")
		}
		if t, ok := s.tabs[s.current]; ok {
			t.cancel()
			delete(s.tabs, s.current)
		}
		s.current = pages[0].TargetID
	}
	if t, ok := s.tabs[s.current]; ok {
		return t.ctx, nil
	}
	return s.attach(s.current)
}

func (s *session) attach(id target.ID) (context.Context, error) {
	ctx, cancel := chromedp.NewContext(s.browserCtx, chromedp.WithTargetID(id))
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("attach to tab %s: %w", id, err)
	}
	s.tabs[id] = tab{ctx: ctx, cancel: cancel}
	return ctx, nil
}

// pages lists the open tabs (page targets), in the browser's order.
func (s *session) pages(ctx context.Context) ([]*target.Info, error) {
	b := chromedp.FromContext(s.browserCtx).Browser
	res, err := cdp.Call(ctx, b, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return nil, fmt.Errorf("list tabs: %w", err)
	}
	var out []*target.Info
	for _, t := range res.TargetInfos {
		if t.Type == "page" && !strings.HasPrefix(t.URL, "chrome://") {
			out = append(out, t)
		}
	}
	return out, nil
}

// profileName turns an agent key into a safe directory name.
func profileName(agent string) string {
	if agent == "" {
		agent = "default"
	}
	var b strings.Builder
	for _, r := range agent {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteString("_" + strconv.FormatInt(int64(r), 16) + "_")
		}
	}
	return b.String()
}

// profileInUse refuses a profile another live Chromium holds (a second
// Warren process driving the same agent): Chromium would hand the launch
// over to that process instead of starting.
func profileInUse(dir string) error {
	link, err := os.Readlink(filepath.Join(dir, "SingletonLock"))
	if err != nil {
		return nil // no lock: free
	}
	// The link reads "<host>-<pid>"; host names may hold dashes.
	i := strings.LastIndex(link, "-")
	if i < 0 {
		return nil
	}
	host := link[:i]
	pid, err := strconv.Atoi(link[i+1:])
	if err != nil || pid <= 0 {
		return nil
	}
	if me, _ := os.Hostname(); me != host || !processAlive(pid) {
		return nil // stale: Chromium clears it itself
	}
	return fmt.Errorf("the browser profile %s is in use by another Chromium (pid %d), probably another Warren process driving the same agent; close it first", dir, pid)
}
