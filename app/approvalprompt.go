package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
)

// Dialog shows a native Yes/No question and returns "Yes", "No" or "" when
// closed. Cancelling ctx must close a dialog still open (the request was
// answered elsewhere) and then return "". Swappable: Wails runtime calls
// outside a window kill the process.
type Dialog func(ctx context.Context, title, message string) (string, error)

// Notify shows a desktop notification; an error means none can be shown
// here (no notification service).
type Notify func(ctx context.Context, title, body string) error

// Notify makes the function a messaging.Notifier (the team loop's notices).
func (n Notify) Notify(ctx context.Context, title, body string) error { return n(ctx, title, body) }

// prompt is how the window asks about a new approval request besides the
// card in the chat, the toast and the Approvals queue, which always show it.
type prompt int

const (
	promptNone prompt = iota
	promptDialog
	promptNotification
)

// promptState is everything the choice of prompt depends on.
type promptState struct {
	// Pending: the request still waits (not answered, expired or cancelled).
	Pending bool
	// Focused: the window has the input focus, so its card and toast are seen.
	Focused bool
	// Dialogs is the "Show native dialogs" setting.
	Dialogs   bool
	HasDialog bool
	HasNotify bool
}

// choosePrompt: nothing for a request already settled or while the window
// is in front (a modal dialog over the card the user is reading only gets
// in the way); otherwise the native dialog when it is on, else a
// notification.
func choosePrompt(s promptState) prompt {
	switch {
	case !s.Pending || s.Focused:
		return promptNone
	case s.Dialogs && s.HasDialog:
		return promptDialog
	case s.HasNotify:
		return promptNotification
	}
	return promptNone
}

// SetWindowFocused records whether the window has the input focus; the
// frontend reports every change (Wails v2 has no focus query on Linux).
func (a *App) SetWindowFocused(focused bool) {
	a.mu.Lock()
	a.focused = focused
	a.mu.Unlock()
}

// promptApproval starts the prompt of a new request and withdraws it when
// the request is resolved. Called in event order from dispatch, so a
// resolution always finds the prompt its request started.
func (a *App) promptApproval(ctx context.Context, ev events.Event) {
	switch p := ev.Payload.(type) {
	case approvals.Request:
		if ev.Topic != approvals.TopicRequested {
			return
		}
		pctx, cancel := context.WithCancel(ctx)
		mine := make(chan struct{})
		a.mu.Lock()
		a.prompts[p.ID] = cancel
		before := a.dialogTurn
		a.dialogTurn = mine
		a.mu.Unlock()
		go a.runPrompt(pctx, p, before, mine)
	case approvals.Resolution:
		a.withdrawPrompt(p.Request.ID)
	}
}

func (a *App) withdrawPrompt(id string) {
	a.mu.Lock()
	cancel := a.prompts[id]
	delete(a.prompts, id)
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// choosePromptFor reads the window's state for req; ctx is the prompt's,
// cancelled once the request is resolved.
func (a *App) choosePromptFor(ctx context.Context, req approvals.Request) prompt {
	a.mu.Lock()
	st := promptState{Focused: a.focused, Dialogs: !a.noDialogs, HasDialog: a.dialog != nil, HasNotify: a.notify != nil}
	a.mu.Unlock()
	// The service publishes a resolution before it forgets the request:
	// ctx is the earlier signal, Pending the one for foreign requests.
	st.Pending = ctx.Err() == nil && a.stillPending(req.ID)
	return choosePrompt(st)
}

// runPrompt shows req's prompt once the prompt before it (before, nil for
// the first) is done, and closes mine when it is done itself: native
// dialogs open one at a time, in the order the requests came.
func (a *App) runPrompt(ctx context.Context, req approvals.Request, before, mine chan struct{}) {
	defer close(mine)
	defer a.withdrawPrompt(req.ID)
	choice := a.choosePromptFor(ctx, req)
	if choice == promptNotification {
		a.notifyApproval(ctx, req)
	}
	if before != nil {
		<-before
	}
	// Earlier dialogs may have been open a while, so the request and the
	// window are judged again after the wait.
	if choice == promptDialog && a.choosePromptFor(ctx, req) == promptDialog {
		a.askDialog(ctx, req)
	}
}

// askDialog asks through the native dialog; on Linux only Yes/No render,
// so "always allow" lives in the app. A dialog closed by hand, or by ctx
// (answered elsewhere), answers nothing.
func (a *App) askDialog(ctx context.Context, req approvals.Request) {
	msg := requestText(req) + "\n\nAllow it once? (\"Always\" is in Warren's approvals panel.)"
	answer, err := a.dialog(ctx, "Warren: approve "+req.Tool+"?", msg)
	if err != nil || ctx.Err() != nil {
		return
	}
	switch answer {
	case "Yes":
		a.core.Approvals().Answer(req.ID, approvals.AllowOnce)
	case "No":
		a.core.Approvals().Answer(req.ID, approvals.Deny)
	}
}

// notifyApproval points someone whose window is in the background at the
// request; the answer is given in the window.
func (a *App) notifyApproval(ctx context.Context, req approvals.Request) {
	body := requestText(req) + "\n\nOpen Warren to allow or deny it."
	if err := a.notify(ctx, "Warren: approve "+req.Tool+"?", body); err != nil {
		a.notifyFailed.Do(func() {
			slog.Warn("approval requests cannot be shown as desktop notifications; they wait in the window", "err", err)
		})
	}
}

// requestText is what a request says outside the window.
func requestText(req approvals.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nWhy: %s", req.Summary, req.Reason)
	if req.Cwd != "" {
		fmt.Fprintf(&b, "\nDirectory: %s", req.Cwd)
	}
	if req.Agent != "" {
		fmt.Fprintf(&b, "\nAgent: %s", req.Agent)
	}
	if req.Origin != nil {
		fmt.Fprintf(&b, "\nAsked by: %s", req.Origin)
	}
	return b.String()
}

func (a *App) stillPending(id string) bool {
	for _, p := range a.core.Approvals().Pending() {
		if p.ID == id {
			return true
		}
	}
	return false
}
