package app_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/warren"
)

type recorder struct {
	mu     sync.Mutex
	names  []string
	topics []events.Topic
	got    chan struct{}
}

func (r *recorder) emit(ctx context.Context, name string, data ...any) {
	if name != app.EventTool {
		return // the memory indexer's progress, say: not what this test watches
	}
	r.mu.Lock()
	r.names = append(r.names, name)
	r.topics = append(r.topics, data[0].(events.Event).Topic)
	r.mu.Unlock()
	select { // Shutdown cancels ctx and waits for forwarding to stop
	case r.got <- struct{}{}:
	case <-ctx.Done():
	}
}

func TestAppSurface(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	rec := &recorder{got: make(chan struct{}, 8)}
	a := app.New(core, app.Options{Emit: rec.emit})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Startup(ctx)
	defer a.Shutdown(ctx)

	inv, err := a.Tools("", "default")
	if err != nil || len(inv) == 0 {
		t.Fatalf("Tools: %v (%d)", err, len(inv))
	}
	if err := a.SetActiveProfile("minimal"); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.ActiveProfile(); p != "minimal" {
		t.Fatalf("active profile %q", p)
	}
	if err := a.SetActiveProfile("bogus"); err == nil {
		t.Fatal("bogus profile accepted")
	}
	x, err := a.Explain("read_file", "", "")
	if err != nil || x.Allowed {
		t.Fatalf("explain under minimal: %v %+v", err, x)
	}
	if len(a.Profiles()) != 4 || a.Version() == "" {
		t.Fatal("profiles/version")
	}
	if _, err := core.CallTool(ctx, warren.CallRequest{Name: "session_status"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case <-rec.got:
		case <-time.After(5 * time.Second):
			t.Fatal("tool events were not forwarded to the UI")
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.names[0] != app.EventTool || rec.topics[0] != events.TopicToolStart || rec.topics[1] != events.TopicToolComplete {
		t.Fatalf("events %v %v", rec.names, rec.topics)
	}
}
