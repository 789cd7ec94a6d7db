package teams_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/teams"
)

// benchTeam opens a fresh database with team "bench": lead alice and
// claimers w0…w7.
func benchTeam(b *testing.B) (*teams.SQLStore, teams.Call) {
	b.Helper()
	var names []string
	for i := range claimWorkers {
		names = append(names, workerName(i))
	}
	st, _ := openStore(b, b.TempDir(), teams.Config{AgentExists: knownAgents(names...)})
	team := teams.Team{Key: "bench", Lead: "alice", Settings: teams.DefaultSettings()}
	for _, n := range names {
		team.Members = append(team.Members, teams.Member{Agent: n, Role: "worker"})
	}
	must(st.CreateTeam(context.Background(), user, team))(b)
	return st, teams.Call{Team: "bench", By: teams.Actor{Kind: teams.ActorLead, Name: "alice"}}
}

// BenchmarkClaim measures claims per second with 8 concurrent claimers on
// one database (each claim is its own BEGIN IMMEDIATE transaction).
func BenchmarkClaim(b *testing.B) {
	st, lead := benchTeam(b)
	ctx := context.Background()
	for i := range b.N {
		must(st.CreateTask(ctx, lead, teams.NewTask{Subject: fmt.Sprintf("task %d", i), Priority: i % 4}))(b)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, claimWorkers)
	b.ResetTimer()
	began := time.Now()
	for w := range claimWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			me := teams.Actor{Kind: teams.ActorMember, Name: workerName(w)}
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					return
				}
				if _, err := st.Claim(ctx, teams.Call{Team: "bench", Task: teams.FormatTaskID(int(n)), By: me}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "claims/s")
}

// BenchmarkListBoard measures list on a board of 10,000 tasks in every
// state mix: the first page by priority, one owner's in-progress tasks, and
// the whole board.
func BenchmarkListBoard(b *testing.B) {
	const size = 10_000
	st, lead := benchTeam(b)
	ctx := context.Background()
	for i := range size {
		in := teams.NewTask{Subject: fmt.Sprintf("task %d: analyse part %d of the data set", i, i), Priority: i % 4,
			Description: "collect, clean and summarise the records of this part"}
		if i%10 == 9 {
			in.BlockedBy = []string{teams.FormatTaskID(i)}
		}
		must(st.CreateTask(ctx, lead, in))(b)
	}
	for i := 1; i <= size; i += 5 {
		c := teams.Call{Team: "bench", Task: teams.FormatTaskID(i), By: teams.Actor{Kind: teams.ActorMember, Name: workerName(i % claimWorkers)}}
		if _, err := st.Claim(ctx, c); err != nil {
			continue // blocked tasks cannot be claimed
		}
		if i%2 == 0 {
			must(st.Complete(ctx, c, "done"))(b)
		}
	}
	cases := []struct {
		name string
		f    teams.ListFilter
	}{
		{"page50-priority", teams.ListFilter{Limit: 50}},
		{"page50-newest", teams.ListFilter{Limit: 50, Order: teams.OrderNewest}},
		{"owner-in_progress", teams.ListFilter{Owner: "w3", States: []teams.State{teams.StateInProgress}, Limit: 50}},
		{"all-10000", teams.ListFilter{Limit: size}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			call := teams.Call{Team: "bench", By: user}
			for b.Loop() {
				page, err := st.List(ctx, call, c.f)
				if err != nil || page.Total == 0 {
					b.Fatalf("list: %d tasks, %v", page.Total, err)
				}
			}
		})
	}
}
