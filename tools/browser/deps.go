// Package browser holds the browser tool: one Chromium per agent, driven
// through the Chrome DevTools Protocol (chromedp), with every request the
// browser makes (navigations, redirects, images, scripts, XHR, iframes,
// other tabs) paused and judged by the network guard before it leaves.
package browser

import (
	"context"
	"errors"
	"net/url"
	"os/exec"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
)

const group = "ui"

// URLChecker judges one outgoing URL; a non-nil error refuses it. The
// network guard (policy/netguard) implements it.
type URLChecker interface {
	CheckURL(ctx context.Context, u *url.URL) error
}

// Approver settles approval requests (the approvals service); evaluate
// asks it before running the model's JavaScript.
type Approver interface {
	Decide(ctx context.Context, req approvals.Request) (approvals.Outcome, error)
}

// DefaultIdle is how long a browser may sit unused before it is closed.
const DefaultIdle = 5 * time.Minute

// Deps is what the browser tool needs.
type Deps struct {
	// Checker judges every URL the browser requests. Required: without it
	// the tool refuses to start a browser (fail closed).
	Checker URLChecker
	// Dial opens every connection the browser makes, through Warren's
	// proxy (netguard's Guard.DialContext checks each address at connect
	// time); nil dials plainly, leaving the URL checks alone in force.
	Dial DialFunc
	// Approvals is asked before evaluate runs JavaScript. Required.
	Approvals Approver
	// ProfileDir holds one Chromium profile (user-data-dir) per agent,
	// e.g. <data>/cache/browser.
	ProfileDir string
	// Workspace is used when a call carries none (screenshots go there).
	Workspace string
	// Headless reports the browser.headless setting at launch; nil means
	// headless.
	Headless func() bool
	// Idle closes a browser unused for this long (0 = DefaultIdle).
	Idle time.Duration
	// ExecPath is the Chromium binary; empty looks for chromium on PATH.
	ExecPath string
}

// ErrNoChromium says the browser binary is missing and how to install it.
var ErrNoChromium = errors.New("chromium is not installed: install Debian's chromium package (apt-get install chromium)")

// FindChromium returns the Chromium (or Chrome) binary on PATH.
func FindChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

func (d Deps) headless() bool { return d.Headless == nil || d.Headless() }

func (d Deps) idle() time.Duration {
	if d.Idle <= 0 {
		return DefaultIdle
	}
	return d.Idle
}
