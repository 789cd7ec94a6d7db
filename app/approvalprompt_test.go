package app_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/warren"
)

// promptRig is a window over a real core whose native dialog and
// notifications are recorded.
type promptRig struct {
	a    *app.App
	core *warren.Warren
	mu   sync.Mutex
	// dialogs and notes are the titles+messages shown, in order.
	dialogs, notes []string
	// opened receives each dialog's ctx as it opens; the dialog stays open
	// until that ctx ends (answered elsewhere) or answer sends a button.
	opened chan context.Context
	answer chan string
}

func newPromptRig(t *testing.T, notifyErr error) *promptRig {
	t.Helper()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	r := &promptRig{core: core, opened: make(chan context.Context, 4), answer: make(chan string)}
	dialog := func(ctx context.Context, title, message string) (string, error) {
		r.mu.Lock()
		r.dialogs = append(r.dialogs, title+"\n"+message)
		r.mu.Unlock()
		r.opened <- ctx
		select {
		case <-ctx.Done(): // closed by the app: the request was answered elsewhere
			return "", nil
		case a := <-r.answer:
			return a, nil
		}
	}
	notify := func(_ context.Context, title, body string) error {
		r.mu.Lock()
		r.notes = append(r.notes, title+"\n"+body)
		r.mu.Unlock()
		return notifyErr
	}
	r.a = app.New(core, app.Options{Dialog: dialog, Notify: notify})
	ctx, cancel := context.WithCancel(context.Background())
	r.a.Startup(ctx)
	t.Cleanup(func() {
		cancel()
		r.a.Shutdown(ctx)
	})
	return r
}

// deleteAsync starts delete_file on a new file and returns its result
// channel and the request id once it is pending.
func (r *promptRig) deleteAsync(t *testing.T, name string) (<-chan app.CallResult, string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.core.Workspace(), name), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan app.CallResult, 1)
	go func() {
		res, _ := r.a.CallTool("delete_file", `{"path":"`+name+`"}`, "default")
		done <- res
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		for _, p := range r.a.PendingApprovals() {
			if strings.Contains(p.Summary, name) {
				return done, p.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never asked", name)
		}
	}
}

func (r *promptRig) shown() (dialogs, notes []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dialogs...), append([]string(nil), r.notes...)
}

// A focused window shows no native dialog and no notification: the card in
// the chat and the toast ask. The answer given there settles the call.
func TestFocusedWindowHasNoNativePrompt(t *testing.T) {
	t.Parallel()
	r := newPromptRig(t, nil)
	r.a.SetWindowFocused(true)
	done, id := r.deleteAsync(t, "a.txt")
	if ok, err := r.a.AnswerApproval(id, "allow-once"); !ok || err != nil {
		t.Fatalf("answer: %v %v", ok, err)
	}
	if res := <-done; res.Status != "success" {
		t.Fatalf("call: %+v", res)
	}
	r.a.Shutdown(context.Background()) // no prompt can start after it
	if d, n := r.shown(); len(d)+len(n) != 0 {
		t.Fatalf("prompted a focused window: dialogs %q notes %q", d, n)
	}
}

// A dialog shown while the window was in the background is closed as soon
// as the request is answered in the app, and its answer changes nothing.
func TestDialogClosesWhenAnsweredInTheApp(t *testing.T) {
	t.Parallel()
	r := newPromptRig(t, nil)
	r.a.SetWindowFocused(false)
	done, id := r.deleteAsync(t, "b.txt")
	dctx := <-r.opened
	if d, _ := r.shown(); len(d) != 1 || !strings.HasPrefix(d[0], "Warren: approve delete_file?\n") || !strings.Contains(d[0], "b.txt") {
		t.Fatalf("dialog %q", d)
	}
	if ok, err := r.a.AnswerApproval(id, "deny"); !ok || err != nil {
		t.Fatalf("answer: %v %v", ok, err)
	}
	select {
	case <-dctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the dialog of an answered request stayed open")
	}
	if res := <-done; res.Code != "PermissionDenied" {
		t.Fatalf("call: %+v", res)
	}
	// The dialog still answers Yes: nothing may change, nothing may block.
	select {
	case r.answer <- "Yes":
		t.Fatal("the closed dialog still took an answer")
	default:
	}
}

// With native dialogs off, a background window gets a notification; when
// none can be shown, the request still waits in the window.
func TestBackgroundWindowIsNotified(t *testing.T) {
	t.Parallel()
	for _, notifyErr := range []error{nil, errors.New("no notification service")} {
		r := newPromptRig(t, notifyErr)
		r.a.SetDialogsEnabled(false)
		done, id := r.deleteAsync(t, "c.txt")
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if _, n := r.shown(); len(n) == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no notification")
			}
		}
		d, n := r.shown()
		if len(d) != 0 || !strings.HasPrefix(n[0], "Warren: approve delete_file?\n") || !strings.Contains(n[0], "Open Warren to allow or deny it.") {
			t.Fatalf("dialogs %q notes %q", d, n)
		}
		if ok, _ := r.a.AnswerApproval(id, "allow-once"); !ok {
			t.Fatal("the request did not wait in the window")
		}
		if res := <-done; res.Status != "success" {
			t.Fatalf("call: %+v", res)
		}
	}
}

// Focus changes after a request arrived: a dialog waiting behind another
// one is judged again when its turn comes, and not shown to a window that
// came to the front meanwhile.
func TestQueuedDialogSkippedOnceFocused(t *testing.T) {
	t.Parallel()
	r := newPromptRig(t, nil)
	first, _ := r.deleteAsync(t, "d1.txt")
	<-r.opened
	second, id2 := r.deleteAsync(t, "d2.txt")
	r.a.SetWindowFocused(true)
	r.answer <- "Yes"
	if res := <-first; res.Status != "success" {
		t.Fatalf("first: %+v", res)
	}
	if ok, _ := r.a.AnswerApproval(id2, "deny"); !ok {
		t.Fatal("second request was not pending")
	}
	if res := <-second; res.Code != "PermissionDenied" {
		t.Fatalf("second: %+v", res)
	}
	r.a.Shutdown(context.Background())
	if d, _ := r.shown(); len(d) != 1 {
		t.Fatalf("dialogs shown: %d", len(d))
	}
}
