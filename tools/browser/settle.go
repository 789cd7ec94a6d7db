package browser

import (
	"context"
	"encoding/json"
	"time"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp"
)

// navGrace is how long after an action a navigation it caused may take to
// start (a form submit or a link click starts one a few ms later).
const navGrace = 500 * time.Millisecond

// loadWatch follows the frame loads of a tab from just before an action,
// so the snapshot after it shows the page the action led to, not the one
// it left.
type loadWatch struct {
	started, stopped <-chan jsonv2.Value
	stop             func()
}

// watchLoads subscribes to the tab's load events; call wait after the
// action, or stop when the action failed. It returns nil when the context
// has no tab yet (wait then only settles).
func watchLoads(ctx context.Context) *loadWatch {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Target == nil {
		return nil
	}
	started, stopStarted := c.Target.Subscribe("Page.frameStartedLoading")
	stopped, stopStopped := c.Target.Subscribe("Page.frameStoppedLoading")
	return &loadWatch{started: started, stopped: stopped, stop: func() { stopStarted(); stopStopped() }}
}

// wait returns once every load that started within navGrace of the action
// has stopped, then lets the document finish (both bounded by settleWait).
func (w *loadWatch) wait(ctx context.Context, a *act) {
	if w == nil {
		a.settle(ctx)
		return
	}
	defer w.cancel()
	grace := time.NewTimer(navGrace)
	defer grace.Stop()
	limit := time.NewTimer(settleWait)
	defer limit.Stop()
	loading := map[string]bool{}
	sawStart := false
	for {
		select {
		case raw := <-w.started:
			loading[frameOf(raw)] = true
			sawStart = true
		case raw := <-w.stopped:
			delete(loading, frameOf(raw))
			if sawStart && len(loading) == 0 {
				a.settle(ctx)
				return
			}
		case <-grace.C:
			if !sawStart {
				a.settle(ctx)
				return
			}
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func frameOf(raw jsonv2.Value) string {
	var ev struct {
		FrameID string `json:"frameId"`
	}
	_ = json.Unmarshal(raw, &ev)
	return ev.FrameID
}

// cancel ends the subscriptions; safe on nil and more than once.
func (w *loadWatch) cancel() {
	if w != nil && w.stop != nil {
		w.stop()
		w.stop = nil
	}
}
