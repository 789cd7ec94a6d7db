// Package policy decides which tools the LLM may use. It is pure: callers load
// a Config (stored as JSON), build an Engine once, and evaluate a Request
// against the registered tools on every turn.
//
// Pipeline, in order (see Step): profile, provider profile, global allow,
// provider allow, agent allow, agent+provider allow, chat-group allow, global
// deny, agent deny, global alsoAllow, agent alsoAllow, subagent deny, leaf deny,
// per-request allow. Allow lists intersect, deny lists subtract, alsoAllow
// lists add back (only registered tools). Deny always wins: alsoAllow never
// re-adds a tool that a global or agent deny entry matched (by name, group or
// "*"), and the subagent deny lists and per-request allow list run after
// alsoAllow, so it cannot undo them either.
package policy

import (
	"maps"
	"slices"
)

// Engine evaluates one compiled Config. It is immutable after NewEngine and
// safe for concurrent use; it keeps no reference to the Config's slices.
type Engine struct {
	profile    Profile // global profile; zero when unset (full)
	profiles   map[Profile]*matcher
	allow      *matcher
	deny       *matcher
	alsoAllow  *matcher
	providers  map[string]providerRules
	agents     map[string]agentRules
	chatGroups map[string]*matcher
	subagent   *matcher
	leaf       *matcher
}

type providerRules struct {
	profile Profile
	allow   *matcher
}

type agentRules struct {
	allow, deny, alsoAllow *matcher
	byProvider             map[string]*matcher
}

// NewEngine validates and compiles cfg.
func NewEngine(cfg Config) (*Engine, error) {
	return compile(cfg)
}

// compiler collects every problem so Validate reports them all at once.
type compiler struct{ errs []error }

func (c *compiler) list(path, label string, entries []string) *matcher {
	m, err := compileEntries(path, label, entries)
	if err != nil {
		c.errs = append(c.errs, err)
	}
	return m
}

func (c *compiler) profile(path, value string) Profile {
	if value == "" {
		return 0
	}
	p, err := ParseProfile(value)
	if err != nil {
		c.errs = append(c.errs, errorf(ErrUnknownProfile, "%s: unknown profile %q (want one of %s)", path, value, profileList()))
	}
	return p
}

func (c *compiler) key(path, what, name string) {
	if name == "" {
		c.errs = append(c.errs, errorf(ErrInvalidConfig, "%s: empty %s name", path, what))
	}
}

func compile(cfg Config) (*Engine, error) {
	var c compiler
	e := &Engine{
		profile:    c.profile("profile", cfg.Profile),
		profiles:   make(map[Profile]*matcher),
		allow:      c.list("allow", "global allow", cfg.Allow),
		deny:       c.list("deny", "global deny", cfg.Deny),
		alsoAllow:  c.list("also_allow", "global also_allow", cfg.AlsoAllow),
		providers:  make(map[string]providerRules, len(cfg.ByProvider)),
		agents:     make(map[string]agentRules, len(cfg.Agents)),
		chatGroups: make(map[string]*matcher, len(cfg.ChatGroups)),
	}
	for _, p := range Profiles() {
		e.profiles[p] = c.list("profile "+p.String(), "profile "+p.String(), p.Entries())
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.ByProvider)) {
		pp, path := cfg.ByProvider[name], providerPath(name)
		c.key("by_provider", "provider", name)
		e.providers[name] = providerRules{
			profile: c.profile(path+".profile", pp.Profile),
			allow:   c.list(path+".allow", "provider "+quote(name)+" allow", pp.Allow),
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Agents)) {
		ap, path, label := cfg.Agents[name], agentPath(name), "agent "+quote(name)
		c.key("agents", "agent", name)
		r := agentRules{
			allow:      c.list(path+".allow", label+" allow", ap.Allow),
			deny:       c.list(path+".deny", label+" deny", ap.Deny),
			alsoAllow:  c.list(path+".also_allow", label+" also_allow", ap.AlsoAllow),
			byProvider: make(map[string]*matcher, len(ap.ByProvider)),
		}
		for _, prov := range slices.Sorted(maps.Keys(ap.ByProvider)) {
			c.key(path+".by_provider", "provider", prov)
			r.byProvider[prov] = c.list(path+"."+providerPath(prov)+".allow",
				label+" allow for provider "+quote(prov), ap.ByProvider[prov].Allow)
		}
		e.agents[name] = r
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.ChatGroups)) {
		c.key("chat_groups", "chat group", name)
		e.chatGroups[name] = c.list(chatGroupPath(name)+".allow", "chat group "+quote(name)+" allow", cfg.ChatGroups[name].Allow)
	}
	e.subagent = c.list("subagents.deny", "subagent deny", orDefault(cfg.Subagents.Deny, DefaultSubagentDeny))
	e.leaf = c.list("subagents.leaf_deny", "leaf deny", orDefault(cfg.Subagents.LeafDeny, DefaultLeafDeny))
	if err := joinErrors(c.errs); err != nil {
		return nil, err
	}
	return e, nil
}

func orDefault(list []string, def func() []string) []string {
	if len(list) == 0 {
		return def()
	}
	return list
}

// Decision is the outcome of Filter: the set of allowed tool names.
type Decision struct {
	names []string // sorted
}

// Allowed reports whether the named tool may be offered to the LLM.
func (d Decision) Allowed(name string) bool {
	_, found := slices.BinarySearch(d.names, name)
	return found
}

// Names returns the allowed tool names, sorted (stable prompts cache better).
func (d Decision) Names() []string { return slices.Clone(d.names) }

// Without returns the decision minus the tools drop reports true for
// (checks outside the profile pipeline, such as MCP grants).
func (d Decision) Without(drop func(name string) bool) Decision {
	return Decision{names: slices.DeleteFunc(slices.Clone(d.names), drop)}
}

// Len returns the number of allowed tools.
func (d Decision) Len() int { return len(d.names) }

// Filter runs the pipeline over the registered tools for one request.
func (e *Engine) Filter(tools []ToolRef, req Request) (Decision, error) {
	set, err := resolveTools(tools)
	if err != nil {
		return Decision{}, err
	}
	ev, err := e.evaluate(set, req, nil)
	if err != nil {
		return Decision{}, err
	}
	names := make([]string, 0, ev.in.count())
	for i, t := range set.tools {
		if ev.in.has(i) {
			names = append(names, t.name)
		}
	}
	slices.Sort(names)
	return Decision{names: names}, nil
}

// Explain runs the same pipeline as Filter and reports what every step did to
// one tool. Explaining a tool that is not in tools is an ErrUnknownTool error.
func (e *Engine) Explain(tool string, tools []ToolRef, req Request) (Explanation, error) {
	set, err := resolveTools(tools)
	if err != nil {
		return Explanation{}, err
	}
	target, ok := set.index[tool]
	if !ok {
		return Explanation{}, errorf(ErrUnknownTool, "explain: tool %q is not registered", tool)
	}
	tr := &tracer{target: target}
	ev, err := e.evaluate(set, req, tr)
	if err != nil {
		return Explanation{}, err
	}
	groups := slices.Clone(set.tools[target].groups)
	slices.Sort(groups)
	return Explanation{Tool: tool, Groups: groups, Allowed: ev.in.has(target), Steps: tr.steps,
		Summary: tr.summary, DeniedBy: tr.hardDeny}, nil
}
