package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/warren"
)

func TestApprovalDialogAndQueue(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	answers := make(chan string, 4)
	dialog := func(_ context.Context, title, _ string) (string, error) {
		if title != "Warren: approve delete_file?" {
			t.Errorf("dialog title %q", title)
		}
		return <-answers, nil
	}
	a := app.New(core, app.Options{Dialog: dialog})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx)
	defer a.Shutdown(ctx)
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(core.Workspace(), name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The native dialog answers "Yes".
	write("a.txt")
	answers <- "Yes"
	if res, err := a.CallTool("delete_file", `{"path":"a.txt"}`, "default"); err != nil || res.Status != "success" {
		t.Fatalf("dialog yes: %+v %v", res, err)
	}
	// The dialog is closed (""): the in-app queue answers "always".
	write("b.txt")
	answers <- ""
	done := make(chan app.CallResult, 1)
	go func() {
		res, _ := a.CallTool("delete_file", `{"path":"b.txt"}`, "default")
		done <- res
	}()
	var id string
	for deadline := time.Now().Add(5 * time.Second); id == ""; {
		if p := a.PendingApprovals(); len(p) == 1 {
			id = p[0].ID
		} else if time.Now().After(deadline) {
			t.Fatal("request never reached the in-app queue")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := a.AnswerApproval(id, "maybe"); err == nil {
		t.Fatal("bad decision accepted")
	}
	if ok, err := a.AnswerApproval(id, "allow-always"); !ok || err != nil {
		t.Fatalf("queue answer: %v %v", ok, err)
	}
	if res := <-done; res.Status != "success" {
		t.Fatalf("queue allow: %+v", res)
	}
	if ok, _ := a.AnswerApproval(id, "deny"); ok {
		t.Fatal("second answer won")
	}
	pats, err := a.ApprovalPatterns()
	if err != nil || len(pats) != 1 {
		t.Fatalf("patterns %v %v", pats, err)
	}
	// Dialog "No" denies.
	write("c.txt")
	answers <- "No"
	if res, _ := a.CallTool("delete_file", `{"path":"c.txt"}`, "default"); res.Status != "error" || res.Code != "PermissionDenied" {
		t.Fatalf("dialog no: %+v", res)
	}
	if err := a.SetApprovalMode("deny"); err != nil || a.ApprovalMode() != "deny" {
		t.Fatalf("mode: %v", err)
	}
	if audit, err := a.ApprovalAudit(10); err != nil || len(audit) != 3 {
		t.Fatalf("audit %d %v", len(audit), err)
	}
}
