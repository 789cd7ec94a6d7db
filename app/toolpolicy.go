package app

import "github.com/warren-dev/warren/policy"

// The Tools tab's per-agent actions ("Allow for this agent" under "Why
// blocked?"); the global profile switch is SetActiveProfile.

// AllowToolForAgent lets one agent use a tool policy keeps from it, by
// changing only that agent's lists; a refusal says in one sentence what
// keeps it out (a deny every agent is bound by, a group deny entry, an MCP
// grant). It returns the tool's explanation for the agent afterwards.
func (a *App) AllowToolForAgent(agent, tool string) (policy.Explanation, error) {
	return a.core.AllowToolForAgent(a.context(), agent, tool)
}

// StopAllowingToolForAgent undoes AllowToolForAgent.
func (a *App) StopAllowingToolForAgent(agent, tool string) (policy.Explanation, error) {
	return a.core.StopAllowingToolForAgent(a.context(), agent, tool)
}
