package policy

import (
	"fmt"
	"strconv"
)

// request is a Request checked and compiled for one evaluation.
type request struct {
	Request
	profile  Profile  // zero when the request does not override the profile
	allow    *matcher // nil when there is no per-request list
	maxDepth int
}

func prepare(req Request) (request, error) {
	r := request{Request: req, maxDepth: req.MaxSpawnDepth}
	if req.Profile != "" {
		p, err := ParseProfile(req.Profile)
		if err != nil {
			return r, errorf(ErrUnknownProfile, "request profile: unknown profile %q (want one of %s)", req.Profile, profileList())
		}
		r.profile = p
	}
	if req.SubagentDepth < 0 {
		return r, errorf(ErrInvalidRequest, "subagent depth %d is negative", req.SubagentDepth)
	}
	if req.MaxSpawnDepth < 0 {
		return r, errorf(ErrInvalidRequest, "max spawn depth %d is negative", req.MaxSpawnDepth)
	}
	if r.maxDepth == 0 {
		r.maxDepth = DefaultMaxSpawnDepth
	}
	if req.RequestAllow != nil {
		m, err := compileEntries("request_allow", "request allow", req.RequestAllow)
		if err != nil {
			return r, err
		}
		if m == nil {
			// A non-nil empty list is an explicit "no tools", unlike nil.
			m = &matcher{label: "request allow"}
		}
		r.allow = m
	}
	return r, nil
}

// evaluate is the one pipeline implementation behind Filter and Explain.
func (e *Engine) evaluate(tools *toolSet, raw Request, tr *tracer) (*evaluation, error) {
	req, err := prepare(raw)
	if err != nil {
		return nil, err
	}
	if tr != nil {
		tr.req = req
	}
	ev := newEvaluation(tools, tr)

	// Step 1: the request's profile wins over the stored global one.
	profile, source := e.profile, "global profile"
	switch {
	case req.profile != 0:
		profile, source = req.profile, "request profile"
	case profile == 0:
		profile, source = ProfileFull, "default profile"
	}
	ev.profile(StepGlobalProfile, profile, e.profiles[profile], source)

	var prov providerRules
	if req.Provider != "" {
		prov = e.providers[req.Provider]
	}
	if prov.profile != 0 {
		ev.profile(StepProviderProfile, prov.profile, e.profiles[prov.profile], "provider profile")
	} else {
		ev.skip(StepProviderProfile)
	}

	var agent agentRules
	if req.Agent != "" {
		agent = e.agents[req.Agent]
	}
	var chat *matcher
	if req.ChatGroup != "" {
		chat = e.chatGroups[req.ChatGroup]
	}
	ev.restrict(StepGlobalAllow, e.allow)
	ev.restrict(StepProviderAllow, prov.allow)
	ev.restrict(StepAgentAllow, agent.allow)
	ev.restrict(StepAgentProviderAllow, agent.byProvider[req.Provider])
	ev.restrict(StepChatGroupAllow, chat)

	ev.subtract(StepGlobalDeny, e.deny)
	ev.subtract(StepAgentDeny, agent.deny)
	ev.add(StepGlobalAlsoAllow, e.alsoAllow)
	ev.add(StepAgentAlsoAllow, agent.alsoAllow)

	if req.SubagentDepth > 0 {
		ev.subtract(StepSubagentDeny, e.subagent)
	} else {
		ev.skip(StepSubagentDeny)
	}
	if req.SubagentDepth > 0 && req.SubagentDepth >= req.maxDepth {
		ev.subtract(StepLeafDeny, e.leaf)
	} else {
		ev.skip(StepLeafDeny)
	}

	ev.restrict(StepRequestAllow, req.allow)
	return ev, nil
}

// skipReason says why a step did not apply, for traces only.
func skipReason(step Step, req request) string {
	switch step {
	case StepProviderProfile:
		return "no profile override for provider " + quote(req.Provider)
	case StepGlobalAllow:
		return "global allow list is empty"
	case StepProviderAllow:
		return "no allow list for provider " + quote(req.Provider)
	case StepAgentAllow:
		return "no allow list for agent " + quote(req.Agent)
	case StepAgentProviderAllow:
		return "no allow list for agent " + quote(req.Agent) + " on provider " + quote(req.Provider)
	case StepChatGroupAllow:
		return "no allow list for chat group " + quote(req.ChatGroup)
	case StepGlobalDeny:
		return "global deny list is empty"
	case StepAgentDeny:
		return "no deny list for agent " + quote(req.Agent)
	case StepGlobalAlsoAllow:
		return "global also_allow list is empty"
	case StepAgentAlsoAllow:
		return "no also_allow list for agent " + quote(req.Agent)
	case StepSubagentDeny:
		return "not a subagent (depth 0)"
	case StepLeafDeny:
		if req.SubagentDepth == 0 {
			return "not a subagent (depth 0)"
		}
		return fmt.Sprintf("depth %d is below max spawn depth %d", req.SubagentDepth, req.maxDepth)
	case StepRequestAllow:
		return "no per-request allow list"
	default:
		return "not applicable"
	}
}

// quote formats a name for messages; an empty one reads as "" so a reader
// sees that the request left it unset.
func quote(s string) string { return strconv.Quote(s) }
