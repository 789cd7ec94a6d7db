package policy

import (
	"errors"
	"fmt"
)

// Error kinds, matched with errors.Is; the messages carry the offending value.
var (
	// ErrInvalidEntry marks a malformed allow/deny/alsoAllow entry.
	ErrInvalidEntry = errors.New("invalid policy entry")
	// ErrUnknownProfile marks a profile name that is not one of Profiles().
	ErrUnknownProfile = errors.New("unknown profile")
	// ErrUnknownTool marks an Explain request for a tool that is not registered.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrInvalidTool marks a bad tool list (empty or duplicate names).
	ErrInvalidTool = errors.New("invalid tool list")
	// ErrInvalidRequest marks a Request field that cannot be evaluated.
	ErrInvalidRequest = errors.New("invalid request")
	// ErrInvalidConfig marks a Config field that is neither a profile nor an entry list.
	ErrInvalidConfig = errors.New("invalid config")
)

// policyError keeps the readable message separate from its kind so the text
// does not repeat the sentinel while errors.Is still works.
type policyError struct {
	kind error
	msg  string
}

func (e *policyError) Error() string { return "policy: " + e.msg }

func (e *policyError) Unwrap() error { return e.kind }

func errorf(kind error, format string, args ...any) error {
	return &policyError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// joinErrors returns the only error as is, so a single problem reads as one
// line, and joins several so Validate reports every problem at once.
func joinErrors(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	default:
		return errors.Join(errs...)
	}
}
