package browser

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/tools"
)

// waitReported polls with short waits until the refused request naming
// want is reported (requests a page makes after load arrive later).
func waitReported(t *testing.T, r *rig, first tools.Result, want string) string {
	t.Helper()
	text := first.ForLLM
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(text, want) && time.Now().Before(deadline) {
		text += r.ok(t, map[string]any{"action": "wait", "timeout_ms": 100})
	}
	return text
}

// TestWebSocketGoesThroughTheGuard: request interception does not see
// WebSockets; the proxy refuses the refused host's socket all the same.
func TestWebSocketGoesThroughTheGuard(t *testing.T) {
	s := newSites(t)
	r := newRig(t, s.checker, approvals.Deny, 0)
	res := r.call(t, map[string]any{"action": "open", "url": s.site.URL + "/ws"})
	if res.IsError {
		t.Fatalf("open: %s", res.ForLLM)
	}
	if text := waitReported(t, r, res, hostOf(s.other.URL)); !strings.Contains(text, "https://"+hostOf(s.other.URL)) {
		t.Fatalf("the WebSocket to the refused host was not reported:\n%s", text)
	}
	s.untouched(t)
}

// TestDialerJudgesEveryConnection: with a URL check that lets the other
// host through, the dialer (netguard's place: it checks the address a name
// resolves to at connect time) still stops its image, frame and XHR.
func TestDialerJudgesEveryConnection(t *testing.T) {
	s := newSites(t)
	both := allowList{hostOf(s.site.URL): true, hostOf(s.other.URL): true}
	refusedAddr := hostOf(s.other.URL)
	r := newRig(t, both, approvals.Deny, 0, func(d *Deps) {
		d.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if cc := tools.CallContextFrom(ctx); cc.Agent == "" {
				return nil, errors.New("dialled without the agent's call context")
			}
			if addr == refusedAddr {
				return nil, errors.New("the dialer refuses " + addr)
			}
			var dd net.Dialer
			return dd.DialContext(ctx, network, addr)
		}
	})
	res := r.call(t, map[string]any{"action": "open", "url": s.site.URL + "/leaky"})
	if res.IsError || !strings.Contains(res.ForLLM, "Leaky page") {
		t.Fatalf("open: %s", res.ForLLM)
	}
	text := waitReported(t, r, res, "/xhr")
	for _, want := range []string{"/pixel.png", "/frame", "/xhr", "the dialer refuses"} {
		if !strings.Contains(text, want) {
			t.Errorf("not reported: %q\n%s", want, text)
		}
	}
	s.untouched(t)
}
