package skills

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func names(list []Skill) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

// TestGrantAfterPublish: a published skill is granted to another agent
// after the fact and revoked again; unknown skills, unknown agents and
// revokes that would not take effect are refused with the reason.
func TestGrantAfterPublish(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, "INSERT INTO agents (key, name, type) VALUES ('bob', 'Bob', 'open')"); err != nil {
		t.Fatal(err)
	}
	src := writeSkill(t, t.TempDir(), "budget-check", "Check a budget spreadsheet.", "Sum the columns.")
	if _, err := s.Publish(ctx, src, "default", "user"); err != nil {
		t.Fatal(err)
	}
	has := func(agent string) bool {
		all, _, err := s.Available(ctx, agent, "")
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(names(all), "budget-check")
	}
	if has("bob") {
		t.Fatal("bob has default's skill before any grant")
	}
	if err := s.Grant(ctx, "budget-check", "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.Grant(ctx, "budget-check", "bob"); err != nil {
		t.Fatalf("granting twice: %v", err)
	}
	if g, _ := s.Grants(ctx, "budget-check"); !slices.Equal(g, []string{"bob", "default"}) || !has("bob") {
		t.Fatalf("grants %v", g)
	}
	if err := s.Revoke(ctx, "budget-check", "default"); err != nil {
		t.Fatal(err)
	}
	if has("default") || !has("bob") {
		t.Fatal("revoking default changed the wrong agent")
	}

	// Every agent: a per-agent revoke cannot take it away, and says so.
	if err := s.Grant(ctx, "budget-check", EveryAgent); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, "budget-check", "bob"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "every agent") {
		t.Fatalf("revoke under *: %v", err)
	}
	if !has("bob") || !has("default") {
		t.Fatal("every-agent grant not honoured")
	}
	if err := s.Revoke(ctx, "budget-check", EveryAgent); err != nil {
		t.Fatal(err)
	}
	if has("default") || !has("bob") {
		t.Fatal("revoking * left default with it or took bob's own grant")
	}

	for _, c := range []struct {
		name, skill, agent string
		want               error
		text               string
	}{
		{"unpublished skill", "nope", "bob", ErrNotFound, "no published skill"},
		{"unknown agent", "budget-check", "mallory", ErrNoAgent, "mallory"},
		{"empty agent", "budget-check", " ", ErrNoAgent, "name the agent"},
		{"revoke ungranted", "budget-check", "default", ErrNotFound, "granted to: bob"},
	} {
		var err error
		if c.name == "revoke ungranted" {
			err = s.Revoke(ctx, c.skill, c.agent)
		} else {
			err = s.Grant(ctx, c.skill, c.agent)
		}
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v with %q", c.name, err, c.want, c.text)
		}
	}
	if err := s.Remove(ctx, "budget-check"); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Grants(ctx, "budget-check"); len(g) != 0 {
		t.Fatalf("grants outlive the skill: %v", g)
	}
}
