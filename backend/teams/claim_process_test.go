package teams_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/teams"
)

// The claim race runs in separate processes, as the window and CLI calls
// would: each child re-executes this test binary with these variables set.
const (
	envClaimDir    = "WARREN_TEAMS_CLAIM_DIR"
	envClaimWorker = "WARREN_TEAMS_CLAIM_WORKER"
	claimTasks     = 1000
	claimWorkers   = 8
)

func workerName(i int) string { return fmt.Sprintf("w%d", i) }

// TestClaimAcrossProcesses: 8 processes race to claim 1,000 tasks in the
// same database file; every task must be claimed exactly once, and every
// loser must be told the real winner.
func TestClaimAcrossProcesses(t *testing.T) {
	if os.Getenv(envClaimDir) != "" {
		t.Skip("child process")
	}
	if testing.Short() {
		t.Skip("spawns 8 processes")
	}
	dir := t.TempDir()
	var names []string
	for i := range claimWorkers {
		names = append(names, workerName(i))
	}
	st, _ := openStore(t, dir, teams.Config{AgentExists: knownAgents(names...)})
	ctx := context.Background()
	team := teams.Team{Key: "race", Lead: "alice", Settings: teams.DefaultSettings()}
	for _, n := range names {
		team.Members = append(team.Members, teams.Member{Agent: n})
	}
	must(st.CreateTeam(ctx, user, team))(t)
	leadCall := teams.Call{Team: "race", By: teams.Actor{Kind: teams.ActorLead, Name: "alice"}}
	for i := range claimTasks {
		must(st.CreateTask(ctx, leadCall, teams.NewTask{Subject: fmt.Sprintf("task %d", i), Priority: i % 4}))(t)
	}

	start := filepath.Join(dir, "start")
	var cmds []*exec.Cmd
	var logs []*strings.Builder
	for _, n := range names {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestClaimChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), envClaimDir+"="+dir, envClaimWorker+"="+n)
		var log strings.Builder
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, logs = append(cmds, cmd), append(logs, &log)
	}
	// Start the race once every child has opened the database.
	for _, n := range names {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(2 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(dir, n+".ready")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("worker %s never got ready", n)
			}
		}
	}
	began := time.Now()
	if err := os.WriteFile(start, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("worker %s: %v\n%s", names[i], err, logs[i])
		}
	}
	t.Logf("%d processes made %d claim attempts in %v", claimWorkers, claimWorkers*claimTasks, time.Since(began).Round(time.Millisecond))

	winner := map[string]string{}
	losses := map[string][]string{}
	for _, n := range names {
		f, err := os.Open(filepath.Join(dir, n+".out"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			switch fields[0] {
			case "won":
				if prev, ok := winner[fields[1]]; ok {
					t.Fatalf("double claim: %s won by %s and %s", fields[1], prev, n)
				}
				winner[fields[1]] = n
			case "lost":
				losses[fields[1]] = append(losses[fields[1]], fields[2])
			}
		}
		_ = f.Close()
	}
	wins := map[string]int{}
	for _, w := range winner {
		wins[w]++
	}
	t.Logf("wins per process: %v", wins)
	if len(winner) != claimTasks {
		t.Fatalf("%d tasks claimed, want %d", len(winner), claimTasks)
	}
	page := must(st.List(ctx, teams.Call{Team: "race", By: user}, teams.ListFilter{Limit: claimTasks + 1}))(t)
	for _, task := range page.Tasks {
		if task.State != teams.StateInProgress || task.Owner != winner[task.ID] {
			t.Fatalf("%s is %s with %q; the winner was %q", task.ID, task.State, task.Owner, winner[task.ID])
		}
		for _, named := range losses[task.ID] {
			if named != task.Owner {
				t.Fatalf("a loser of %s was told %q won; %q did", task.ID, named, task.Owner)
			}
		}
	}
}

var claimedBy = regexp.MustCompile(`already claimed by '([^']+)'`)

// TestClaimChild is one claimer process of TestClaimAcrossProcesses.
func TestClaimChild(t *testing.T) {
	dir, me := os.Getenv(envClaimDir), os.Getenv(envClaimWorker)
	if dir == "" {
		t.Skip("run by TestClaimAcrossProcesses")
	}
	st, _ := openStore(t, dir, teams.Config{})
	if err := os.WriteFile(filepath.Join(dir, me+".ready"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(2 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "start")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no start signal")
		}
	}
	ctx := context.Background()
	actor := teams.Actor{Kind: teams.ActorMember, Name: me}
	var out strings.Builder
	seed := uint64(len(me)) + uint64(me[len(me)-1])
	order := rand.New(rand.NewPCG(seed, 11)).Perm(claimTasks)
	for _, i := range order {
		id := teams.FormatTaskID(i + 1)
		_, err := st.Claim(ctx, teams.Call{Team: "race", Task: id, By: actor})
		// On a loaded machine (the whole suite on 2 cores) a writer can
		// wait out SQLite's busy timeout: it claimed nothing, so it tries
		// again, as the team loop would on its next pass.
		for retry := 0; retry < 5 && err != nil && strings.Contains(err.Error(), "SQLITE_BUSY"); retry++ {
			_, err = st.Claim(ctx, teams.Call{Team: "race", Task: id, By: actor})
		}
		switch {
		case err == nil:
			fmt.Fprintf(&out, "won %s\n", id)
		case teams.CodeOf(err) == teams.CodeConflict:
			m := claimedBy.FindStringSubmatch(err.Error())
			if m == nil || m[1] == me {
				t.Fatalf("loser of %s got %v", id, err)
			}
			fmt.Fprintf(&out, "lost %s %s\n", id, m[1])
		default:
			t.Fatalf("claim %s: %v", id, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, me+".out"), []byte(out.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}
