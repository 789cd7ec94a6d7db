package app

import (
	"github.com/warren-dev/warren/tools/custom"
)

// CustomTools lists custom tool definitions (env values are never returned).
func (a *App) CustomTools() ([]custom.Definition, error) {
	defs, err := a.core.CustomTools().List(a.context())
	if defs == nil {
		defs = []custom.Definition{}
	}
	return defs, err
}

// SaveCustomTool validates and stores a definition; it is live at once.
// Env values given are stored encrypted; an empty value removes that key.
func (a *App) SaveCustomTool(def custom.Definition) error {
	return a.core.SaveCustomTool(a.context(), def)
}

// DeleteCustomTool removes the tool name of agent ("" = global).
func (a *App) DeleteCustomTool(name, agent string) error {
	return a.core.DeleteCustomTool(a.context(), name, agent)
}

// CustomToolProblems lists stored definitions that could not be loaded.
func (a *App) CustomToolProblems() []string { return a.core.CustomToolProblems() }
