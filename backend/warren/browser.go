package warren

import (
	"context"
	"net"
	"path/filepath"

	"github.com/warren-dev/warren/tools/browser"
)

// SettingBrowserHeadless runs the agents' browsers without a window.
const SettingBrowserHeadless = "browser.headless"

// initBrowser registers the browser tool. Browsers start on an agent's
// first call, one per agent, with profiles in the cache directory; every
// request they make passes the URL checker, and none starts without one.
func (w *Warren) initBrowser(checker browser.URLChecker) error {
	var dial browser.DialFunc
	// A guard that can also dial (netguard's Guard) opens the browser's
	// connections too, checking each address at connect time.
	if d, ok := checker.(interface {
		DialContext(ctx context.Context, network, addr string) (net.Conn, error)
	}); ok {
		dial = d.DialContext
	}
	w.browser = browser.NewManager(browser.Deps{
		Checker:    checker,
		Dial:       dial,
		Approvals:  w.approvals,
		ProfileDir: filepath.Join(w.dataDir, "cache", "browser"),
		Workspace:  w.workspace,
		Headless:   func() bool { return w.settings.bool(SettingBrowserHeadless) },
	})
	t, err := w.browser.Tool()
	if err != nil {
		return err
	}
	return w.registry.Register(t)
}
