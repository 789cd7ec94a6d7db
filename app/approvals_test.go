package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	for deadline := time.Now().Add(30 * time.Second); id == ""; {
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

// Native dialogs come one at a time; a request answered in the app while
// an earlier dialog was open never gets a dialog of its own.
func TestApprovalDialogsSkipAnsweredRequests(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	var mu sync.Mutex
	var shown []string
	release := make(chan string)
	dialog := func(ctx context.Context, _, message string) (string, error) {
		mu.Lock()
		shown = append(shown, message)
		mu.Unlock()
		select { // a real dialog is closed when ctx ends
		case answer := <-release:
			return answer, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	a := app.New(core, app.Options{Dialog: dialog})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx)
	defer a.Shutdown(ctx)
	results := make(chan app.CallResult, 2)
	for _, name := range []string{"first.txt", "second.txt"} {
		if err := os.WriteFile(filepath.Join(core.Workspace(), name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		go func() {
			res, _ := a.CallTool("delete_file", `{"path":"`+name+`"}`, "default")
			results <- res
		}()
		// The first request's dialog is open before the second is made
		// (a request is pending a moment before its event is published, so
		// waiting for pending alone would not fix the order).
		for deadline := time.Now().Add(30 * time.Second); ; {
			mu.Lock()
			opened := len(shown) > 0
			mu.Unlock()
			if p := a.PendingApprovals(); len(p) > 0 && strings.Contains(p[len(p)-1].Summary, name) && opened {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("%s never asked", name)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// The first dialog is open; the second request is answered in the app.
	var second string
	for _, p := range a.PendingApprovals() {
		if strings.Contains(p.Summary, "second.txt") {
			second = p.ID
		}
	}
	if ok, err := a.AnswerApproval(second, "deny"); !ok || err != nil {
		t.Fatalf("in-app answer: %v %v", ok, err)
	}
	if res := <-results; res.Code != "PermissionDenied" {
		t.Fatalf("second call: %+v", res)
	}
	release <- "Yes"
	if res := <-results; res.Status != "success" {
		t.Fatalf("first call: %+v", res)
	}
	a.Shutdown(ctx) // no dialog may still be waiting to show
	mu.Lock()
	defer mu.Unlock()
	if len(shown) != 1 || !strings.Contains(shown[0], "first.txt") {
		t.Fatalf("dialogs shown: %q", shown)
	}
}
