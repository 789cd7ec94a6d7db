package warren_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// crew is a Warren with one team whose every agent talks to its own
// scripted model server.
type crew struct {
	w    *warren.Warren
	srv  map[string]*llmtest.Server
	team string
}

// agentServer gives agent key a provider served by its own cassette.
func agentServer(t testing.TB, w *warren.Warren, key string, c llmtest.Cassette) *llmtest.Server {
	t.Helper()
	ctx := context.Background()
	srv := llmtest.NewServer(t, c)
	if err := w.Providers().Save(ctx, store.Provider{Name: "p-" + key, Kind: "openai", BaseURL: srv.URL + "/v1", DefaultModel: "m-" + key}); err != nil {
		t.Fatal(err)
	}
	if err := w.Store().PutAgent(ctx, store.Agent{Key: key, Name: key, Type: store.AgentOpen, Provider: "p-" + key, Profile: "full"}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// newCrew builds team "crew" with lead "lead" and the given members, each
// with its cassette, and starts the team loop with short timings.
func newCrew(t *testing.T, dir string, cassettes map[string]llmtest.Cassette, members []teams.Member, st teams.Settings) *crew {
	t.Helper()
	w := open(t, dir)
	c := &crew{w: w, srv: map[string]*llmtest.Server{}, team: "crew"}
	for key, cas := range cassettes {
		c.srv[key] = agentServer(t, w, key, cas)
	}
	if _, err := w.Teams().CreateTeam(context.Background(), teams.User(), teams.Team{Key: "crew", Lead: "lead",
		LeadRole: "plans and writes the answer", Members: members, Settings: st}); err != nil {
		t.Fatal(err)
	}
	return c
}

// startLoop runs the team loop until the test ends.
func startLoop(t *testing.T, w *warren.Warren, opts warren.TeamLoopOptions) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done, ready := make(chan struct{}), make(chan struct{})
	opts.Ready = func() { close(ready) }
	go func() {
		defer close(done)
		if err := w.RunTeams(ctx, opts); err != nil {
			t.Errorf("RunTeams: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	<-ready
}

// call is a scripted tool call of team_tasks.
func teamCall(id string, args map[string]any) llmtest.ToolCall {
	b, _ := json.Marshal(args)
	return llmtest.ToolCall{ID: id, Name: "team_tasks", Arguments: []string{string(b)}}
}

func text(expect, s string) llmtest.Turn {
	return llmtest.Turn{Expect: expect, Chunks: []string{s}, FinishReason: "stop"}
}

func tool(expect string, c llmtest.ToolCall) llmtest.Turn {
	return llmtest.Turn{Expect: expect, ToolCalls: []llmtest.ToolCall{c}}
}

// waitTask polls the board until the task satisfies ok.
func waitTask(t *testing.T, w *warren.Warren, team, id string, ok func(teams.Task) bool) teams.Task {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var last teams.Task
	for time.Now().Before(deadline) {
		d, err := w.Teams().Get(context.Background(), teams.Call{Team: team, Task: id, By: teams.User()})
		if err == nil {
			last = d.Task
			if ok(last) {
				return last
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never got there: %+v", id, last)
	return last
}

// notices collects team notices from the bus.
type notices struct {
	mu  sync.Mutex
	all []warren.TeamNotice
}

func watchNotices(t *testing.T, w *warren.Warren, on func(warren.TeamNotice)) *notices {
	t.Helper()
	n := &notices{}
	sub, unsub := w.Bus().Subscribe(256)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case ev := <-sub:
				if p, ok := ev.Payload.(warren.TeamNotice); ok && ev.Topic == warren.TopicTeamNotice {
					n.mu.Lock()
					n.all = append(n.all, p)
					n.mu.Unlock()
					if on != nil {
						on(p)
					}
				}
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; unsub() })
	return n
}

func (n *notices) has(kind warren.NoticeKind, substr string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, x := range n.all {
		if x.Kind == kind && strings.Contains(x.Text, substr) {
			return true
		}
	}
	return false
}
