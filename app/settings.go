package app

import "github.com/warren-dev/warren/backend/warren"

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
