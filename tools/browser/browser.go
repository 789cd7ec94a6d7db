package browser

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"github.com/warren-dev/warren/tools"
)

//go:embed browser.md
var browserDoc string

// BrowserParams are the arguments of browser.
type BrowserParams struct {
	Action    string `json:"action" enum:"open|navigate|snapshot|click|type|press|scroll|wait|screenshot|tabs|close|evaluate|back|forward" description:"What to do"`
	URL       string `json:"url,omitempty" description:"open/navigate: the http(s) URL; tabs new: optional URL for the new tab"`
	Ref       string `json:"ref,omitempty" description:"click/type/scroll: an element ref from the latest snapshot, e.g. e12"`
	Text      string `json:"text,omitempty" description:"type: the text to enter; wait: text to wait for on the page"`
	Clear     bool   `json:"clear,omitempty" description:"type: clear the field before typing"`
	Submit    bool   `json:"submit,omitempty" description:"type: press Enter after typing"`
	Key       string `json:"key,omitempty" description:"press: a key such as Enter, Tab, Escape, Backspace, ArrowDown, PageDown, or one character"`
	Direction string `json:"direction,omitempty" enum:"up|down|top|bottom" description:"scroll: which way (default down)"`
	Pixels    int    `json:"pixels,omitempty" description:"scroll: how far (default one screen)"`
	Selector  string `json:"selector,omitempty" description:"wait: a CSS selector to wait for"`
	TimeoutMS int    `json:"timeout_ms,omitempty" description:"wait: how long to wait at most, or alone how long to pause (max 30000)"`
	FullPage  bool   `json:"full_page,omitempty" description:"screenshot: the whole page, not only the visible part"`
	Tab       string `json:"tab,omitempty" enum:"list|switch|new|close" description:"tabs: list (default), switch, new or close"`
	Index     int    `json:"index,omitempty" description:"tabs switch/close: the tab number from tabs list"`
	Script    string `json:"script,omitempty" description:"evaluate: a JavaScript expression; runs only after the user approves it"`
	MaxChars  int    `json:"max_chars,omitempty" description:"snapshot: cap on the snapshot text (default 8000, max 40000)"`
}

// Tool builds the browser tool over m.
func (m *Manager) Tool() (tools.Tool, error) {
	if m.d.Approvals == nil {
		return nil, errors.New("browser tool: Approvals is required (evaluate asks before it runs)")
	}
	return tools.New(tools.Spec{
		Name:            "browser",
		Group:           group,
		Description:     "Drive a real web browser: open pages, read them as an accessibility snapshot with element refs, click, type, press keys, scroll, wait, take screenshots, manage tabs.",
		LongDescription: browserDoc,
		Danger:          tools.DangerWarning,
	}, m.call)
}

// call runs one action on the agent's browser.
func (m *Manager) call(ctx context.Context, p BrowserParams) (tools.Result, error) {
	cc := tools.CallContextFrom(ctx)
	if p.Action == "close" {
		return m.closeAction(cc.Agent), nil
	}
	if !cc.Network {
		return tools.Errorf(tools.CodeSecurity, "%v; the browser needs the network", ErrNetworkOff), nil
	}
	if r, ok := validate(p); !ok {
		return r, nil
	}
	if m.d.Checker == nil {
		// Fail closed: no guard, no browser.
		return tools.Errorf(tools.CodeSecurity, "no network guard is configured: the browser does not start without one"), nil
	}
	if p.Action == "open" || p.Action == "navigate" || (p.Action == "tabs" && p.URL != "") {
		// Refused before a browser starts for nothing.
		if err := checkURL(ctx, m.d.Checker, p.URL); err != nil {
			return tools.Errorf(tools.CodeSecurity, "refused to open %s: %v", clip(p.URL, 200), err), nil
		}
	}
	s, err := m.acquire(cc.Agent)
	if err != nil {
		if errors.Is(err, ErrNoChromium) {
			return tools.Errorf(tools.CodeExecution, "%v", err), nil
		}
		return tools.Errorf(tools.CodeExecution, "browser: %v", err), nil
	}
	defer m.release(s)
	s.in.setCall(cc)
	a := &act{m: m, s: s, p: p}
	res, err := a.run(ctx)
	if err != nil {
		return tools.Result{}, err
	}
	if extra := refusedText(s.in.takeRefused()); extra != "" {
		res.ForLLM += extra
		if res.ForUser != "" {
			res.ForUser += extra
		}
	}
	return res, nil
}

// closeAction closes the agent's browser if it runs.
func (m *Manager) closeAction(agent string) tools.Result {
	m.mu.Lock()
	s, ok := m.sessions[agent]
	m.mu.Unlock()
	if !ok {
		return tools.Text("No browser was open.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return tools.Text("No browser was open.")
	}
	m.closeLocked(s)
	return tools.Text("Browser closed.")
}

// validate checks the arguments each action needs before a browser starts.
func validate(p BrowserParams) (tools.Result, bool) {
	need := func(field, v string) (tools.Result, bool) {
		if v == "" {
			return tools.Errorf(tools.CodeValidation, "action %s needs %s", p.Action, field), false
		}
		return tools.Result{}, true
	}
	switch p.Action {
	case "open", "navigate":
		return need("url", p.URL)
	case "click":
		return need("ref", p.Ref)
	case "type":
		return need("ref", p.Ref)
	case "press":
		return need("key", p.Key)
	case "evaluate":
		return need("script", p.Script)
	case "wait":
		if p.Text == "" && p.Selector == "" && p.TimeoutMS <= 0 {
			return tools.Errorf(tools.CodeValidation, "action wait needs text, selector or timeout_ms"), false
		}
	case "snapshot", "scroll", "screenshot", "tabs", "back", "forward":
	default:
		return tools.Errorf(tools.CodeValidation, "unknown action %q", p.Action), false
	}
	if int64(p.TimeoutMS) > maxWait.Milliseconds() {
		return tools.Errorf(tools.CodeValidation, "timeout_ms %d is over the limit of %d", p.TimeoutMS, maxWait.Milliseconds()), false
	}
	return tools.Result{}, true
}

// act is one call's action on a locked session.
type act struct {
	m *Manager
	s *session
	p BrowserParams
}

func (a *act) run(ctx context.Context) (tools.Result, error) {
	if a.p.Action == "tabs" {
		return a.tabs(ctx)
	}
	tctx, err := a.s.tabCtx(ctx)
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "%v", err), nil
	}
	// The call's deadline and cancellation reach the tab's commands, but
	// ending the call must not close the tab: the tab context is the
	// browser's, only this derived one ends with the call.
	tctx, cancel := joinCancel(tctx, ctx)
	defer cancel()
	switch a.p.Action {
	case "open", "navigate":
		return a.open(tctx)
	case "back", "forward":
		return a.history(tctx)
	case "snapshot":
		return a.snapshot(tctx, "")
	case "click":
		return a.click(tctx)
	case "type":
		return a.typeText(tctx)
	case "press":
		return a.press(tctx)
	case "scroll":
		return a.scroll(tctx)
	case "wait":
		return a.wait(tctx)
	case "screenshot":
		return a.screenshot(ctx, tctx)
	case "evaluate":
		return a.evaluate(ctx, tctx)
	}
	return tools.Errorf(tools.CodeValidation, "unknown action %q", a.p.Action), nil
}

// joinCancel derives from tab a context that also ends when call ends.
func joinCancel(tab, call context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(tab)
	stop := context.AfterFunc(call, cancel)
	if dl, ok := call.Deadline(); ok {
		var c2 context.CancelFunc
		ctx, c2 = context.WithDeadline(ctx, dl)
		return ctx, func() { stop(); c2(); cancel() }
	}
	return ctx, func() { stop(); cancel() }
}

// pageInfo is the "URL — title" line results start with.
func pageInfo(url, title string) string {
	if title == "" {
		return url
	}
	return fmt.Sprintf("%s — %s", url, title)
}
