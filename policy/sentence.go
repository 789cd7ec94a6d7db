package policy

import (
	"fmt"
	"strings"
)

// The one-sentence verdict of an Explanation, for people: it names the
// step that decided, in words ("the profile “minimal”", "agent “coder”'s
// deny list") rather than the trace's step names.

// name quotes a profile, agent or entry the way the UI quotes names.
func name(s string) string { return "“" + s + "”" }

// profileOwner names whose profile a step applied.
func profileOwner(source string, p Profile) string {
	if source == "provider profile" {
		return "the provider's profile " + name(p.String())
	}
	return "the profile " + name(p.String())
}

// groupWords names what a profile would have to include for the tool: its
// most specific group ("the runtime group", "MCP server “github”'s tools").
func groupWords(t *toolInfo) string {
	for _, g := range t.groups {
		switch {
		case strings.HasPrefix(g, mcpGroupPrefix):
			return "MCP server " + name(strings.TrimPrefix(g, mcpGroupPrefix)) + "'s tools"
		case g == GroupCustom:
			return "custom tools"
		case g != GroupWarren && g != GroupMCP:
			return "the " + g + " group"
		}
	}
	return "it"
}

// listOwner names the list a step applies, as a reader would say it.
func listOwner(step Step, req request) string {
	agent := "agent " + name(req.Agent) + "'s"
	switch step {
	case StepGlobalAllow:
		return "the global allow list"
	case StepProviderAllow:
		return "provider " + name(req.Provider) + "'s allow list"
	case StepAgentAllow:
		return agent + " allow list"
	case StepAgentProviderAllow:
		return agent + " allow list for provider " + name(req.Provider)
	case StepChatGroupAllow:
		return "chat group " + name(req.ChatGroup) + "'s allow list"
	case StepRequestAllow:
		return "this request's allow list"
	case StepGlobalDeny:
		return "the global deny list"
	case StepAgentDeny:
		return agent + " deny list"
	case StepGlobalAlsoAllow:
		return "the global also-allow list"
	case StepAgentAlsoAllow:
		return agent + " also-allow list"
	case StepSubagentDeny:
		return "the deny list for subagents"
	case StepLeafDeny:
		return "the deny list for subagents at the deepest level"
	}
	return "the " + step.String() + " list"
}

func profileSentence(t *toolInfo, source string, p Profile, full, allowed bool) string {
	switch {
	case full:
		return fmt.Sprintf("%s is allowed: %s allows every tool.", t.name, profileOwner(source, p))
	case allowed:
		return fmt.Sprintf("%s is allowed: %s includes %s.", t.name, profileOwner(source, p), groupWords(t))
	}
	if w := groupWords(t); w != "it" {
		return fmt.Sprintf("%s is blocked because %s does not include %s.", t.name, profileOwner(source, p), w)
	}
	return fmt.Sprintf("%s is blocked because %s does not include it.", t.name, profileOwner(source, p))
}

func notListedSentence(t *toolInfo, step Step, req request) string {
	return fmt.Sprintf("%s is blocked because %s does not include it.", t.name, listOwner(step, req))
}

func deniedSentence(t *toolInfo, step Step, req request, entry string) string {
	return fmt.Sprintf("%s is blocked because %s denies it (entry %s).", t.name, listOwner(step, req), name(entry))
}

func addedSentence(t *toolInfo, step Step, req request) string {
	return fmt.Sprintf("%s is allowed: %s adds it back.", t.name, listOwner(step, req))
}

// agentCannotLift reports whether a deny matched at step binds every agent
// alike, so no change to one agent's lists can allow the tool.
func agentCannotLift(step Step) bool {
	return step == StepGlobalDeny || step == StepSubagentDeny || step == StepLeafDeny
}
