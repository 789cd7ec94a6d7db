package approvals_test

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/store"
)

// peer is one Warren process's approvals over a data directory shared with
// others: its own database handle, bus and Service, as `warren mcp serve`
// and the window each have.
type peer struct {
	svc   *approvals.Service
	bus   *events.Bus
	store *approvals.SQLStore
}

type peerOptions struct {
	process string
	timeout time.Duration
	pid     int
}

func openPeer(t *testing.T, dir string, o peerOptions) peer {
	t.Helper()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	st := approvals.NewSQLStore(db.SQL())
	bus := events.New()
	svc := approvals.New(approvals.Options{Store: st, Shared: st, Bus: bus, Mode: approvals.ModeAsk,
		Timeout: o.timeout, Process: o.process, PID: o.pid})
	return peer{svc: svc, bus: bus, store: st}
}

// sharedReq has every field a request can carry.
func sharedReq() approvals.Request {
	return approvals.Request{Tool: "exec", Summary: "rm -rf build", Commands: [][]string{{"rm", "-rf", "build"}},
		Cwd: "/work/project", Agent: "default", Session: "mcp:abc", Reason: "deletes files"}
}

type decided struct {
	out approvals.Outcome
	err error
}

func decideAsync(ctx context.Context, s *approvals.Service, req approvals.Request) <-chan decided {
	ch := make(chan decided, 1)
	go func() {
		out, err := s.Decide(ctx, req)
		ch <- decided{out, err}
	}()
	return ch
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func foreignPending(s *approvals.Service) []approvals.Request {
	var out []approvals.Request
	for _, r := range s.Pending() {
		if r.Origin != nil {
			out = append(out, r)
		}
	}
	return out
}

// sameRequest compares the fields a request carries across processes.
func sameRequest(t *testing.T, got, want approvals.Request) {
	t.Helper()
	if got.Tool != want.Tool || got.Summary != want.Summary || got.Reason != want.Reason || got.Cwd != want.Cwd ||
		got.Agent != want.Agent || got.Session != want.Session || !reflect.DeepEqual(got.Commands, want.Commands) {
		t.Fatalf("request = %+v, want the fields of %+v", got, want)
	}
	if got.Created.IsZero() || !got.Deadline.After(got.Created) {
		t.Fatalf("request times: created %v deadline %v", got.Created, got.Deadline)
	}
}

func TestSharedAnswerFromAnotherService(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	window := openPeer(t, dir, peerOptions{process: "Warren window", timeout: time.Minute})
	server := openPeer(t, dir, peerOptions{process: "warren mcp serve", timeout: time.Minute})
	done := decideAsync(context.Background(), server.svc, sharedReq())

	var req approvals.Request
	waitFor(t, "the window to list the request", func() bool {
		p := window.svc.Pending()
		if len(p) == 1 {
			req = p[0]
		}
		return len(p) == 1
	})
	sameRequest(t, req, sharedReq())
	if want := (approvals.Origin{PID: os.Getpid(), Process: "warren mcp serve"}); req.Origin == nil || *req.Origin != want {
		t.Fatalf("origin %+v, want %+v", req.Origin, want)
	}
	if own := server.svc.Pending(); len(own) != 1 || own[0].Origin != nil {
		t.Fatalf("the asking process lists %+v, want its own request once, without origin", own)
	}

	if !window.svc.Answer(req.ID, approvals.AllowAlways) {
		t.Fatal("the window's answer lost")
	}
	if window.svc.Answer(req.ID, approvals.Deny) {
		t.Fatal("a second answer from the window won")
	}
	if server.svc.Answer(req.ID, approvals.Deny) {
		t.Fatal("a later local answer won over the window's")
	}
	res := <-done
	if res.err != nil || !res.out.Allowed || res.out.Decision != approvals.AllowAlways || res.out.By != "user" ||
		!strings.Contains(res.out.Reason, "Warren window") {
		t.Fatalf("outcome %+v %v", res.out, res.err)
	}
	// "Always" was stored by the asking process, in the shared database.
	if pats, err := window.svc.Patterns(context.Background()); err != nil || len(pats) != 1 || pats[0].Display != "rm -rf build" {
		t.Fatalf("patterns %+v %v", pats, err)
	}
	if p := window.svc.Pending(); len(p) != 0 {
		t.Fatalf("still pending: %+v", p)
	}
	row, err := window.store.SharedRequest(context.Background(), req.ID)
	if err != nil || row.Status != approvals.StatusAnswered || row.Decision != approvals.AllowAlways ||
		row.AnsweredBy != window.svc.Origin().String() {
		t.Fatalf("row %+v %v", row, err)
	}
}

func TestSharedLocalAnswerWins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	window := openPeer(t, dir, peerOptions{process: "Warren window", timeout: time.Minute})
	cli := openPeer(t, dir, peerOptions{process: "warren tool call", timeout: time.Minute})
	done := decideAsync(context.Background(), cli.svc, sharedReq())
	waitFor(t, "the request", func() bool { return len(foreignPending(window.svc)) == 1 })
	id := foreignPending(window.svc)[0].ID
	// A window that opens while the request waits shows it at once.
	evs := watch(t, window)
	nextEvent(t, evs, approvals.TopicRequested, id)
	if !cli.svc.Answer(id, approvals.Deny) {
		t.Fatal("local answer lost")
	}
	if res := nextEvent(t, evs, approvals.TopicResolved, id).Payload.(approvals.Resolution); res.Outcome.Decision != approvals.Deny {
		t.Fatalf("resolution %+v", res)
	}
	if window.svc.Answer(id, approvals.AllowOnce) {
		t.Fatal("the window answered a request already answered where it was asked")
	}
	res := <-done
	if res.err != nil || res.out.Allowed || res.out.Reason != "denied by the user" {
		t.Fatalf("outcome %+v %v", res.out, res.err)
	}
	if row, err := window.store.SharedRequest(context.Background(), id); err != nil || row.Status != approvals.StatusAnswered {
		t.Fatalf("row %+v %v", row, err)
	}
}

// nextEvent returns the next event of topic for request id on ch.
func nextEvent(t *testing.T, ch <-chan events.Event, topic events.Topic, id string) events.Event {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev := <-ch:
			if ev.Topic != topic {
				continue
			}
			switch p := ev.Payload.(type) {
			case approvals.Request:
				if id == "" || p.ID == id {
					return ev
				}
			case approvals.Resolution:
				if id == "" || p.Request.ID == id {
					return ev
				}
			}
		case <-timeout:
			t.Fatalf("no %s event for %q", topic, id)
		}
	}
}

// watch runs p's WatchForeign until the test ends and returns its bus events.
func watch(t *testing.T, p peer) <-chan events.Event {
	t.Helper()
	ch, unsubscribe := p.bus.Subscribe(64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.svc.WatchForeign(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("WatchForeign: %v", err)
		}
		unsubscribe()
	})
	return ch
}

func TestWatchForeignPublishesAndResolves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	window := openPeer(t, dir, peerOptions{process: "Warren window", timeout: time.Minute})
	server := openPeer(t, dir, peerOptions{process: "warren mcp serve", timeout: time.Minute})
	cli := openPeer(t, dir, peerOptions{process: "warren tool call", timeout: 700 * time.Millisecond})
	if ws, err := server.svc.Watchers(context.Background()); err != nil || len(ws) != 0 {
		t.Fatalf("watchers before the window watches: %+v %v", ws, err)
	}
	evs := watch(t, window)
	waitFor(t, "the window to be listed as a watcher", func() bool {
		ws, err := server.svc.Watchers(context.Background())
		return err == nil && len(ws) == 1 && ws[0] == window.svc.Origin()
	})
	if ws, _ := window.svc.Watchers(context.Background()); len(ws) != 0 {
		t.Fatalf("the window lists itself: %+v", ws)
	}

	// Denied in the window.
	done := decideAsync(context.Background(), server.svc, sharedReq())
	req := nextEvent(t, evs, approvals.TopicRequested, "").Payload.(approvals.Request)
	sameRequest(t, req, sharedReq())
	if req.Origin == nil || req.Origin.Process != "warren mcp serve" {
		t.Fatalf("origin %+v", req.Origin)
	}
	if !window.svc.Answer(req.ID, approvals.Deny) {
		t.Fatal("deny lost")
	}
	if res := <-done; res.err != nil || res.out.Allowed || !strings.Contains(res.out.Reason, "denied by the user") {
		t.Fatalf("outcome %+v %v", res.out, res.err)
	}
	resolved := nextEvent(t, evs, approvals.TopicResolved, req.ID).Payload.(approvals.Resolution)
	if resolved.Outcome.Decision != approvals.Deny || resolved.Outcome.By != "user" {
		t.Fatalf("resolution %+v", resolved)
	}

	// Answered where it was asked: the window's copy is resolved.
	done = decideAsync(context.Background(), server.svc, sharedReq())
	req = nextEvent(t, evs, approvals.TopicRequested, "").Payload.(approvals.Request)
	if !server.svc.Answer(req.ID, approvals.AllowOnce) {
		t.Fatal("local answer lost")
	}
	if res := <-done; !res.out.Allowed {
		t.Fatalf("outcome %+v", res.out)
	}
	resolved = nextEvent(t, evs, approvals.TopicResolved, req.ID).Payload.(approvals.Resolution)
	if !resolved.Outcome.Allowed || resolved.Outcome.Decision != approvals.AllowOnce {
		t.Fatalf("resolution %+v", resolved)
	}
	if window.svc.Answer(req.ID, approvals.Deny) {
		t.Fatal("the window's late answer (its dialog) won")
	}

	// Nobody answers: the asker times out, the row expires, the window hears.
	done = decideAsync(context.Background(), cli.svc, sharedReq())
	req = nextEvent(t, evs, approvals.TopicRequested, "").Payload.(approvals.Request)
	if res := <-done; res.out.Allowed || res.out.By != "timeout" {
		t.Fatalf("outcome %+v", res.out)
	}
	if row, err := window.store.SharedRequest(context.Background(), req.ID); err != nil || row.Status != approvals.StatusExpired {
		t.Fatalf("row %+v %v", row, err)
	}
	resolved = nextEvent(t, evs, approvals.TopicResolved, req.ID).Payload.(approvals.Resolution)
	if resolved.Outcome.By != "timeout" {
		t.Fatalf("resolution %+v", resolved)
	}
	if window.svc.Answer(req.ID, approvals.AllowOnce) {
		t.Fatal("an answer after the timeout won")
	}

	// Cancelled by the asker.
	ctx, cancel := context.WithCancel(context.Background())
	done = decideAsync(ctx, server.svc, sharedReq())
	req = nextEvent(t, evs, approvals.TopicRequested, "").Payload.(approvals.Request)
	cancel()
	if res := <-done; res.out.By != "cancelled" {
		t.Fatalf("outcome %+v", res.out)
	}
	resolved = nextEvent(t, evs, approvals.TopicResolved, req.ID).Payload.(approvals.Resolution)
	if resolved.Outcome.By != "cancelled" {
		t.Fatalf("resolution %+v", resolved)
	}
	if row, _ := window.store.SharedRequest(context.Background(), req.ID); row.Status != approvals.StatusCancelled {
		t.Fatalf("row %+v", row)
	}
}

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestDeadProcessRequestsIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	window := openPeer(t, dir, peerOptions{process: "Warren window", timeout: time.Minute})
	ghost := openPeer(t, dir, peerOptions{process: "warren mcp serve", timeout: time.Minute, pid: deadPID(t)})
	ctx, cancel := context.WithCancel(context.Background())
	done := decideAsync(ctx, ghost.svc, sharedReq())
	waitFor(t, "the ghost's row", func() bool {
		rows, err := window.store.PendingRequests(context.Background(), time.Now())
		return err == nil && len(rows) == 1
	})
	rows, _ := window.store.PendingRequests(context.Background(), time.Now())
	if p := foreignPending(window.svc); len(p) != 0 {
		t.Fatalf("a dead process's request is listed: %+v", p)
	}
	if window.svc.Answer(rows[0].ID, approvals.AllowOnce) {
		t.Fatal("a dead process's request was answered")
	}
	evs := watch(t, window)
	waitFor(t, "the watcher to cancel the row", func() bool {
		row, err := window.store.SharedRequest(context.Background(), rows[0].ID)
		return err == nil && row.Status == approvals.StatusCancelled
	})
	select {
	case ev := <-evs:
		t.Fatalf("the watcher published %s for a dead process", ev.Topic)
	default:
	}
	cancel()
	<-done
}
