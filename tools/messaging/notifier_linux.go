package messaging

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service.
const (
	notificationsName   = "org.freedesktop.Notifications"
	notificationsPath   = dbus.ObjectPath("/org/freedesktop/Notifications")
	notificationsNotify = notificationsName + ".Notify"
)

// dbusNotifier sends org.freedesktop.Notifications.Notify on the session bus.
type dbusNotifier struct{ opts DesktopOptions }

func newDesktop(opts DesktopOptions) Notifier { return dbusNotifier{opts} }

// Notify connects for each notification: they are rare, and a connection
// kept open would outlive a desktop session that ends.
func (n dbusNotifier) Notify(ctx context.Context, title, body string) error {
	addr, err := n.address()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("%w: cannot connect to the D-Bus session bus at %s: %v", ErrUnavailable, addr, err)
	}
	defer func() { _ = conn.Close() }() // a private connection; nothing is left to flush
	// Servers with the body-markup capability read the body as HTML-like
	// markup; text from agents (file names, commands) must stay text.
	body = markupEscaper.Replace(body)
	call := conn.Object(notificationsName, notificationsPath).CallWithContext(ctx, notificationsNotify, 0,
		n.opts.AppName, uint32(0), "", title, body, []string{}, map[string]dbus.Variant{}, int32(-1))
	if call.Err != nil {
		var de dbus.Error
		if errors.As(call.Err, &de) && de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" {
			return fmt.Errorf("%w: no notification service on the D-Bus session bus", ErrUnavailable)
		}
		return fmt.Errorf("%w: %s failed: %v", ErrUnavailable, notificationsNotify, call.Err)
	}
	return nil
}

// markupEscaper escapes the characters notification markup gives meaning to.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// address finds the session bus without starting one: godbus would
// autolaunch a bus (dbus-launch), which a headless box should not get.
func (n dbusNotifier) address() (string, error) {
	if n.opts.BusAddress != "" {
		return n.opts.BusAddress, nil
	}
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return a, nil
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		sock := filepath.Join(dir, "bus")
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 { //nolint:gosec // the user's own runtime dir, only stat'ed
			return "unix:path=" + sock, nil
		}
	}
	return "", fmt.Errorf("%w: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus)", ErrUnavailable)
}
