package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/approvals"
)

// EventApproval is the Wails event name carrying approval requests and
// resolutions.
const EventApproval = "approval:event"

// Dialog shows a native Yes/No question and returns "Yes", "No" or "" when
// closed. Swappable: Wails runtime calls outside a window kill the process.
type Dialog func(ctx context.Context, title, message string) (string, error)

// showApprovalDialog asks through the native dialog; on Linux only Yes/No
// render, so "always allow" lives in the in-app approvals panel. A closed
// dialog leaves the request in the in-app queue.
//
// Dialogs are shown one at a time, and a request answered elsewhere (the
// in-app queue, another process) while earlier dialogs were open is not
// shown at all. A native dialog cannot be closed from code, so one already
// open stays until clicked; its answer then changes nothing.
func (a *App) showApprovalDialog(ctx context.Context, req approvals.Request) {
	if a.dialog == nil || !a.DialogsEnabled() {
		return
	}
	a.dialogMu.Lock()
	defer a.dialogMu.Unlock()
	if !a.stillPending(req.ID) {
		return
	}
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
	b.WriteString("\n\nAllow it once? (\"Always\" is in Warren's approvals panel.)")
	answer, err := a.dialog(ctx, "Warren: approve "+req.Tool+"?", b.String())
	if err != nil {
		return
	}
	switch answer {
	case "Yes":
		a.core.Approvals().Answer(req.ID, approvals.AllowOnce)
	case "No":
		a.core.Approvals().Answer(req.ID, approvals.Deny)
	}
}

func (a *App) stillPending(id string) bool {
	for _, p := range a.core.Approvals().Pending() {
		if p.ID == id {
			return true
		}
	}
	return false
}

// PendingApprovals lists requests waiting for an answer.
func (a *App) PendingApprovals() []approvals.Request { return a.core.Approvals().Pending() }

// AnswerApproval answers a pending request with "allow-once",
// "allow-always" or "deny"; false means it was already answered.
func (a *App) AnswerApproval(id, decision string) (bool, error) {
	d, err := approvals.ParseDecision(decision)
	if err != nil {
		return false, err
	}
	return a.core.Approvals().Answer(id, d), nil
}

// ApprovalPatterns lists stored "allow always" patterns.
func (a *App) ApprovalPatterns() ([]approvals.Pattern, error) {
	return a.core.Approvals().Patterns(a.context())
}

// RevokeApproval deletes a stored pattern.
func (a *App) RevokeApproval(id int64) error { return a.core.Approvals().Revoke(a.context(), id) }

// ApprovalAudit returns recent decisions, newest first.
func (a *App) ApprovalAudit(limit int) ([]approvals.AuditEntry, error) {
	return a.core.Approvals().Audit(a.context(), limit)
}

// ApprovalMode returns "ask", "allowlist" or "deny".
func (a *App) ApprovalMode() string { return a.core.Approvals().Mode().String() }

// SetApprovalMode persists a new approval mode.
func (a *App) SetApprovalMode(mode string) error { return a.core.SetApprovalMode(a.context(), mode) }

// DialogsEnabled reports whether approvals pop up native dialogs.
func (a *App) DialogsEnabled() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.noDialogs
}

// SetDialogsEnabled turns native approval dialogs on or off for this window
// (the in-app queue always works).
func (a *App) SetDialogsEnabled(on bool) {
	a.mu.Lock()
	a.noDialogs = !on
	a.mu.Unlock()
}
