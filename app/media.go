package app

// MediaDataURL returns an image or audio file of the agent's workspace as a
// data: URL, so the chat can show what a tool made (size-capped and
// path-checked like the file tools).
func (a *App) MediaDataURL(agentKey, path string) (string, error) {
	return a.core.MediaDataURL(a.context(), agentKey, path)
}
