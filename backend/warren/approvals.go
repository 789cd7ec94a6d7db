package warren

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

// settingApprovalMode holds "ask", "allowlist" or "deny".
const settingApprovalMode = "approvals.mode"

func newApprovals(ctx context.Context, db *store.DB, opts Options, w *Warren) (*approvals.Service, error) {
	mode := approvals.ModeAsk
	raw, ok, err := db.GetSetting(ctx, settingApprovalMode)
	if err != nil {
		return nil, err
	}
	if ok {
		if mode, err = approvals.ParseMode(raw); err != nil {
			return nil, fmt.Errorf("setting %q: %w", settingApprovalMode, err)
		}
	}
	st := approvals.NewSQLStore(db.SQL())
	return approvals.New(approvals.Options{
		Store: st, Bus: w.bus, Mode: mode, Timeout: opts.ApprovalTimeout,
		// Every process mirrors its requests in the shared database, so a
		// window can answer those of `warren mcp serve` or `warren tool call`.
		Shared: st, Process: cmp.Or(opts.Process, filepath.Base(os.Args[0])),
	}), nil
}

// Approvals returns the approval service.
func (w *Warren) Approvals() *approvals.Service { return w.approvals }

// RunApprovalWatcher shows this process (the window) the approval requests
// other Warren processes wait on, as ordinary approval events on the bus,
// until ctx ends; Approvals().Answer answers them.
func (w *Warren) RunApprovalWatcher(ctx context.Context) error { return w.approvals.WatchForeign(ctx) }

// SetApprovalMode changes and persists the approval mode.
func (w *Warren) SetApprovalMode(ctx context.Context, mode string) error {
	m, err := approvals.ParseMode(mode)
	if err != nil {
		return err
	}
	if err := w.db.SetSetting(ctx, settingApprovalMode, m.String()); err != nil {
		return err
	}
	w.approvals.SetMode(m)
	return nil
}

// approveTool is the registry's Approver for tools that always require
// confirmation (delete_file): the human sees the tool and its arguments, and
// "always" stores exactly that call.
func (w *Warren) approveTool(ctx context.Context, info tools.Info, args json.RawMessage) (bool, string, error) {
	cc := tools.CallContextFrom(ctx)
	canon := canonicalArgs(args)
	out, err := w.approvals.Decide(ctx, approvals.Request{
		Tool:     info.Name,
		Summary:  info.Name + " " + canon,
		Commands: [][]string{{info.Name, canon}},
		Cwd:      firstNonEmpty(cc.Workspace, w.workspace),
		Agent:    cc.Agent,
		Session:  cc.SandboxKey,
		CallID:   cc.CallID,
		Reason:   fmt.Sprintf("%s is %s and requires confirmation", info.Name, info.Danger),
	})
	if err != nil {
		return false, "", err
	}
	return out.Allowed, out.Reason, nil
}

// canonicalArgs re-encodes JSON with sorted keys so equal calls compare equal.
func canonicalArgs(args json.RawMessage) string {
	var v any
	if err := json.Unmarshal(args, &v); err != nil || v == nil {
		return string(bytes.TrimSpace(args))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(args)
	}
	return string(b)
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
