package teams_test

import (
	"context"
	"slices"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func TestBroadcastIsReadPerRecipient(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	msg := must(f.st.Broadcast(ctx, call(bob, ""), "sources are in /data"))(t)
	if !msg.Broadcast || !slices.Equal(msg.To, []string{"alice", "carol"}) || msg.From != "bob" {
		t.Fatalf("broadcast: %+v", msg)
	}
	unread := func(a teams.Actor) int { return must(f.st.Unread(ctx, call(a, "")))(t) }
	if unread(lead) != 1 || unread(carol) != 1 || unread(bob) != 0 {
		t.Fatalf("unread after broadcast: alice %d carol %d bob %d", unread(lead), unread(carol), unread(bob))
	}
	got := must(f.st.Read(ctx, call(lead, "")))(t)
	if len(got) != 1 || got[0].Text != "sources are in /data" || got[0].From != "bob" || !got[0].Broadcast {
		t.Fatalf("alice reads %+v", got)
	}
	// alice reading it does not read it for carol.
	if unread(lead) != 0 || unread(carol) != 1 {
		t.Fatalf("after alice read: alice %d carol %d", unread(lead), unread(carol))
	}
	if again := must(f.st.Read(ctx, call(lead, "")))(t); len(again) != 0 {
		t.Fatalf("alice reads twice: %+v", again)
	}
	must(f.st.Send(ctx, call(lead, ""), "carol", "please start T-2"))(t)
	must(f.st.Broadcast(ctx, call(user, ""), "deadline is friday"))(t) // the user reaches every agent
	got = must(f.st.Read(ctx, call(carol, "")))(t)
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Text)
	}
	if !slices.Equal(texts, []string{"sources are in /data", "please start T-2", "deadline is friday"}) {
		t.Fatalf("carol reads %q", texts)
	}
	if unread(bob) != 1 || unread(carol) != 0 || unread(lead) != 1 {
		t.Fatalf("after carol read: bob %d carol %d alice %d", unread(bob), unread(carol), unread(lead))
	}
	// Messages are audited (the orchestrator wakes recipients from these).
	var msgs int
	for _, e := range f.published() {
		if e.Type == teams.EventMessage {
			msgs++
		}
	}
	if msgs != 3 {
		t.Fatalf("%d message events", msgs)
	}
	// A lone lead has no one to broadcast to.
	must(f.st.CreateTeam(ctx, user, teams.Team{Key: "solo", Lead: "dave", Settings: teams.DefaultSettings()}))(t)
	_, err := f.st.Broadcast(ctx, teams.Call{Team: "solo", By: teams.Actor{Kind: teams.ActorLead, Name: "dave"}}, "hello?")
	refused(t, err, teams.CodeInvalid, "no one else to broadcast to")
}
