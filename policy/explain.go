package policy

import (
	"fmt"
	"strings"
)

// Outcome is what one step did to the explained tool.
type Outcome uint8

// Outcomes, as shown in traces.
const (
	// OutcomeKept means the tool was allowed before the step and still is.
	OutcomeKept Outcome = iota + 1
	// OutcomeRemoved means the step took the tool away.
	OutcomeRemoved
	// OutcomeAdded means the step (provider profile or alsoAllow) gave the tool back.
	OutcomeAdded
	// OutcomeUnchanged means the tool was already out and stays out.
	OutcomeUnchanged
	// OutcomeSkipped means the step does not apply to this request.
	OutcomeSkipped
)

var outcomeNames = [...]string{
	OutcomeKept:      "kept",
	OutcomeRemoved:   "removed",
	OutcomeAdded:     "added",
	OutcomeUnchanged: "unchanged",
	OutcomeSkipped:   "skipped",
}

// String returns the outcome's name, e.g. "removed".
func (o Outcome) String() string {
	if o >= OutcomeKept && o <= OutcomeSkipped {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText encodes the outcome as its name for JSON traces.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes an outcome name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, name := range outcomeNames {
		if name != "" && name == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("policy: unknown outcome %q", b)
}

// StepTrace is one line of an explanation.
type StepTrace struct {
	// Step is the pipeline stage.
	Step Step `json:"step" ts_type:"string"`
	// Outcome is what the stage did to the tool.
	Outcome Outcome `json:"outcome" ts_type:"string"`
	// Detail says why, naming the profile, list and entry involved.
	Detail string `json:"detail"`
}

// Explanation is the trace of one tool through the whole pipeline; it has one
// StepTrace per Step, in order, so a UI can render a fixed table.
type Explanation struct {
	// Tool is the explained tool name.
	Tool string `json:"tool"`
	// Groups are the groups the tool belongs to, sorted.
	Groups []string `json:"groups"`
	// Allowed is the final decision, equal to Filter's.
	Allowed bool `json:"allowed"`
	// Steps lists every pipeline step in order.
	Steps []StepTrace `json:"steps"`
	// Summary is the verdict in one sentence for people, naming what
	// decided it: "exec is blocked because the profile “minimal” does not
	// include the runtime group."
	Summary string `json:"summary"`
	// DeniedBy names a deny list that binds every agent alike (global or
	// subagent deny) and matched the tool, e.g. "the global deny list
	// (entry “exec”)": no change to one agent's lists can allow it.
	DeniedBy string `json:"denied_by,omitempty"`
}

// String renders a readable multi-line report for the CLI and logs.
func (x Explanation) String() string {
	var b strings.Builder
	verdict := "denied"
	if x.Allowed {
		verdict = "allowed"
	}
	fmt.Fprintf(&b, "%s: %s (groups: %s)\n", x.Tool, verdict, strings.Join(x.Groups, ", "))
	for i, s := range x.Steps {
		fmt.Fprintf(&b, "%2d. %-20s %-9s %s\n", i+1, s.Step, s.Outcome, s.Detail)
	}
	return b.String()
}
