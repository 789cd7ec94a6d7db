package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/warren-dev/warren/tools"
)

// tabs lists, switches, opens or closes tabs. Numbers are 1-based, in the
// order tabs list shows them.
func (a *act) tabs(ctx context.Context) (tools.Result, error) {
	pages, err := a.s.pages(ctx)
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "%v", err), nil
	}
	pick := func() (*target.Info, *tools.Result) {
		if a.p.Index < 1 || a.p.Index > len(pages) {
			r := tools.Errorf(tools.CodeValidation, "tab %d does not exist (there are %d tabs; numbers start at 1)", a.p.Index, len(pages))
			return nil, &r
		}
		return pages[a.p.Index-1], nil
	}
	switch a.p.Tab {
	case "", "list":
		return tools.Text(a.tabList(pages)), nil
	case "switch":
		t, r := pick()
		if r != nil {
			return *r, nil
		}
		a.s.current = t.TargetID
		b := chromedp.FromContext(a.s.browserCtx).Browser
		_, _ = cdp.Call(ctx, b, target.ActivateTarget, target.ActivateTargetParams{TargetID: t.TargetID})
		return tools.Text(fmt.Sprintf("Switched to tab %d: %s", a.p.Index, pageInfo(t.URL, t.Title))), nil
	case "new":
		return a.newTab(ctx)
	case "close":
		t, r := pick()
		if r != nil {
			return *r, nil
		}
		if len(pages) == 1 {
			return tools.Errorf(tools.CodeValidation, "this is the last tab: use action close to close the browser"), nil
		}
		a.s.closeTab(ctx, t.TargetID)
		if a.s.current == t.TargetID {
			for _, p := range pages {
				if p.TargetID != t.TargetID {
					a.s.current = p.TargetID
					break
				}
			}
		}
		return tools.Text(fmt.Sprintf("Closed tab %d.", a.p.Index)), nil
	}
	return tools.Errorf(tools.CodeValidation, "tab %q: use list, switch, new or close", a.p.Tab), nil
}

func (a *act) tabList(pages []*target.Info) string {
	var b strings.Builder
	for i, p := range pages {
		mark := " "
		if p.TargetID == a.s.current {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %d. %s\n", mark, i+1, pageInfo(clip(p.URL, 200), clip(p.Title, 120)))
	}
	if b.Len() == 0 {
		return "No tabs are open."
	}
	return "Tabs (* is the current one):\n" + strings.TrimRight(b.String(), "\n")
}

// newTab opens a tab, makes it current and, with a URL, opens it there.
func (a *act) newTab(ctx context.Context) (tools.Result, error) {
	if a.p.URL != "" {
		if err := a.s.in.check(ctx, a.p.URL); err != nil {
			return tools.Errorf(tools.CodeSecurity, "refused to open %s: %v", clip(a.p.URL, 200), err), nil
		}
	}
	tctx, cancel := chromedp.NewContext(a.s.browserCtx)
	if err := chromedp.Do(tctx); err != nil {
		cancel()
		return tools.Errorf(tools.CodeExecution, "open a tab: %v", err), nil
	}
	id := chromedp.FromContext(tctx).Target.TargetID
	a.s.tabs[id] = tab{ctx: tctx, cancel: cancel}
	a.s.current = id
	if a.p.URL == "" {
		return tools.Text("Opened a new blank tab; it is the current tab."), nil
	}
	jctx, jcancel := joinCancel(tctx, ctx)
	defer jcancel()
	return a.open(jctx)
}

// closeTab closes one tab. The first tab's context is the browser's own
// (cancelling it would end the browser), so tabs are closed by target.
func (s *session) closeTab(ctx context.Context, id target.ID) {
	b := chromedp.FromContext(s.browserCtx).Browser
	_, _ = cdp.Call(ctx, b, target.CloseTarget, target.CloseTargetParams{TargetID: id})
	if t, ok := s.tabs[id]; ok {
		t.cancel()
		delete(s.tabs, id)
	}
}
