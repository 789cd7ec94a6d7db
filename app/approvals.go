package app

import "github.com/warren-dev/warren/backend/approvals"

// EventApproval is the Wails event name carrying approval requests and
// resolutions.
const EventApproval = "approval:event"

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

// DialogsEnabled reports whether approval requests pop up a native dialog
// while the window is in the background (otherwise a notification).
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
