package messaging

import (
	"context"
	"errors"
)

// Notifier shows an operating-system notification.
type Notifier interface {
	Notify(ctx context.Context, title, body string) error
}

// ErrUnavailable means this machine cannot show notifications now (no
// desktop session, no notification service); the message tool still
// delivers in the app.
var ErrUnavailable = errors.New("desktop notifications are unavailable")

// DesktopOptions configures the desktop notifier.
type DesktopOptions struct {
	// AppName names the sender where the OS shows one; default "Warren".
	AppName string
	// BusAddress is the D-Bus session bus address (Linux); empty means
	// $DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
	BusAddress string
}

// NewDesktopNotifier returns the notifier of this OS: D-Bus
// org.freedesktop.Notifications on Linux, osascript on macOS, a PowerShell
// toast on Windows.
func NewDesktopNotifier(opts DesktopOptions) Notifier {
	if opts.AppName == "" {
		opts.AppName = "Warren"
	}
	return newDesktop(opts)
}
