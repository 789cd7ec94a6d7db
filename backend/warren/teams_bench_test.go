package warren_test

import (
	"context"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/backend/warren"
)

// BenchmarkCompleteToDispatch measures issue 11's latency target: from a
// task's completion to the dependent member's first model request (the
// model answers at once, so model time is not in it). Target: < 50 ms.
func BenchmarkCompleteToDispatch(b *testing.B) {
	ctx := context.Background()
	w, err := warren.Open(ctx, warren.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	// A spare turn per task: a dispatch may be repeated (a re-dispatch
	// after a lost heartbeat asks the model again).
	turns := make([]llmtest.Turn, 2*b.N+8)
	for i := range turns {
		turns[i] = llmtest.Turn{Chunks: []string{"ok"}, FinishReason: "stop"}
	}
	bob := agentServer(b, w, "bob", llmtest.Cassette{Turns: turns})
	// carol stays busy on T-1 (her model answers in a minute), so the
	// tasks assigned to her wait pending for the lead to complete them.
	agentServer(b, w, "carol", llmtest.Cassette{Turns: []llmtest.Turn{{Faults: []llmtest.Fault{{Status: 503, RetryAfter: 60}}}}})
	agentServer(b, w, "lead", llmtest.Cassette{})
	if _, err := w.Teams().CreateTeam(ctx, teams.User(), teams.Team{Key: "crew", Lead: "lead",
		Members: []teams.Member{{Agent: "bob"}, {Agent: "carol"}}, Settings: teams.DefaultSettings()}); err != nil {
		b.Fatal(err)
	}
	loopCtx, stop := context.WithCancel(ctx)
	defer stop()
	ready := make(chan struct{})
	go func() {
		_ = w.RunTeams(loopCtx, warren.TeamLoopOptions{Debounce: time.Hour, Ready: func() { close(ready) }})
	}()
	<-ready
	st := w.Teams()
	user := teams.Call{Team: "crew", By: teams.User()}
	if _, err := st.CreateTask(ctx, user, teams.NewTask{Subject: "keep carol busy", Assignee: "carol"}); err != nil {
		b.Fatal(err)
	}
	lead := teams.Actor{Kind: teams.ActorLead, Name: "lead"}
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		a, err := st.CreateTask(ctx, user, teams.NewTask{Subject: "first", Assignee: "carol"})
		if err != nil {
			b.Fatal(err)
		}
		dep, err := st.CreateTask(ctx, user, teams.NewTask{Subject: "then", Assignee: "bob", BlockedBy: []string{a.Task.ID}})
		if err != nil {
			b.Fatal(err)
		}
		seen := len(bob.Requests())
		b.StartTimer()
		start := time.Now()
		if _, err := st.Complete(ctx, teams.Call{Team: "crew", Task: a.Task.ID, By: lead}, "done"); err != nil {
			b.Fatal(err)
		}
		for len(bob.Requests()) <= seen {
			time.Sleep(50 * time.Microsecond)
		}
		total += time.Since(start)
		b.StopTimer()
		for {
			d, err := st.Get(ctx, teams.Call{Team: "crew", Task: dep.Task.ID, By: teams.User()})
			if err != nil {
				b.Fatal(err)
			}
			if d.Task.State == teams.StateCompleted {
				break
			}
			if d.Task.State.Finished() {
				b.Fatalf("%s ended %s: %s", d.Task.ID, d.Task.State, d.Task.Reason)
			}
			time.Sleep(time.Millisecond)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/dispatch")
}
