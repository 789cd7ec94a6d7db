package approvals_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
)

func newService(t *testing.T, mode approvals.Mode, timeout time.Duration) (*approvals.Service, *events.Bus) {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	bus := events.New()
	return approvals.New(approvals.Options{Store: approvals.NewSQLStore(db.SQL()), Bus: bus, Mode: mode, Timeout: timeout}), bus
}

// answerNext answers the next approval request published on the bus.
func answerNext(t *testing.T, s *approvals.Service, bus *events.Bus, d approvals.Decision) {
	t.Helper()
	ch, cancel := bus.Subscribe(16)
	go func() {
		defer cancel()
		for ev := range ch {
			if ev.Topic == approvals.TopicRequested {
				req := ev.Payload.(approvals.Request)
				if !s.Answer(req.ID, d) {
					t.Errorf("first answer lost")
				}
				if s.Answer(req.ID, approvals.Deny) {
					t.Errorf("second answer won")
				}
				return
			}
		}
	}()
}

func req(cmds ...[]string) approvals.Request {
	return approvals.Request{Tool: "exec", Summary: "cmd", Commands: cmds, Agent: "default", Reason: "test"}
}

func TestAskAllowOnceThenAlways(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, bus := newService(t, approvals.ModeAsk, time.Minute)
	answerNext(t, s, bus, approvals.AllowOnce)
	out, err := s.Decide(ctx, req([]string{"make", "test"}))
	if err != nil || !out.Allowed || out.By != "user" || out.Decision != approvals.AllowOnce {
		t.Fatalf("allow once: %+v %v", out, err)
	}
	answerNext(t, s, bus, approvals.AllowAlways)
	if out, _ := s.Decide(ctx, req([]string{"make", "test"})); !out.Allowed || out.By != "user" {
		t.Fatalf("allow always: %+v", out)
	}
	// Now stored: no question asked for the same argv.
	if out, _ := s.Decide(ctx, req([]string{"make", "test"})); !out.Allowed || out.By != "pattern" {
		t.Fatalf("pattern: %+v", out)
	}
	pats, err := s.Patterns(ctx)
	if err != nil || len(pats) != 1 || pats[0].Display != "make test" {
		t.Fatalf("patterns %+v %v", pats, err)
	}
	// Trust is keyed on the whole argv, not the binary name.
	answerNext(t, s, bus, approvals.Deny)
	if out, _ := s.Decide(ctx, req([]string{"make", "clean"})); out.Allowed || out.By != "user" {
		t.Fatalf("other argv: %+v", out)
	}
	if err := s.Revoke(ctx, pats[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, pats[0].ID); !errors.Is(err, approvals.ErrNotFound) {
		t.Fatalf("second revoke: %v", err)
	}
	audit, err := s.Audit(ctx, 10)
	if err != nil || len(audit) != 4 || audit[0].Decision != "deny" || audit[1].DecidedBy != "pattern" {
		t.Fatalf("audit %+v %v", audit, err)
	}
}

func TestModesTimeoutAndCancel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t, approvals.ModeDeny, 50*time.Millisecond)
	if out, _ := s.Decide(ctx, req([]string{"ls"})); out.Allowed || out.By != "mode" {
		t.Fatalf("deny mode: %+v", out)
	}
	s.SetMode(approvals.ModeAllowlist)
	if out, _ := s.Decide(ctx, req([]string{"ls"})); out.Allowed || out.By != "mode" {
		t.Fatalf("allowlist mode: %+v", out)
	}
	s.SetMode(approvals.ModeAsk)
	out, _ := s.Decide(ctx, req([]string{"ls"}))
	if out.Allowed || out.By != "timeout" {
		t.Fatalf("timeout: %+v", out)
	}
	slow, _ := newService(t, approvals.ModeAsk, time.Hour)
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		for len(slow.Pending()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if out, _ := slow.Decide(cctx, req([]string{"ls"})); out.Allowed || out.By != "cancelled" {
		t.Fatalf("cancel: %+v", out)
	}
	if s.Answer("nope", approvals.AllowOnce) {
		t.Fatal("answer to unknown id won")
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]approvals.Decision{"yes": approvals.AllowOnce, "always": approvals.AllowAlways, "no": approvals.Deny, "allow-once": approvals.AllowOnce} {
		if got, err := approvals.ParseDecision(in); err != nil || got != want {
			t.Fatalf("ParseDecision(%q) = %v %v", in, got, err)
		}
	}
	if _, err := approvals.ParseDecision("maybe"); err == nil {
		t.Fatal("maybe accepted")
	}
	if m, err := approvals.ParseMode("allowlist"); err != nil || m != approvals.ModeAllowlist {
		t.Fatal("ParseMode")
	}
	if _, err := approvals.ParseMode("yolo"); err == nil {
		t.Fatal("yolo accepted")
	}
}
