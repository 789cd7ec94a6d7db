package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// failure turns an error about path p into the result the model sees. Path
// refusals are security errors; the model can fix all of these, so none is a
// Go error.
func failure(p, op string, err error) tools.Result {
	switch {
	case isRootEscape(err):
		return tools.Errorf(tools.CodeSecurity, "%s leads outside its root through a symlink or \"..\" (it may have changed after the path was checked); refused", p)
	case errors.Is(err, paths.ErrInvalidPath):
		return tools.Errorf(tools.CodeValidation, "%v", err)
	case errors.Is(err, paths.ErrOutsideWorkspace), errors.Is(err, paths.ErrDenied):
		return tools.Errorf(tools.CodeSecurity, "%v", err)
	case errors.Is(err, iofs.ErrNotExist):
		return tools.Errorf(tools.CodeNotFound, "%s does not exist", p)
	case errors.Is(err, iofs.ErrPermission):
		return tools.Errorf(tools.CodePermission, "permission denied: cannot %s %s", op, p)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return tools.Errorf(tools.CodeTimeout, "%s %s was cancelled: %v", op, p, err)
	}
	return tools.Errorf(tools.CodeIO, "cannot %s %s: %v", op, p, bareError(err))
}

// bareError drops the absolute host path an *fs.PathError carries: the model
// knows the path by the name it used, and the host layout is not its business.
func bareError(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// interceptorFailure maps an interceptor's error: a missing or forbidden
// routed file is the model's to handle; anything else is the store failing.
func interceptorFailure(p, op string, err error) (tools.Result, error) {
	if errors.Is(err, iofs.ErrNotExist) || errors.Is(err, iofs.ErrPermission) {
		return failure(p, op, err), nil
	}
	return tools.Result{}, fmt.Errorf("%s %s: %w", op, p, err)
}

// isRootEscape recognises os.Root refusing a name that leads out of the root.
// os does not export that error (os.errPathEscapes), so its text is matched;
// TestRootEscapeIsSecurityError fails if a Go release changes it.
func isRootEscape(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if err.Error() == "path escapes from parent" {
			return true
		}
	}
	return false
}

var (
	errDotDotGlob = errors.New(`".." is only allowed before the first wildcard`)
	errEmptyGlob  = errors.New("pattern is empty")
)
