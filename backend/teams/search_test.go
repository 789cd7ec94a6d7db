package teams_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func TestSearchRanksWithBM25(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.create(t, teams.NewTask{Subject: "Plan the database migration", Description: "move the database to the new schema"}) // T-1
	f.create(t, teams.NewTask{Subject: "Write release notes", Description: "mention the migration briefly"})               // T-2
	f.create(t, teams.NewTask{Subject: "Fix the login page", Description: "the button is misaligned"})                     // T-3
	f.create(t, teams.NewTask{Subject: "Tidy the wiki"})                                                                   // T-4
	must(f.st.Comment(ctx, call(bob, "T-4"), "the database page of the wiki is outdated", teams.CommentNote))(t)
	must(f.st.Claim(ctx, call(bob, "T-3")))(t)
	must(f.st.Complete(ctx, call(bob, "T-3"), "Realigned the button; Ünïcode résumé works"))(t)

	search := func(q string) []string {
		hits := must(f.st.Search(ctx, call(carol, ""), q, 10))(t)
		var out []string
		for _, h := range hits {
			out = append(out, h.Task.ID)
		}
		return out
	}
	// Both words in the subject and description beat one word in the
	// description, which beats one word in a comment: best (lowest bm25) first.
	if got := search("database migration"); !slices.Equal(got, []string{"T-1", "T-2", "T-4"}) {
		t.Fatalf("database migration: %v", got)
	}
	if got := search("outdated"); !slices.Equal(got, []string{"T-4"}) {
		t.Fatalf("comment search: %v", got)
	}
	if got := search("resume UNICODE"); !slices.Equal(got, []string{"T-3"}) {
		t.Fatalf("result search without diacritics: %v", got)
	}
	// FTS5 syntax in the query is searched literally, never a syntax error.
	for _, q := range []string{`"unbalanced`, `NEAR(database`, `database*`, `-migration`, `wiki AND OR NOT`, `col:database`} {
		if _, err := f.st.Search(ctx, call(carol, ""), q, 10); err != nil {
			t.Fatalf("query %q: %v", q, err)
		}
	}
	hits := must(f.st.Search(ctx, call(carol, ""), "login", 10))(t)
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "Fix the [login] page") {
		t.Fatalf("snippet: %+v", hits)
	}
	// Re-indexed on update; other teams' tasks are never returned.
	subj := "Plan the schema change"
	must(f.st.UpdateTask(ctx, call(lead, "T-1"), teams.TaskUpdate{Subject: &subj}))(t)
	if got := search("plan"); !slices.Equal(got, []string{"T-1"}) {
		t.Fatalf("after update: %v", got)
	}
	must(f.st.CreateTeam(ctx, user, teams.Team{Key: "other", Lead: "dave", Settings: teams.DefaultSettings()}))(t)
	must(f.st.CreateTask(ctx, teams.Call{Team: "other", By: teams.Actor{Kind: teams.ActorLead, Name: "dave"}},
		teams.NewTask{Subject: "database database database migration"}))(t)
	if got := search("database migration"); len(got) != 3 || !slices.Contains(got, "T-1") || !slices.Contains(got, "T-2") || !slices.Contains(got, "T-4") {
		t.Fatalf("other team leaked: %v", got)
	}
}
