package warren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

// ErrUnknownAgent marks a request naming an agent that does not exist.
var ErrUnknownAgent = errors.New("unknown agent")

// settingPolicy is the settings key holding the policy.Config JSON.
const settingPolicy = "policy"

// DefaultProfile is the profile of a fresh install: enough to work on files,
// nothing that reaches outside the workspace without a later opt-in.
const DefaultProfile = "coding"

// policyState caches the compiled engine and per-request decisions; any
// config or tool-set change bumps the generation and drops the cache.
type policyState struct {
	mu        sync.Mutex
	cfg       policy.Config
	engine    *policy.Engine
	decisions map[decisionKey]cachedDecision
	// agentEngines merge each agent's own allow/deny lists (agents table)
	// into the stored policy; rechecked every reloadEvery so edits made by
	// another process apply within a second.
	agentEngines map[string]agentEngine
}

type agentEngine struct {
	eng     *policy.Engine
	sig     string
	checked time.Time
}

type decisionKey struct {
	profile, agent string
	depth          int
}

// cachedDecision remembers which tool set and engine a decision was computed for.
type cachedDecision struct {
	reg *tools.Registry
	gen uint64
	eng *policy.Engine
	d   policy.Decision
}

func loadPolicy(ctx context.Context, s store.Settings) (*policyState, error) {
	cfg := policy.Config{Profile: DefaultProfile}
	raw, ok, err := s.GetSetting(ctx, settingPolicy)
	if err != nil {
		return nil, err
	}
	if ok {
		cfg = policy.Config{}
		if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
			return nil, fmt.Errorf("stored policy is not valid JSON (fix or delete setting %q): %w", settingPolicy, err)
		}
	}
	eng, err := policy.NewEngine(cfg)
	if err != nil {
		return nil, fmt.Errorf("stored policy is invalid: %w", err)
	}
	return &policyState{cfg: cfg, engine: eng, decisions: map[decisionKey]cachedDecision{}, agentEngines: map[string]agentEngine{}}, nil
}

func toolRefs(ts []tools.Tool) []policy.ToolRef {
	refs := make([]policy.ToolRef, len(ts))
	for i, t := range ts {
		info := t.Info()
		refs[i] = policy.ToolRef{Name: info.Name, Group: info.Group}
	}
	return refs
}

// decision returns the allow set for a profile and agent over the agent's
// registry, cached until the config or that registry's tool set changes.
func (w *Warren) decision(reg *tools.Registry, profile, agent string) (policy.Decision, error) {
	return w.decisionAt(reg, profile, agent, 0)
}

// decisionAt is decision for a subagent depth levels down (0 = top level).
func (w *Warren) decisionAt(reg *tools.Registry, profile, agent string, depth int) (policy.Decision, error) {
	ps := w.policy
	ps.mu.Lock()
	defer ps.mu.Unlock()
	key := decisionKey{profile, agent, depth}
	gen := reg.Generation()
	eng := w.engineFor(agent)
	if c, ok := ps.decisions[key]; ok && c.reg == reg && c.gen == gen && c.eng == eng {
		return c.d, nil
	}
	d, err := eng.Filter(toolRefs(reg.List()), policy.Request{Profile: profile, Agent: agent, SubagentDepth: depth})
	if err != nil {
		return policy.Decision{}, err
	}
	d = w.withoutUngranted(reg, d, agent)
	ps.decisions[key] = cachedDecision{reg: reg, gen: gen, eng: eng, d: d}
	return d, nil
}

// gate is the registry's policy check for every call, with the run's
// profile and agent. Tools injected for one run (plan_create…) are not in
// the agent's registry; they are judged together with it.
func (w *Warren) gate(ctx context.Context, info tools.Info) (bool, string) {
	cc := tools.CallContextFrom(ctx)
	reg, err := w.registryFor(ctx, cc.Agent)
	if err != nil {
		return false, err.Error()
	}
	if _, ok := reg.Get(info.Name); !ok {
		if reg, err = reg.WithTools(injected{info}); err != nil {
			return false, err.Error()
		}
	}
	d, err := w.decisionAt(reg, cc.Profile, cc.Agent, cc.Depth)
	if err != nil {
		return false, err.Error()
	}
	if d.Allowed(info.Name) {
		return true, ""
	}
	if cc.Depth > 0 {
		return false, fmt.Sprintf("subagents (depth %d) may not use %s", cc.Depth, info.Name)
	}
	return false, w.denialReason(reg, info.Name, cc.Profile, cc.Agent)
}

// injected stands for a per-run tool when the gate evaluates policy.
type injected struct{ info tools.Info }

func (i injected) Info() tools.Info {
	if i.info.Class == tools.ClassStatic {
		i.info.Class = tools.ClassRuntime
	}
	return i.info
}

func (i injected) Execute(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, errors.New("policy placeholder: not executable")
}

// dropDecisions forgets cached decisions (grants changed).
func (w *Warren) dropDecisions() {
	w.policy.mu.Lock()
	w.policy.decisions = map[decisionKey]cachedDecision{}
	w.policy.mu.Unlock()
}

// denialReason names the step that removed a tool, for messages and the UI.
func (w *Warren) denialReason(reg *tools.Registry, tool, profile, agent string) string {
	if t, ok := reg.Get(tool); ok {
		if allowed, reason := w.mcpPermits(t, agent, localUser); !allowed {
			return reason
		}
	}
	x, err := w.explain(reg, tool, profile, agent)
	if err != nil {
		return err.Error()
	}
	if x.Summary != "" {
		return x.Summary // one sentence naming what decided, for people and models alike
	}
	reason := "removed by policy"
	for _, st := range x.Steps {
		if st.Outcome == policy.OutcomeRemoved {
			reason = st.Detail
		}
	}
	return reason
}

// Profiles lists the profile names.
func (w *Warren) Profiles() []string {
	ps := policy.Profiles()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// PolicyConfig returns a copy of the stored policy.
func (w *Warren) PolicyConfig() policy.Config {
	w.policy.mu.Lock()
	defer w.policy.mu.Unlock()
	return w.policy.cfg
}

// ActiveProfile returns the global profile name.
func (w *Warren) ActiveProfile() string {
	p := w.PolicyConfig().Profile
	if p == "" {
		return "full"
	}
	return p
}

// SetPolicy validates, stores and activates a policy config.
func (w *Warren) SetPolicy(ctx context.Context, cfg policy.Config) error {
	eng, err := policy.NewEngine(cfg)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encode policy: %w", err)
	}
	if err := w.db.SetSetting(ctx, settingPolicy, string(raw)); err != nil {
		return err
	}
	w.policy.mu.Lock()
	w.policy.cfg, w.policy.engine = cfg, eng
	w.policy.decisions = map[decisionKey]cachedDecision{}
	w.policy.agentEngines = map[string]agentEngine{}
	w.policy.mu.Unlock()
	return nil
}

// SetActiveProfile changes and persists the global profile.
func (w *Warren) SetActiveProfile(ctx context.Context, profile string) error {
	if _, err := policy.ParseProfile(profile); err != nil {
		return err
	}
	cfg := w.PolicyConfig()
	cfg.Profile = profile
	return w.SetPolicy(ctx, cfg)
}

// checkProfileAgent validates the optional profile and agent of a request.
func (w *Warren) checkProfileAgent(ctx context.Context, profile, agent string) error {
	if profile != "" {
		if _, err := policy.ParseProfile(profile); err != nil {
			return err
		}
	}
	if agent == "" {
		return nil
	}
	if _, err := w.db.GetAgent(ctx, agent); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			agents, _ := w.db.ListAgents(ctx)
			keys := make([]string, len(agents))
			for i, a := range agents {
				keys[i] = a.Key
			}
			return fmt.Errorf("%w %q (known: %s)", ErrUnknownAgent, agent, strings.Join(keys, ", "))
		}
		return err
	}
	return nil
}

func (w *Warren) explain(reg *tools.Registry, tool, profile, agent string) (policy.Explanation, error) {
	w.policy.mu.Lock()
	eng := w.engineFor(agent)
	w.policy.mu.Unlock()
	return eng.Explain(tool, toolRefs(reg.List()), policy.Request{Profile: profile, Agent: agent})
}

// ExplainTool is Explain with the profile and agent validated first.
func (w *Warren) ExplainTool(ctx context.Context, tool, profile, agent string) (policy.Explanation, error) {
	if err := w.checkProfileAgent(ctx, profile, agent); err != nil {
		return policy.Explanation{}, err
	}
	reg, err := w.registryFor(ctx, agent)
	if err != nil {
		return policy.Explanation{}, err
	}
	if _, ok := reg.Get(tool); !ok {
		return policy.Explanation{}, fmt.Errorf("%w %q (see `warren tools`)", policy.ErrUnknownTool, tool)
	}
	return w.explain(reg, tool, profile, agent)
}

// CheckAgent returns an error naming the known agents when agent is unknown.
func (w *Warren) CheckAgent(ctx context.Context, agent string) error {
	return w.checkProfileAgent(ctx, "", agent)
}

// SetAlsoAllow adds or removes one global also-allow entry (a tool name or
// group:NAME): how MCP or custom tools are offered under a profile that
// does not include them. Denies still win.
func (w *Warren) SetAlsoAllow(ctx context.Context, entry string, on bool) error {
	cfg := w.PolicyConfig()
	list := slices.DeleteFunc(slices.Clone(cfg.AlsoAllow), func(e string) bool { return e == entry })
	if on {
		list = append(list, entry)
	}
	cfg.AlsoAllow = list
	return w.SetPolicy(ctx, cfg)
}

// EntryWarnings says which entries of a list (tool names, group:NAME) name
// nothing Warren knows, with the likely names: advice, as for an agent's
// lists (an MCP server's tools are known only while it runs).
func (w *Warren) EntryWarnings(entries []string) []string {
	return policy.Config{AlsoAllow: entries}.Warnings(toolRefs(w.registry.List()))
}

// engineFor returns the engine for an agent: the stored policy with the
// agent's own allow/deny lists (set in the Agents editor or `warren agents`)
// merged into its per-agent entry. The caller holds w.policy.mu.
func (w *Warren) engineFor(agent string) *policy.Engine {
	ps := w.policy
	if agent == "" {
		return ps.engine
	}
	now := time.Now()
	ae, cached := ps.agentEngines[agent]
	if cached && now.Sub(ae.checked) < reloadEvery {
		return ae.eng
	}
	a, err := w.db.GetAgent(w.life, agent)
	team := w.onTeam(w.life, agent)
	if err != nil || (len(a.Allow) == 0 && len(a.Deny) == 0 && !team) {
		ps.agentEngines[agent] = agentEngine{eng: ps.engine, checked: now}
		return ps.engine
	}
	sig := strings.Join(a.Allow, "\x00") + "\x01" + strings.Join(a.Deny, "\x00") + "\x01" + strconv.FormatBool(team)
	if cached && ae.sig == sig {
		ae.checked = now
		ps.agentEngines[agent] = ae
		return ae.eng
	}
	cfg := mergeAgentLists(ps.cfg, a, team) // AllowToolForAgent judges with the same merge
	eng, err := policy.NewEngine(cfg)
	if err != nil {
		// A malformed entry must not widen anything: deny this agent everything.
		w.log.Warn("agent policy lists are invalid; the agent gets no tools until fixed", "agent", agent, "err", err)
		cfg.Agents[agent] = policy.AgentPolicy{Allow: []string{}, Deny: []string{"*"}}
		if eng, err = policy.NewEngine(cfg); err != nil {
			eng = ps.engine
		}
	}
	ps.agentEngines[agent] = agentEngine{eng: eng, sig: sig, checked: now}
	return eng
}

// forgetAgentPolicies drops every agent's cached engine: who is on a team
// changed, and team agents get the team tools.
func (w *Warren) forgetAgentPolicies() {
	w.policy.mu.Lock()
	clear(w.policy.agentEngines)
	w.policy.mu.Unlock()
}

// forgetAgentPolicy drops the cached engine of an agent whose lists this
// process just changed, so the change applies at once.
func (w *Warren) forgetAgentPolicy(agent string) {
	w.policy.mu.Lock()
	delete(w.policy.agentEngines, agent)
	w.policy.mu.Unlock()
}
