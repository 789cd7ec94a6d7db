package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/warren-dev/warren/tools"
)

// Limits of one call.
const (
	navTimeout = 30 * time.Second
	maxWait    = 30 * time.Second
	pollEvery  = 100 * time.Millisecond
	// settleWait bounds how long an action waits for the page it changed
	// to finish loading before the snapshot is read.
	settleWait = 5 * time.Second
)

// location returns the tab's URL and title ("" on failure).
func (a *act) location(ctx context.Context) (string, string) {
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	title, _ := chromedp.Run(ctx, chromedp.Title())
	return loc, title
}

// open navigates the tab after the URL passed the guard, and returns the
// page's snapshot.
func (a *act) open(ctx context.Context) (tools.Result, error) {
	if err := a.s.in.check(ctx, a.p.URL); err != nil {
		return tools.Errorf(tools.CodeSecurity, "refused to open %s: %v", clip(a.p.URL, 200), err), nil
	}
	nctx, cancel := context.WithTimeout(ctx, navTimeout)
	defer cancel()
	resp, err := chromedp.Run(nctx, chromedp.NavigateResponse(a.p.URL))
	if err != nil {
		return a.navFailed(ctx, err)
	}
	header := "Opened " + pageInfo(a.location(ctx))
	if resp != nil && resp.Status >= 400 {
		header += fmt.Sprintf(" (HTTP %d)", resp.Status)
	}
	return a.snapshot(ctx, header)
}

// navFailed explains a navigation that did not load.
func (a *act) navFailed(ctx context.Context, err error) (tools.Result, error) {
	if refused := a.s.in.takeRefused(); len(refused) > 0 {
		return tools.Errorf(tools.CodeSecurity, "the page did not load: %v%s", err, refusedText(refused)), nil
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return tools.Errorf(tools.CodeTimeout, "the page did not finish loading in %s", navTimeout), nil
	}
	return tools.Errorf(tools.CodeNetwork, "the page did not load: %v", err), nil
}

// history goes one entry back or forward. It does not wait for a load
// event: a page restored from the back/forward cache fires none.
func (a *act) history(ctx context.Context) (tools.Result, error) {
	h, err := chromedp.Run(ctx, chromedp.NavigationEntries())
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "read the history: %v", err), nil
	}
	i := h.CurrentIndex - 1
	if a.p.Action == "forward" {
		i = h.CurrentIndex + 1
	}
	if i < 0 || int(i) >= len(h.Entries) {
		return tools.Errorf(tools.CodeValidation, "there is no page to go %s to", a.p.Action), nil
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID})
		return err
	})); err != nil {
		return a.navFailed(ctx, err)
	}
	a.settleAt(ctx, h.Entries[i].URL)
	return a.snapshot(ctx, "Went "+a.p.Action+" to "+pageInfo(a.location(ctx)))
}

// node runs fn with the element the ref names, turning a stale or bad ref
// into a result the model can act on.
func (a *act) node(ctx context.Context, fn func(ctx context.Context, t *chromedp.Target, id cdp.BackendNodeID) error) (tools.Result, bool, error) {
	id, ok := parseRef(a.p.Ref)
	if !ok {
		return tools.Errorf(tools.CodeValidation, "ref %q is not a ref like e12 from the snapshot", a.p.Ref), false, nil
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error { return fn(ctx, t, id) }))
	if err == nil {
		return tools.Result{}, true, nil
	}
	if ctx.Err() != nil {
		return tools.Result{}, false, fmt.Errorf("browser %s: %w", a.p.Action, ctx.Err())
	}
	msg := err.Error()
	if strings.Contains(msg, "No node") || strings.Contains(msg, "Could not compute") || strings.Contains(msg, "not found") {
		return tools.Errorf(tools.CodeNotFound, "ref %s is not on the page (any more): take a new snapshot", a.p.Ref), false, nil
	}
	return tools.Errorf(tools.CodeExecution, "%s %s: %v", a.p.Action, a.p.Ref, err), false, nil
}

// click scrolls the element into view and clicks its centre with a real
// mouse event (pages can tell synthetic clicks apart).
func (a *act) click(ctx context.Context) (tools.Result, error) {
	loads := watchLoads(ctx)
	res, ok, err := a.node(ctx, func(ctx context.Context, t *chromedp.Target, id cdp.BackendNodeID) error {
		_, _ = cdp.Call(ctx, t, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: id})
		q, err := cdp.Call(ctx, t, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: id})
		if err != nil {
			return err
		}
		if len(q.Quads) == 0 || len(q.Quads[0]) < 8 {
			return errors.New("the element is not visible (it has no box on screen)")
		}
		x, y := center(q.Quads[0])
		_, err = chromedp.MouseClickXY(x, y)(ctx, t)
		return err
	})
	if !ok {
		loads.cancel()
		return res, err
	}
	loads.wait(ctx, a)
	return a.snapshot(ctx, "Clicked "+a.p.Ref+"; now on "+pageInfo(a.location(ctx)))
}

func center(q dom.Quad) (float64, float64) {
	var x, y float64
	for i := 0; i < 8; i += 2 {
		x += q[i]
		y += q[i+1]
	}
	return x / 4, y / 4
}

// settle waits (bounded) until the document is loaded after an action.
func (a *act) settle(ctx context.Context) { a.settleAt(ctx, "") }

// settleAt is settle that also waits for the tab to be at url ("" = any).
func (a *act) settleAt(ctx context.Context, url string) {
	sctx, cancel := context.WithTimeout(ctx, settleWait)
	defer cancel()
	for sctx.Err() == nil {
		state, err := chromedp.Run(sctx, chromedp.Evaluate[[]string]("[document.readyState, location.href]"))
		if err == nil && len(state) == 2 && state[0] == "complete" && (url == "" || state[1] == url) {
			return
		}
		if errors.Is(err, chromedp.ErrTargetDetached) {
			return // the tab closed (the page closed itself)
		}
		select {
		case <-sctx.Done():
		case <-time.After(pollEvery):
		}
	}
}

// typeText focuses the element and inserts the text as typed input.
func (a *act) typeText(ctx context.Context) (tools.Result, error) {
	loads := watchLoads(ctx)
	defer loads.cancel()
	res, ok, err := a.node(ctx, func(ctx context.Context, t *chromedp.Target, id cdp.BackendNodeID) error {
		if _, err := cdp.Call(ctx, t, dom.Focus, dom.FocusParams{BackendNodeID: id}); err != nil {
			return err
		}
		if a.p.Clear {
			obj, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id})
			if err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, t, cdpruntime.CallFunctionOn, cdpruntime.CallFunctionOnParams{
				ObjectID:            obj.Object.ObjectID,
				FunctionDeclaration: `function(){ if ('value' in this) { this.value = ''; this.dispatchEvent(new Event('input', {bubbles: true})); } else if (this.isContentEditable) { this.textContent = ''; } }`,
			}); err != nil {
				return err
			}
		}
		if a.p.Text != "" {
			if _, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: a.p.Text}); err != nil {
				return err
			}
		}
		if a.p.Submit {
			_, err := chromedp.KeyEvent(kb.Enter)(ctx, t)
			return err
		}
		return nil
	})
	if !ok {
		return res, err
	}
	if a.p.Submit {
		loads.wait(ctx, a)
		return a.snapshot(ctx, fmt.Sprintf("Typed %d characters into %s and pressed Enter; now on %s", len([]rune(a.p.Text)), a.p.Ref, pageInfo(a.location(ctx))))
	}
	return tools.Text(fmt.Sprintf("Typed %d characters into %s.", len([]rune(a.p.Text)), a.p.Ref)), nil
}

// keyNames maps the key names models use to chromedp's key runes.
var keyNames = map[string]string{
	"enter": kb.Enter, "return": kb.Enter, "tab": kb.Tab, "escape": kb.Escape, "esc": kb.Escape,
	"backspace": kb.Backspace, "delete": kb.Delete, "space": " ",
	"arrowdown": kb.ArrowDown, "arrowup": kb.ArrowUp, "arrowleft": kb.ArrowLeft, "arrowright": kb.ArrowRight,
	"down": kb.ArrowDown, "up": kb.ArrowUp, "left": kb.ArrowLeft, "right": kb.ArrowRight,
	"home": kb.Home, "end": kb.End, "pagedown": kb.PageDown, "pageup": kb.PageUp,
}

// press sends one key to the focused element.
func (a *act) press(ctx context.Context) (tools.Result, error) {
	key, ok := keyNames[strings.ToLower(a.p.Key)]
	if !ok {
		if r := []rune(a.p.Key); len(r) == 1 {
			key = a.p.Key
		} else {
			return tools.Errorf(tools.CodeValidation, "unknown key %q (use Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown or one character)", a.p.Key), nil
		}
	}
	loads := watchLoads(ctx)
	defer loads.cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
		return tools.Errorf(tools.CodeExecution, "press %s: %v", a.p.Key, err), nil
	}
	loads.wait(ctx, a)
	return a.snapshot(ctx, "Pressed "+a.p.Key+"; now on "+pageInfo(a.location(ctx)))
}

// scroll moves the page, or brings one element into view.
func (a *act) scroll(ctx context.Context) (tools.Result, error) {
	if a.p.Ref != "" {
		res, ok, err := a.node(ctx, func(ctx context.Context, t *chromedp.Target, id cdp.BackendNodeID) error {
			_, err := cdp.Call(ctx, t, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: id})
			return err
		})
		if !ok {
			return res, err
		}
		return tools.Text("Scrolled " + a.p.Ref + " into view."), nil
	}
	var expr string
	switch a.p.Direction {
	case "top":
		expr = "window.scrollTo(0, 0)"
	case "bottom":
		expr = "window.scrollTo(0, document.documentElement.scrollHeight)"
	case "up", "down", "":
		px := a.p.Pixels
		if px <= 0 {
			expr = "window.innerHeight * 0.9"
		} else {
			expr = fmt.Sprint(px)
		}
		sign := ""
		if a.p.Direction == "up" {
			sign = "-"
		}
		expr = "window.scrollBy(0, " + sign + "(" + expr + "))"
	default:
		return tools.Errorf(tools.CodeValidation, "direction %q: use up, down, top or bottom", a.p.Direction), nil
	}
	pos, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](expr+"; [window.scrollY, document.documentElement.scrollHeight - window.innerHeight]"))
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "scroll: %v", err), nil
	}
	msg := "Scrolled."
	if len(pos) == 2 {
		msg = fmt.Sprintf("Scrolled to %.0f of %.0f pixels.", pos[0], max(pos[1], 0))
	}
	return tools.Text(msg), nil
}

// wait waits for text or a selector (up to timeout_ms, default 10 s), or
// pauses for timeout_ms when given neither.
func (a *act) wait(ctx context.Context) (tools.Result, error) {
	limit := time.Duration(a.p.TimeoutMS) * time.Millisecond
	if a.p.Text == "" && a.p.Selector == "" {
		select {
		case <-ctx.Done():
			return tools.Result{}, fmt.Errorf("browser wait: %w", ctx.Err())
		case <-time.After(limit):
		}
		return tools.Text(fmt.Sprintf("Waited %s.", limit)), nil
	}
	if limit <= 0 {
		limit = 10 * time.Second
	}
	var expr, what string
	if a.p.Selector != "" {
		sel, _ := json.Marshal(a.p.Selector)
		expr, what = "!!document.querySelector("+string(sel)+")", "selector "+a.p.Selector
	} else {
		text, _ := json.Marshal(a.p.Text)
		expr, what = "!!(document.body && document.body.innerText.includes("+string(text)+"))", "text "+strconvQuote(a.p.Text)
	}
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for {
		found, err := chromedp.Run(wctx, chromedp.Evaluate[bool](expr))
		if err != nil && wctx.Err() == nil && strings.Contains(err.Error(), "SyntaxError") {
			return tools.Errorf(tools.CodeValidation, "selector %q: %v", a.p.Selector, err), nil
		}
		if found {
			return tools.Text("Found " + what + " on " + pageInfo(a.location(ctx)) + "."), nil
		}
		select {
		case <-wctx.Done():
			if ctx.Err() != nil {
				return tools.Result{}, fmt.Errorf("browser wait: %w", ctx.Err())
			}
			return tools.Errorf(tools.CodeTimeout, "%s did not appear within %s", what, limit), nil
		case <-time.After(pollEvery):
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(clip(s, 80))
	return string(b)
}
