//go:build !linux && !darwin && !windows

package messaging

import (
	"context"
	"fmt"
	"runtime"
)

type noNotifier struct{}

func newDesktop(DesktopOptions) Notifier { return noNotifier{} }

func (noNotifier) Notify(context.Context, string, string) error {
	return fmt.Errorf("%w: no desktop notifications on %s", ErrUnavailable, runtime.GOOS)
}
