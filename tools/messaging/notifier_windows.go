package messaging

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// toastNotifier shows a Windows toast through PowerShell and the WinRT
// ToastNotificationManager; title and body travel in environment variables,
// never inside the script.
type toastNotifier struct{ opts DesktopOptions }

func newDesktop(opts DesktopOptions) Notifier { return toastNotifier{opts} }

// toastAppID is PowerShell's own AppUserModelID: toasts from an
// unregistered id are silently dropped on current Windows.
const toastAppID = `{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\WindowsPowerShell\v1.0\powershell.exe`

const toastScript = `$ErrorActionPreference = 'Stop'
[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null
$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)
$texts = $xml.GetElementsByTagName('text')
$texts.Item(0).AppendChild($xml.CreateTextNode($env:WARREN_TOAST_TITLE)) | Out-Null
$texts.Item(1).AppendChild($xml.CreateTextNode($env:WARREN_TOAST_BODY)) | Out-Null
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:WARREN_TOAST_APP).Show([Windows.UI.Notifications.ToastNotification]::new($xml))`

func (n toastNotifier) Notify(ctx context.Context, title, body string) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", toastScript)
	cmd.Env = append(os.Environ(), "WARREN_TOAST_TITLE="+title, "WARREN_TOAST_BODY="+body, "WARREN_TOAST_APP="+toastAppID)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: PowerShell toast: %v: %s", ErrUnavailable, err, strings.TrimSpace(string(out)))
	}
	return nil
}
