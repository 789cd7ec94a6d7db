package teams_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/warren-dev/warren/backend/teams"
)

func TestAttachStaysInTheWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	outside := t.TempDir()
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(f.ws, "out", "report.md"))
	write(filepath.Join(f.ws, ".warren", "state.json"))
	write(filepath.Join(outside, "secret.txt"))
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(f.ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.ws, "linkdir")); err != nil {
		t.Fatal(err)
	}
	f.create(t, teams.NewTask{Subject: "report", Assignee: "bob"})
	must(f.st.Claim(ctx, call(bob, "T-1")))(t)

	out := must(f.st.Attach(ctx, call(bob, "T-1"), "out/report.md"))(t)
	if out.Task.Attachments != 1 {
		t.Fatalf("attach: %+v", out.Task)
	}
	// The same file again, spelled absolutely or with ./, is not attached twice.
	must(f.st.Attach(ctx, call(lead, "T-1"), filepath.Join(f.ws, "out", "report.md")))(t)
	out = must(f.st.Attach(ctx, call(user, "T-1"), "./out/../out/report.md"))(t)
	if out.Task.Attachments != 1 {
		t.Fatalf("duplicate attached: %d", out.Task.Attachments)
	}
	cases := []struct {
		path string
		code teams.Code
		want string
	}{
		{"../" + filepath.Base(outside) + "/secret.txt", teams.CodeInvalid, "escapes the workspace with .."},
		{filepath.Join(outside, "secret.txt"), teams.CodeInvalid, "is outside the workspace"},
		{"link.txt", teams.CodeInvalid, "symlink to a location outside the workspace"},
		{"linkdir/secret.txt", teams.CodeInvalid, "outside the workspace"},
		{".warren/state.json", teams.CodeInvalid, "denied directory"},
		{"", teams.CodeInvalid, "is empty"},
		{"out/missing.md", teams.CodeNotFound, "no such file in the team workspace"},
		{".", teams.CodeInvalid, "cannot attach the workspace itself"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			_, err := f.st.Attach(ctx, call(bob, "T-1"), c.path)
			refused(t, err, c.code, c.want)
		})
	}
	d := must(f.st.Get(ctx, call(carol, "T-1")))(t)
	if len(d.Attachments) != 1 || d.Attachments[0].Path != "out/report.md" || d.Attachments[0].AddedBy != "bob" {
		t.Fatalf("attachments %+v", d.Attachments)
	}
	// A team without a workspace cannot take attachments.
	must(f.st.CreateTeam(ctx, user, teams.Team{Key: "bare", Lead: "dave", Settings: teams.DefaultSettings()}))(t)
	dave := teams.Call{Team: "bare", By: teams.Actor{Kind: teams.ActorLead, Name: "dave"}}
	must(f.st.CreateTask(ctx, dave, teams.NewTask{Subject: "x"}))(t)
	dave.Task = "T-1"
	_, err := f.st.Attach(ctx, dave, "a.txt")
	refused(t, err, teams.CodeConflict, "has no workspace folder")
}
