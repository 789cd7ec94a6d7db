package app

import "github.com/warren-dev/warren/backend/warren"

// AgentContextFiles lists an agent's context files (SOUL.md & co.) as the
// agent reads them: where each lives, its content, whether the system
// prompt includes it.
func (a *App) AgentContextFiles(agent string) ([]warren.ContextFileView, error) {
	return a.core.AgentContextFiles(a.context(), agent)
}

// SaveAgentContextFile writes one context file of an agent where its file
// tools would; blank content removes it.
func (a *App) SaveAgentContextFile(agent, name, content string) error {
	return a.core.SaveAgentContextFile(a.context(), agent, name, content)
}
