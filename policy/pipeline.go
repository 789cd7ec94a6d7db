package policy

import (
	"fmt"
	"strings"
)

// Step is one stage of the policy pipeline, in evaluation order.
type Step uint8

// Steps 1–7 are the seed's allow pipeline; the rest follow it in order.
const (
	// StepGlobalProfile applies the request or global profile (step 1).
	StepGlobalProfile Step = iota + 1
	// StepProviderProfile replaces the profile with the provider's (step 2).
	StepProviderProfile
	// StepGlobalAllow intersects with the global allow list (step 3).
	StepGlobalAllow
	// StepProviderAllow intersects with the provider's allow list (step 4).
	StepProviderAllow
	// StepAgentAllow intersects with the agent's allow list (step 5).
	StepAgentAllow
	// StepAgentProviderAllow intersects with the agent's per-provider allow list (step 6).
	StepAgentProviderAllow
	// StepChatGroupAllow intersects with the chat group's allow list (step 7).
	StepChatGroupAllow
	// StepGlobalDeny removes globally denied tools.
	StepGlobalDeny
	// StepAgentDeny removes tools the agent denies.
	StepAgentDeny
	// StepGlobalAlsoAllow re-adds globally also-allowed tools that no deny matched.
	StepGlobalAlsoAllow
	// StepAgentAlsoAllow re-adds the agent's also-allowed tools that no deny matched.
	StepAgentAlsoAllow
	// StepSubagentDeny removes tools denied to every subagent.
	StepSubagentDeny
	// StepLeafDeny removes tools denied to subagents at the maximum spawn depth.
	StepLeafDeny
	// StepRequestAllow intersects with the per-request allow list, last.
	StepRequestAllow
)

var stepNames = [...]string{
	StepGlobalProfile:      "global_profile",
	StepProviderProfile:    "provider_profile",
	StepGlobalAllow:        "global_allow",
	StepProviderAllow:      "provider_allow",
	StepAgentAllow:         "agent_allow",
	StepAgentProviderAllow: "agent_provider_allow",
	StepChatGroupAllow:     "chat_group_allow",
	StepGlobalDeny:         "global_deny",
	StepAgentDeny:          "agent_deny",
	StepGlobalAlsoAllow:    "global_also_allow",
	StepAgentAlsoAllow:     "agent_also_allow",
	StepSubagentDeny:       "subagent_deny",
	StepLeafDeny:           "leaf_deny",
	StepRequestAllow:       "request_allow",
}

// String returns the step's stable snake_case name.
func (s Step) String() string {
	if s >= StepGlobalProfile && s <= StepRequestAllow {
		return stepNames[s]
	}
	return fmt.Sprintf("Step(%d)", uint8(s))
}

// MarshalText encodes the step as its name for JSON traces.
func (s Step) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a step name.
func (s *Step) UnmarshalText(b []byte) error {
	for i, name := range stepNames {
		if name != "" && name == string(b) {
			*s = Step(i)
			return nil
		}
	}
	return fmt.Errorf("policy: unknown step %q", b)
}

// evaluation is the state of one pipeline run. Filter and Explain share it;
// only Explain sets tr, and details are formatted only for the traced tool so
// Filter pays nothing for explanations.
type evaluation struct {
	set    *toolSet
	in     bitset // tools currently allowed
	denied bitset // tools a global/agent deny matched: alsoAllow may not re-add them
	sel    bitset // scratch: what the current step's list selects
	tr     *tracer
}

// tracer records what each step did to one tool.
type tracer struct {
	target   int
	req      request // for skip reasons, formatted only when tracing
	steps    []StepTrace
	deniedBy string // which deny matched, quoted when alsoAllow is refused
	// summary is the verdict in one sentence, rewritten by every step that
	// changes it; hardDeny names a deny every agent is bound by.
	summary, hardDeny string
}

func newEvaluation(set *toolSet, tr *tracer) *evaluation {
	n := len(set.tools)
	ev := &evaluation{set: set, in: newBitset(n), denied: newBitset(n), sel: newBitset(n), tr: tr}
	ev.in.fill(n) // the pipeline starts from all registered tools
	return ev
}

// before returns the traced tool and whether it is currently allowed; ok is
// false when nothing is being traced.
func (ev *evaluation) before() (t *toolInfo, was, ok bool) {
	if ev.tr == nil {
		return nil, false, false
	}
	return &ev.set.tools[ev.tr.target], ev.in.has(ev.tr.target), true
}

func (ev *evaluation) record(step Step, o Outcome, detail string) {
	ev.tr.steps = append(ev.tr.steps, StepTrace{Step: step, Outcome: o, Detail: detail})
}

// skip records a step that does not apply to this request; the reason is
// built only when tracing so Filter does not allocate for it.
func (ev *evaluation) skip(step Step) {
	if ev.tr != nil {
		ev.record(step, OutcomeSkipped, skipReason(step, ev.tr.req))
	}
}

// profile sets the allowed set to the profile's tools, computed from all
// registered tools: step 2 replaces step 1 rather than narrowing it, so a
// provider profile of "full" really means full. A nil matcher means full.
func (ev *evaluation) profile(step Step, p Profile, m *matcher, source string) {
	t, was, tracing := ev.before()
	ev.set.selectInto(ev.in, m)
	if !tracing {
		return
	}
	now := ev.in.has(ev.tr.target)
	var detail string
	switch {
	case m == nil:
		detail = fmt.Sprintf("%s full allows every registered tool", source)
	case now:
		entry, _ := m.match(t)
		detail = fmt.Sprintf("%s %s includes %s (entry %s)", source, p, t.name, entry)
	default:
		detail = fmt.Sprintf("%s %s does not include %s (groups: %s)", source, p, t.name, strings.Join(t.groups, ", "))
	}
	if step == StepProviderProfile {
		detail += "; it replaces the global profile"
	}
	if step == StepGlobalProfile || was != now {
		ev.tr.summary = profileSentence(t, source, p, m == nil, now)
	}
	ev.record(step, change(was, now), detail)
}

// restrict intersects the allowed set with m; a nil m means the list is not
// configured and the step is skipped.
func (ev *evaluation) restrict(step Step, m *matcher) {
	if m == nil {
		ev.skip(step)
		return
	}
	t, was, tracing := ev.before()
	ev.set.selectInto(ev.sel, m)
	ev.in.and(ev.sel)
	if !tracing {
		return
	}
	entry, ok := m.match(t)
	switch {
	case !was:
		ev.record(step, OutcomeUnchanged, "already removed by an earlier step")
	case ok:
		ev.record(step, OutcomeKept, fmt.Sprintf("allowed by %s entry %s", m.label, entry))
	default:
		ev.tr.summary = notListedSentence(t, step, ev.tr.req)
		ev.record(step, OutcomeRemoved, fmt.Sprintf("%s list does not include %s", m.label, t.name))
	}
}

// subtract removes every tool m matches, and remembers them as denied even if
// they were already removed, so a later alsoAllow cannot resurrect them.
func (ev *evaluation) subtract(step Step, m *matcher) {
	if m == nil {
		ev.skip(step)
		return
	}
	t, was, tracing := ev.before()
	ev.set.selectInto(ev.sel, m)
	ev.in.andNot(ev.sel)
	ev.denied.or(ev.sel)
	if !tracing {
		return
	}
	entry, ok := m.match(t)
	if ok {
		ev.tr.deniedBy = fmt.Sprintf("%s entry %s", m.label, entry)
		if agentCannotLift(step) {
			ev.tr.hardDeny = listOwner(step, ev.tr.req) + " (entry " + name(entry) + ")"
		}
		if was {
			ev.tr.summary = deniedSentence(t, step, ev.tr.req, entry)
		}
	}
	switch {
	case ok && was:
		ev.record(step, OutcomeRemoved, "denied by "+ev.tr.deniedBy)
	case ok:
		ev.record(step, OutcomeUnchanged, "already removed; also denied by "+ev.tr.deniedBy)
	case was:
		ev.record(step, OutcomeKept, fmt.Sprintf("%s list does not match it", m.label))
	default:
		ev.record(step, OutcomeUnchanged, "already removed by an earlier step")
	}
}

// add re-adds registered tools m matches (alsoAllow). It never re-adds a tool
// that a global or agent deny matched: deny beats every kind of allow.
func (ev *evaluation) add(step Step, m *matcher) {
	if m == nil {
		ev.skip(step)
		return
	}
	t, was, tracing := ev.before()
	ev.set.selectInto(ev.sel, m)
	ev.sel.andNot(ev.denied)
	ev.in.or(ev.sel)
	if !tracing {
		return
	}
	entry, ok := m.match(t)
	switch {
	case was:
		ev.record(step, OutcomeKept, "already allowed")
	case !ok:
		ev.record(step, OutcomeUnchanged, fmt.Sprintf("%s list does not include %s", m.label, t.name))
	case ev.denied.has(ev.tr.target):
		ev.record(step, OutcomeUnchanged, fmt.Sprintf("%s entry %s cannot override %s", m.label, entry, ev.tr.deniedBy))
	default:
		ev.tr.summary = addedSentence(t, step, ev.tr.req)
		ev.record(step, OutcomeAdded, fmt.Sprintf("re-added by %s entry %s", m.label, entry))
	}
}

// change maps a before/after membership to the outcome shown in traces.
func change(was, now bool) Outcome {
	switch {
	case was && now:
		return OutcomeKept
	case was:
		return OutcomeRemoved
	case now:
		return OutcomeAdded
	default:
		return OutcomeUnchanged
	}
}
