package messaging

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// osascriptNotifier shows a notification with AppleScript's display
// notification; title and body are passed as arguments, never as script.
type osascriptNotifier struct{ opts DesktopOptions }

func newDesktop(opts DesktopOptions) Notifier { return osascriptNotifier{opts} }

const notifyScript = `on run argv
display notification (item 2 of argv) with title (item 1 of argv)
end run`

func (n osascriptNotifier) Notify(ctx context.Context, title, body string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "osascript", "-e", notifyScript, title, body).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: osascript: %v: %s", ErrUnavailable, err, strings.TrimSpace(string(out)))
	}
	return nil
}
