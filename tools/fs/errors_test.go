package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"strings"
	"testing"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

func TestFailureCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		code tools.ErrorCode
	}{
		{fmt.Errorf("x: %w", paths.ErrInvalidPath), tools.CodeValidation},
		{fmt.Errorf("x: %w", paths.ErrOutsideWorkspace), tools.CodeSecurity},
		{fmt.Errorf("x: %w", paths.ErrDenied), tools.CodeSecurity},
		{&os.PathError{Op: "open", Path: "/host/ws/x", Err: iofs.ErrNotExist}, tools.CodeNotFound},
		{&os.PathError{Op: "open", Path: "/host/ws/x", Err: iofs.ErrPermission}, tools.CodePermission},
		{context.Canceled, tools.CodeTimeout},
		{&os.PathError{Op: "write", Path: "/host/ws/x", Err: errors.New("no space left on device")}, tools.CodeIO},
	} {
		res := failure("x", "read", tc.err)
		if res.Code() != tc.code {
			t.Errorf("failure(%v) = %s; want %s", tc.err, res.Code(), tc.code)
		}
		if strings.Contains(res.ForLLM, "/host/ws") {
			t.Errorf("failure(%v) leaks the host path: %s", tc.err, res.ForLLM)
		}
	}
}

func TestInterceptorFailure(t *testing.T) {
	t.Parallel()
	if res, err := interceptorFailure("SOUL.md", "read", notExist("SOUL.md")); err != nil || res.Code() != tools.CodeNotFound {
		t.Errorf("not found: %+v %v", res, err)
	}
	boom := errors.New("disk I/O error")
	if _, err := interceptorFailure("SOUL.md", "read", boom); !errors.Is(err, boom) {
		t.Errorf("store failure must be a Go error: %v", err)
	}
}
