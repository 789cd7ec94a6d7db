package app

import "github.com/warren-dev/warren/backend/warren"

// MediaDataURL returns an image or audio file of the agent's workspace as a
// data: URL, so the chat can show what a tool made (size-capped and
// path-checked like the file tools).
func (a *App) MediaDataURL(agentKey, path string) (string, error) {
	return a.core.MediaDataURL(a.context(), agentKey, path)
}

// SectionSettings lists one settings section of the window: "media" (the
// media provider chains) or "web" (the network guard's allow list and
// web_search's providers).
func (a *App) SectionSettings(section string) ([]warren.Setting, error) {
	return a.core.SectionSettings(section)
}

// SetSectionSetting sets one setting of a section; "" goes back to the
// default (a secret: clears it).
func (a *App) SetSectionSetting(section, key, value string) error {
	return a.core.SetSectionSetting(a.context(), section, key, value)
}
