package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Config is the stored tool policy (JSON in the settings table). Lists hold
// entries as described in entry.go; an empty list means "no restriction" for
// allow lists and "nothing" for deny/alsoAllow lists.
type Config struct {
	// Profile is the global profile name; empty means full.
	Profile string `json:"profile,omitempty"`
	// ByProvider overrides the profile and narrows the allow list per LLM provider.
	ByProvider map[string]ProviderPolicy `json:"by_provider,omitempty"`
	// Allow is the global allow list (step 3, intersection).
	Allow []string `json:"allow,omitempty"`
	// Deny is the global deny list, applied after every allow step.
	Deny []string `json:"deny,omitempty"`
	// AlsoAllow re-adds registered tools after deny; it never overrides a deny.
	AlsoAllow []string `json:"also_allow,omitempty"`
	// Agents holds per-agent lists keyed by agent name.
	Agents map[string]AgentPolicy `json:"agents,omitempty"`
	// ChatGroups holds per-chat-group allow lists (step 7) keyed by chat group.
	ChatGroups map[string]GroupPolicy `json:"chat_groups,omitempty"`
	// Subagents holds the subagent deny lists; empty lists mean the seed defaults.
	Subagents SubagentPolicy `json:"subagents,omitzero"`
}

// ProviderPolicy is the per-provider part of the global policy.
type ProviderPolicy struct {
	// Profile replaces the global profile for this provider (step 2).
	Profile string `json:"profile,omitempty"`
	// Allow narrows the tools for this provider (step 4).
	Allow []string `json:"allow,omitempty"`
}

// AgentPolicy is the per-agent part of the policy.
type AgentPolicy struct {
	// Allow narrows the tools for this agent (step 5).
	Allow []string `json:"allow,omitempty"`
	// Deny removes tools for this agent after the global deny.
	Deny []string `json:"deny,omitempty"`
	// AlsoAllow re-adds tools for this agent after the global alsoAllow.
	AlsoAllow []string `json:"also_allow,omitempty"`
	// ByProvider narrows the tools for this agent on one provider (step 6).
	ByProvider map[string]ProviderAllow `json:"by_provider,omitempty"`
}

// ProviderAllow is an agent's allow list for one provider.
type ProviderAllow struct {
	// Allow narrows the tools for the agent on this provider.
	Allow []string `json:"allow,omitempty"`
}

// GroupPolicy is a chat group's allow list.
type GroupPolicy struct {
	// Allow narrows the tools usable in this chat group.
	Allow []string `json:"allow,omitempty"`
}

// SubagentPolicy lists the tools taken away from subagents.
type SubagentPolicy struct {
	// Deny applies at every subagent depth; empty means DefaultSubagentDeny().
	Deny []string `json:"deny,omitempty"`
	// LeafDeny applies at the maximum spawn depth; empty means DefaultLeafDeny().
	LeafDeny []string `json:"leaf_deny,omitempty"`
}

// DefaultMaxSpawnDepth is the seed's nesting limit, used when a Request leaves
// MaxSpawnDepth at zero.
const DefaultMaxSpawnDepth = 1

// DefaultSubagentDeny returns the seed's "always denied" list for subagents.
func DefaultSubagentDeny() []string {
	return []string{
		"gateway", "agents_list", "whatsapp_login", "session_status",
		"cron", "memory_search", "memory_get", "sessions_send",
	}
}

// DefaultLeafDeny returns the seed's list denied to subagents at max depth,
// so a leaf can neither inspect sessions nor spawn further.
func DefaultLeafDeny() []string {
	return []string{"sessions_list", "sessions_history", "sessions_spawn", "spawn", "subagent"}
}

// Request is the context of one tool-list evaluation.
type Request struct {
	// Profile overrides Config.Profile when set (e.g. an agent's own profile).
	Profile string `json:"profile,omitempty"`
	// Provider selects by_provider entries; empty skips them.
	Provider string `json:"provider,omitempty"`
	// Agent selects agents entries; empty skips them.
	Agent string `json:"agent,omitempty"`
	// ChatGroup selects chat_groups entries; empty skips them.
	ChatGroup string `json:"chat_group,omitempty"`
	// SubagentDepth is 0 for a top-level agent and n for a subagent n levels down.
	SubagentDepth int `json:"subagent_depth,omitempty"`
	// MaxSpawnDepth is the configured nesting limit; 0 means DefaultMaxSpawnDepth.
	MaxSpawnDepth int `json:"max_spawn_depth,omitempty"`
	// RequestAllow is intersected last: nil means no restriction, an empty
	// non-nil slice allows nothing. No omitempty: that would turn [] into nil.
	RequestAllow []string `json:"request_allow"`
}

// Validate reports every unknown profile and malformed entry, each naming
// where it is (e.g. `agents["coder"].deny[1]`) and the bad value.
func (c Config) Validate() error {
	_, err := compile(c)
	return err
}

// listRef is one entry list with its JSON path, for messages.
type listRef struct {
	path    string
	entries []string
}

// lists returns every entry list in a stable order (map keys sorted).
func (c Config) lists() []listRef {
	refs := []listRef{{"allow", c.Allow}, {"deny", c.Deny}, {"also_allow", c.AlsoAllow}}
	for _, p := range slices.Sorted(maps.Keys(c.ByProvider)) {
		refs = append(refs, listRef{providerPath(p) + ".allow", c.ByProvider[p].Allow})
	}
	for _, a := range slices.Sorted(maps.Keys(c.Agents)) {
		ap := c.Agents[a]
		base := agentPath(a)
		refs = append(refs,
			listRef{base + ".allow", ap.Allow},
			listRef{base + ".deny", ap.Deny},
			listRef{base + ".also_allow", ap.AlsoAllow})
		for _, p := range slices.Sorted(maps.Keys(ap.ByProvider)) {
			refs = append(refs, listRef{base + "." + providerPath(p) + ".allow", ap.ByProvider[p].Allow})
		}
	}
	for _, g := range slices.Sorted(maps.Keys(c.ChatGroups)) {
		refs = append(refs, listRef{chatGroupPath(g) + ".allow", c.ChatGroups[g].Allow})
	}
	return append(refs,
		listRef{"subagents.deny", c.Subagents.Deny},
		listRef{"subagents.leaf_deny", c.Subagents.LeafDeny})
}

func providerPath(name string) string  { return fmt.Sprintf("by_provider[%q]", name) }
func agentPath(name string) string     { return fmt.Sprintf("agents[%q]", name) }
func chatGroupPath(name string) string { return fmt.Sprintf("chat_groups[%q]", name) }

// Warnings lists entries that select nothing among the given tools: unknown
// tool names and group names that are neither built in nor declared. They are
// not errors because MCP tools register later, but a typo in a deny list
// silently denies nothing, so the UI should show them.
func (c Config) Warnings(tools []ToolRef) []string {
	registered := make(map[string]bool, len(tools))
	known := map[string]bool{GroupMCP: true, GroupCustom: true, GroupWarren: true}
	for g := range staticGroupTable() {
		known[g] = true
	}
	for _, t := range tools {
		registered[t.Name] = true
		for _, g := range GroupsOf(t) {
			known[g] = true
		}
	}
	var out []string
	for _, l := range c.lists() {
		for i, e := range l.entries {
			if e == "*" || entryProblem(e) != "" {
				continue // Validate reports malformed entries
			}
			group, isGroup := strings.CutPrefix(e, groupPrefix)
			switch {
			case isGroup && !known[group] && !strings.HasPrefix(group, mcpGroupPrefix):
				var like []string
				for _, g := range Suggest(group, slices.Sorted(maps.Keys(known))) {
					like = append(like, groupPrefix+g)
				}
				out = append(out, fmt.Sprintf("%s[%d]: unknown group %q%s", l.path, i, group, didYouMean(like)))
			case !isGroup && !registered[e]:
				out = append(out, fmt.Sprintf("%s[%d]: %q matches no registered tool%s", l.path, i, e,
					didYouMean(Suggest(e, slices.Sorted(maps.Keys(registered))))))
			}
		}
	}
	return out
}
