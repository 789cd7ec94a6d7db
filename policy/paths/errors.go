package paths

import (
	"errors"
	"strconv"
)

// Sentinel errors; match them with errors.Is.
var (
	// ErrInvalidPath marks a malformed path: empty, NUL byte, too long, a
	// bare alias name, or relative with no workspace.
	ErrInvalidPath = errors.New("invalid path")
	// ErrOutsideWorkspace marks a path that escapes every allowed root,
	// lexically or through a symlink.
	ErrOutsideWorkspace = errors.New("path outside the workspace")
	// ErrDenied marks a path equal to or under a denied prefix.
	ErrDenied = errors.New("path denied")
)

// refusal carries the offending path and a reason the model can act on,
// while unwrapping to one of the sentinels.
type refusal struct {
	path   string
	reason string
	kind   error
}

func (e *refusal) Error() string { return "path " + quote(e.path) + " " + e.reason }

func (e *refusal) Unwrap() error { return e.kind }

func refuse(p string, kind error, reason string) error {
	return &refusal{path: p, reason: reason, kind: kind}
}

// quote shortens very long paths so an error stays readable.
func quote(p string) string {
	const max = 200
	if len(p) > max {
		return strconv.Quote(p[:max]) + "…"
	}
	return strconv.Quote(p)
}
