package app

import "github.com/warren-dev/warren/backend/warren"

// MediaDataURL returns an image or audio file of the agent's workspace as a
// data: URL, so the chat can show what a tool made (size-capped and
// path-checked like the file tools).
func (a *App) MediaDataURL(agentKey, path string) (string, error) {
	return a.core.MediaDataURL(a.context(), agentKey, path)
}

// MediaSettings lists the media provider chains (media.*_providers).
func (a *App) MediaSettings() []warren.Setting { return a.core.MediaSettings() }

// SetMediaSetting sets one media provider chain: comma-separated NAME or
// NAME:MODEL entries, tried in order; "" clears it.
func (a *App) SetMediaSetting(key, value string) error {
	return a.core.SetMediaSetting(a.context(), key, value)
}
