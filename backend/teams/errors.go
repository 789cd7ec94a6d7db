package teams

import (
	"errors"
	"fmt"
)

// Code classifies an error the caller (often a model) can act on.
type Code string

// Error codes; tools return them as the stable code of an error result.
const (
	CodeInvalid  Code = "invalid_argument"  // bad input: fix the arguments
	CodeNotFound Code = "not_found"         // no such team, task or member
	CodeDenied   Code = "permission_denied" // the actor may not do this
	CodeConflict Code = "conflict"          // the task's state forbids it, or another agent won
)

// Sentinels for errors.Is; every *Error matches the one of its code.
var (
	ErrInvalid  = errors.New("invalid argument")
	ErrNotFound = errors.New("not found")
	ErrDenied   = errors.New("permission denied")
	ErrConflict = errors.New("conflict")
)

// Error is a refusal whose message names the rule that refused, written for
// a model to read and act on ("only the lead or the task's owner can
// complete T-3; you are member 'bob'").
type Error struct {
	Code Code
	Msg  string
}

// Error returns the model-readable message.
func (e *Error) Error() string { return e.Msg }

// Is matches the sentinel of the error's code.
func (e *Error) Is(target error) bool {
	switch e.Code {
	case CodeInvalid:
		return target == ErrInvalid
	case CodeNotFound:
		return target == ErrNotFound
	case CodeDenied:
		return target == ErrDenied
	case CodeConflict:
		return target == ErrConflict
	}
	return false
}

// CodeOf returns the code of a refusal, or "" for infrastructure errors.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func invalidf(format string, args ...any) error {
	return &Error{Code: CodeInvalid, Msg: fmt.Sprintf(format, args...)}
}

func notFoundf(format string, args ...any) error {
	return &Error{Code: CodeNotFound, Msg: fmt.Sprintf(format, args...)}
}

func conflictf(format string, args ...any) error {
	return &Error{Code: CodeConflict, Msg: fmt.Sprintf(format, args...)}
}

// denied names the rule and who was refused: "<rule>; you are member 'bob'".
func denied(rule string, who role) error {
	return &Error{Code: CodeDenied, Msg: rule + "; you are " + who.String()}
}
