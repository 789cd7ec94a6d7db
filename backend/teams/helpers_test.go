package teams_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fixture is a store over a real database file with team "core": lead
// alice, members bob (researcher) and carol (writer).
type fixture struct {
	st     *teams.SQLStore
	db     *store.DB
	clock  *clock
	ws     string
	mu     sync.Mutex
	events []teams.Event
}

var (
	lead  = teams.Actor{Kind: teams.ActorLead, Name: "alice"}
	bob   = teams.Actor{Kind: teams.ActorMember, Name: "bob"}
	carol = teams.Actor{Kind: teams.ActorMember, Name: "carol"}
	user  = teams.User()
	sys   = teams.System()
)

// knownAgents stands in for Warren's agent table.
func knownAgents(extra ...string) teams.AgentExists {
	known := map[string]bool{"alice": true, "bob": true, "carol": true, "dave": true, "erin": true}
	for _, a := range extra {
		known[a] = true
	}
	return func(_ context.Context, key string) (bool, error) { return known[key], nil }
}

func openStore(t testing.TB, dir string, cfg teams.Config) (*teams.SQLStore, *store.DB) {
	t.Helper()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return teams.New(db, cfg), db
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{clock: &clock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}, ws: t.TempDir()}
	f.st, f.db = openStore(t, t.TempDir(), teams.Config{AgentExists: knownAgents(), Now: f.clock.Now, Publish: func(e teams.Event) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.events = append(f.events, e)
	}})
	_, err := f.st.CreateTeam(context.Background(), user, teams.Team{Key: "core", Lead: "alice", LeadRole: "plans the work",
		Workspace: f.ws, Settings: teams.DefaultSettings(),
		Members: []teams.Member{{Agent: "bob", Role: "researcher"}, {Agent: "carol", Role: "writer"}}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) published() []teams.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]teams.Event(nil), f.events...)
}

func call(by teams.Actor, task string) teams.Call {
	return teams.Call{Team: "core", Task: task, By: by}
}

// create adds a task as the lead and returns its id.
func (f *fixture) create(t testing.TB, in teams.NewTask) string {
	t.Helper()
	out, err := f.st.CreateTask(context.Background(), call(lead, ""), in)
	if err != nil {
		t.Fatalf("create %q: %v", in.Subject, err)
	}
	return out.Task.ID
}

func (f *fixture) get(t testing.TB, id string) teams.Task {
	t.Helper()
	d, err := f.st.Get(context.Background(), call(user, id))
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return d.Task
}

// must checks a (value, error) pair: must(st.Get(ctx, c))(t).
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// refused checks a refusal's code and that its text names the rule.
func refused(t testing.TB, err error, code teams.Code, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want %s refusal containing %q", code, want)
	}
	if got := teams.CodeOf(err); got != code {
		t.Fatalf("code %q (%v); want %s containing %q", got, err, code, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
	var te *teams.Error
	if !errors.As(err, &te) {
		t.Fatalf("error %T is not a *teams.Error", err)
	}
}

func ids(ts []teams.Task) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
