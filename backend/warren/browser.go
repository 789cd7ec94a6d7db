package warren

import (
	"path/filepath"

	"github.com/warren-dev/warren/tools/browser"
)

// SettingBrowserHeadless runs the agents' browsers without a window.
const SettingBrowserHeadless = "browser.headless"

// initBrowser registers the browser tool. Browsers start on an agent's
// first call, one per agent, with profiles in the cache directory; every
// request they make passes the URL checker, and none starts without one.
func (w *Warren) initBrowser(checker browser.URLChecker) error {
	w.browser = browser.NewManager(browser.Deps{
		Checker:    checker,
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
