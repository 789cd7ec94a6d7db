package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"

	"github.com/warren-dev/warren/tools"
)

// ErrNetworkOff refuses requests while the agent's network switch is off.
var ErrNetworkOff = errors.New("network access is off for this agent (turn on the agent's network switch)")

// checkURL is the rule every request and every navigation passes: http and
// https only (no file:, chrome:, javascript:, data: or other schemes that
// read local state or run code), then the network guard.
func checkURL(ctx context.Context, c URLChecker, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a valid URL: %w", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return fmt.Errorf("scheme %q is refused: the browser opens http and https URLs only", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("the URL has no host")
	}
	if c == nil {
		return errors.New("no network guard is configured")
	}
	return c.CheckURL(ctx, u)
}

// blocked is one refused request, reported to the model once.
type blocked struct {
	url, reason string
}

// interceptor pauses every request of every tab at the browser level
// (Fetch enabled on the browser session covers all targets, iframes and
// redirect hops included) and continues only what the guard allows.
type interceptor struct {
	checker URLChecker
	// call is the call context of the latest call: requests the page makes
	// are judged for that agent (the guard reads its network switch from
	// the context), and a page left open cannot keep fetching after the
	// switch was turned off.
	call atomic.Pointer[tools.CallContext]

	mu      sync.Mutex
	refused []blocked
}

// maxRefused caps the refused requests kept between two calls.
const maxRefused = 50

// start enables interception on the browser session and judges requests
// until ctx ends. It returns once interception is on, so no request of a
// later navigation slips through.
func (in *interceptor) start(ctx context.Context, b cdp.Session) error {
	events := cdp.Events(ctx, b, fetch.RequestPaused)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			// Answering blocks on the browser connection: never in the
			// event loop.
			go in.judge(ctx, b, ev)
		}
	}()
	_, err := cdp.Call(ctx, b, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}})
	if err != nil {
		return fmt.Errorf("enable request interception: %w", err)
	}
	return nil
}

func (in *interceptor) judge(ctx context.Context, b cdp.Session, ev fetch.EventRequestPaused) {
	raw := ""
	if ev.Request != nil {
		raw = ev.Request.URL
		if ev.Request.URLFragment != "" {
			raw += ev.Request.URLFragment
		}
	}
	err := in.check(ctx, raw)
	if err == nil {
		_, _ = cdp.Call(ctx, b, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	in.record(raw, err)
	_, _ = cdp.Call(ctx, b, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
}

// setCall records the call context requests are judged under from now on.
func (in *interceptor) setCall(cc tools.CallContext) { in.call.Store(&cc) }

// check judges raw for the agent of the latest call.
func (in *interceptor) check(ctx context.Context, raw string) error {
	cc := in.call.Load()
	if cc == nil || !cc.Network {
		return ErrNetworkOff
	}
	return checkURL(tools.WithCallContext(ctx, *cc), in.checker, raw)
}

// callContext returns ctx carrying the latest call's context (for the
// dialer, which reads the agent's network switch from it).
func (in *interceptor) callContext(ctx context.Context) context.Context {
	if cc := in.call.Load(); cc != nil {
		return tools.WithCallContext(ctx, *cc)
	}
	return ctx
}

// record keeps a refused request for the next result.
func (in *interceptor) record(raw string, err error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.refused) < maxRefused {
		in.refused = append(in.refused, blocked{url: raw, reason: err.Error()})
	}
}

// takeRefused returns and forgets the requests refused since the last call.
func (in *interceptor) takeRefused() []blocked {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := in.refused
	in.refused = nil
	return out
}

// refusedText lists refused requests for the model.
func refusedText(list []blocked) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nBlocked by the network guard (%d request(s)):", len(list))
	for _, r := range list {
		fmt.Fprintf(&b, "\n- %s: %s", clip(r.url, 200), r.reason)
	}
	return b.String()
}
