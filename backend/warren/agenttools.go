package warren

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

// The Tools tab's "Allow for this agent": one agent gets a tool that policy
// keeps from it, by changing only that agent's lists.

// CannotAllowError is AllowToolForAgent refusing: something every agent is
// bound by, or a list entry that covers other tools too, keeps the tool
// out. Nothing was changed. Its message is one sentence for people.
type CannotAllowError struct {
	Tool, Agent string
	Reason      string
}

func (e *CannotAllowError) Error() string { return e.Reason }

// AllowToolForAgent lets agent use tool in its runs: a deny entry of the
// agent that names exactly the tool is removed, and the tool is added to
// the agent's also-allow list when a profile or allow list leaves it out
// (also-allow re-adds after every profile and allow list, never over a
// deny). It refuses with a *CannotAllowError when a deny that binds every
// agent, an agent deny entry that covers other tools (a group, "*") or the
// tool's MCP grants keep it out. It returns the tool's explanation for the
// agent's runs after the change.
func (w *Warren) AllowToolForAgent(ctx context.Context, agent, tool string) (policy.Explanation, error) {
	a, reg, t, err := w.agentTool(ctx, agent, tool)
	if err != nil {
		return policy.Explanation{}, err
	}
	refuse := func(format string, args ...any) (policy.Explanation, error) {
		return policy.Explanation{}, &CannotAllowError{Tool: tool, Agent: agent, Reason: fmt.Sprintf(format, args...)}
	}
	if ok, reason := w.mcpPermits(t, agent, localUser); !ok {
		return refuse("%s cannot be allowed here: %s. Change the server's access in the MCP tab.", tool, reason)
	}
	cfg := w.PolicyConfig()
	refs := toolRefs(reg.List())
	x, err := explainMerged(cfg, a, w.onTeam(ctx, agent), tool, refs)
	if err != nil || x.Allowed {
		return x, err
	}
	if x.DeniedBy != "" {
		return refuse("%s is on %s, which applies to every agent: no single agent can be exempted.", tool, x.DeniedBy)
	}
	ap := cfg.Agents[agent]
	var kept, keptStored []string
	for _, list := range []struct {
		in  []string
		out *[]string
	}{{ap.Deny, &kept}, {a.Deny, &keptStored}} {
		for _, e := range list.in {
			if e == tool {
				continue // the entry to lift
			}
			hit, err := policy.Expand([]string{e}, refs)
			if err != nil {
				return policy.Explanation{}, err
			}
			if hit[tool] {
				return refuse("%s is denied to agent %q by its deny entry %q, which covers other tools too: edit the agent's deny list in Agents.", tool, agent, e)
			}
			*list.out = append(*list.out, e)
		}
	}
	cfg = withAgentPolicy(cfg, agent, func(p *policy.AgentPolicy) { p.Deny = kept })
	a.Deny = keptStored
	if x, err = explainMerged(cfg, a, w.onTeam(ctx, agent), tool, refs); err != nil {
		return x, err
	}
	if !x.Allowed {
		cfg = withAgentPolicy(cfg, agent, func(p *policy.AgentPolicy) { p.AlsoAllow = append(slices.Clone(p.AlsoAllow), tool) })
		if x, err = explainMerged(cfg, a, w.onTeam(ctx, agent), tool, refs); err != nil {
			return x, err
		}
	}
	if !x.Allowed {
		return refuse("%s", x.Summary)
	}
	return x, w.storeAgentLists(ctx, agent, cfg, a)
}

// StopAllowingToolForAgent undoes AllowToolForAgent's also-allow entry: the
// tool is again subject to the profile and allow lists. It returns the
// tool's explanation for the agent's runs after the change.
func (w *Warren) StopAllowingToolForAgent(ctx context.Context, agent, tool string) (policy.Explanation, error) {
	a, reg, _, err := w.agentTool(ctx, agent, tool)
	if err != nil {
		return policy.Explanation{}, err
	}
	cfg := withAgentPolicy(w.PolicyConfig(), agent, func(p *policy.AgentPolicy) {
		p.AlsoAllow = slices.DeleteFunc(slices.Clone(p.AlsoAllow), func(e string) bool { return e == tool })
	})
	x, err := explainMerged(cfg, a, w.onTeam(ctx, agent), tool, toolRefs(reg.List()))
	if err != nil {
		return x, err
	}
	return x, w.storeAgentLists(ctx, agent, cfg, a)
}

// agentTool looks up an agent and one tool of its registry.
func (w *Warren) agentTool(ctx context.Context, agent, tool string) (store.Agent, *tools.Registry, tools.Tool, error) {
	if agent == "" {
		return store.Agent{}, nil, nil, fmt.Errorf("%w: choose the agent to change", ErrUnknownAgent)
	}
	if err := w.checkProfileAgent(ctx, "", agent); err != nil {
		return store.Agent{}, nil, nil, err
	}
	a, err := w.db.GetAgent(ctx, agent)
	if err != nil {
		return store.Agent{}, nil, nil, err
	}
	reg, err := w.registryFor(ctx, agent)
	if err != nil {
		return store.Agent{}, nil, nil, err
	}
	t, ok := reg.Get(tool)
	if !ok {
		return store.Agent{}, nil, nil, fmt.Errorf("%w %q (see `warren tools`)", policy.ErrUnknownTool, tool)
	}
	return a, reg, t, nil
}

// storeAgentLists saves the agent's row when its deny list changed, then
// the policy when it changed; either applies at once.
func (w *Warren) storeAgentLists(ctx context.Context, agent string, cfg policy.Config, a store.Agent) error {
	old, err := w.db.GetAgent(ctx, agent)
	if err != nil {
		return err
	}
	if !slices.Equal(old.Deny, a.Deny) {
		if err := w.db.PutAgent(ctx, a); err != nil {
			return err
		}
		w.forgetAgentPolicy(agent)
	}
	if cur := w.PolicyConfig().Agents[agent]; !agentPolicyEqual(cur, cfg.Agents[agent]) {
		return w.SetPolicy(ctx, cfg)
	}
	return nil
}

func agentPolicyEqual(a, b policy.AgentPolicy) bool {
	return slices.Equal(a.Allow, b.Allow) && slices.Equal(a.Deny, b.Deny) && slices.Equal(a.AlsoAllow, b.AlsoAllow) &&
		maps.EqualFunc(a.ByProvider, b.ByProvider, func(x, y policy.ProviderAllow) bool { return slices.Equal(x.Allow, y.Allow) })
}

// withAgentPolicy returns cfg with agent's entry edited; cfg's own maps and
// slices are left alone (it may be the live policy's copy).
func withAgentPolicy(cfg policy.Config, agent string, edit func(*policy.AgentPolicy)) policy.Config {
	cfg.Agents = maps.Clone(cfg.Agents)
	if cfg.Agents == nil {
		cfg.Agents = map[string]policy.AgentPolicy{}
	}
	p := cfg.Agents[agent]
	edit(&p)
	if len(p.Allow)+len(p.Deny)+len(p.AlsoAllow)+len(p.ByProvider) == 0 {
		delete(cfg.Agents, agent)
	} else {
		cfg.Agents[agent] = p
	}
	return cfg
}

// mergeAgentLists is the policy an agent's runs follow: the stored policy
// with the agent's own allow/deny lists (agents table) added to its entry.
//
// An agent on a team also gets the teams group (team_tasks, team_message)
// whatever its profile: the board is how a team works. Its own deny list
// still wins.
func mergeAgentLists(cfg policy.Config, a store.Agent, onTeam bool) policy.Config {
	if len(a.Allow) == 0 && len(a.Deny) == 0 && !onTeam {
		return cfg
	}
	return withAgentPolicy(cfg, a.Key, func(p *policy.AgentPolicy) {
		p.Allow = append(slices.Clone(p.Allow), a.Allow...)
		p.Deny = append(slices.Clone(p.Deny), a.Deny...)
		if onTeam {
			p.AlsoAllow = append(slices.Clone(p.AlsoAllow), "group:teams")
		}
	})
}

// onTeam reports whether agent is the lead or a member of a team; a failed
// lookup counts as no (the team tools are then not offered).
func (w *Warren) onTeam(ctx context.Context, agent string) bool {
	if w.teams == nil || agent == "" {
		return false
	}
	ts, err := w.teams.TeamsOf(ctx, agent)
	return err == nil && len(ts) > 0
}

// explainMerged explains tool for a's runs (its own profile, "" = global)
// under cfg merged with a's lists.
func explainMerged(cfg policy.Config, a store.Agent, onTeam bool, tool string, refs []policy.ToolRef) (policy.Explanation, error) {
	eng, err := policy.NewEngine(mergeAgentLists(cfg, a, onTeam))
	if err != nil {
		return policy.Explanation{}, fmt.Errorf("agent %q: its policy lists are invalid: %w", a.Key, err)
	}
	x, err := eng.Explain(tool, refs, policy.Request{Profile: a.Profile, Agent: a.Key})
	if errors.Is(err, policy.ErrUnknownTool) {
		return x, fmt.Errorf("%w %q", policy.ErrUnknownTool, tool)
	}
	return x, err
}
