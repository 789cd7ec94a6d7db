package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/tools"
)

// shotDir is the workspace folder screenshots are saved in.
const shotDir = "browser"

// maxEvalChars caps what evaluate returns.
const maxEvalChars = 8000

// screenshot saves a PNG of the tab in the workspace and returns its path
// (workspace-relative for the chat, absolute for the model's other tools).
func (a *act) screenshot(call, ctx context.Context) (tools.Result, error) {
	ws := tools.WorkspaceFrom(call)
	if ws == "" {
		ws = a.m.d.Workspace
	}
	if ws == "" {
		return tools.Errorf(tools.CodeNotFound, "no workspace is configured for this agent: nowhere to save the screenshot"), nil
	}
	shot := chromedp.CaptureScreenshot()
	if a.p.FullPage {
		shot = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "screenshot: %v", err), nil
	}
	rel := filepath.Join(shotDir, "screenshot-"+time.Now().UTC().Format("20060102-150405.000")+".png")
	if err := writeInWorkspace(ws, rel, png); err != nil {
		return tools.Errorf(tools.CodeIO, "save the screenshot: %v", err), nil
	}
	loc, title := a.location(ctx)
	abs := filepath.Join(ws, rel)
	forLLM := fmt.Sprintf("Screenshot of %s saved to %s (%s, %d bytes).", pageInfo(loc, title), filepath.ToSlash(rel), abs, len(png))
	return tools.TextFor(forLLM, "Screenshot: "+filepath.ToSlash(rel)), nil
}

// writeInWorkspace writes data to rel inside ws through os.Root, so a
// symlink the agent planted (browser -> /etc) cannot move the file out.
func writeInWorkspace(ws, rel string, data []byte) error {
	root, err := os.OpenRoot(ws)
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return err
	}
	return root.WriteFile(rel, data, 0o644)
}

// evaluate runs the model's JavaScript in the page after a person
// approved it: the script acts with the page's cookies and logins.
func (a *act) evaluate(call, ctx context.Context) (tools.Result, error) {
	cc := tools.CallContextFrom(call)
	loc, _ := a.location(ctx)
	out, err := a.m.d.Approvals.Decide(call, approvals.Request{
		Tool:     "browser",
		Summary:  fmt.Sprintf("run JavaScript in %s: %s", clip(loc, 120), clip(strings.TrimSpace(a.p.Script), 300)),
		Commands: [][]string{{"browser", "evaluate", a.p.Script}},
		Agent:    cc.Agent, Session: cc.SandboxKey, CallID: cc.CallID,
		Reason: "the script runs inside the web page with its cookies and logins, and can read or change anything the page shows",
	})
	if err != nil {
		return tools.Result{}, fmt.Errorf("browser evaluate approval: %w", err)
	}
	if !out.Allowed {
		return tools.Errorf(tools.CodePermission, "not approved (%s): %s", out.By, out.Reason), nil
	}
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdpruntime.EvaluateResult, error) {
		return cdp.Call(ctx, t, cdpruntime.Evaluate, cdpruntime.EvaluateParams{
			Expression: a.p.Script, ReturnByValue: ptr(true), AwaitPromise: ptr(true), UserGesture: ptr(true),
		})
	})
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "evaluate: %v", err), nil
	}
	if res.ExceptionDetails != nil {
		msg := res.ExceptionDetails.Text
		if res.ExceptionDetails.Exception != nil && res.ExceptionDetails.Exception.Description != "" {
			msg = res.ExceptionDetails.Exception.Description
		}
		return tools.Errorf(tools.CodeExecution, "the script threw: %s", clip(msg, 1000)), nil
	}
	text := "undefined"
	if res.Result != nil && len(res.Result.Value) > 0 {
		var v any
		if json.Unmarshal(res.Result.Value, &v) == nil {
			if s, ok := v.(string); ok {
				text = s
			} else {
				b, _ := json.Marshal(v)
				text = string(b)
			}
		}
	}
	return tools.Text("Result: " + clip(text, maxEvalChars)), nil
}

func ptr[T any](v T) *T { return &v }
