package skills

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// EveryAgent is the grant that gives a published skill to every agent.
const EveryAgent = "*"

// ErrNoAgent is returned when a grant names an agent Warren does not have.
var ErrNoAgent = errors.New("no such agent")

// Grants lists the agents a published skill is granted to.
func (s *Store) Grants(ctx context.Context, name string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT agent FROM skill_grants WHERE name = ? ORDER BY agent", name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Grant gives a published skill to agent (EveryAgent for all of them),
// after it was published. Granting twice is a no-op.
func (s *Store) Grant(ctx context.Context, name, agent string) error {
	if err := s.checkGrant(ctx, name, agent); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "INSERT OR IGNORE INTO skill_grants (name, agent) VALUES (?, ?)", name, agent); err != nil {
		return fmt.Errorf("grant skill %s to %s: %w", name, agent, err)
	}
	return nil
}

// Revoke takes a published skill away from agent. An agent that still
// has it through the every-agent grant keeps it; the error says so, so
// nobody believes a revoke worked when it did not.
func (s *Store) Revoke(ctx context.Context, name, agent string) error {
	if err := s.checkGrant(ctx, name, agent); err != nil {
		return err
	}
	grants, err := s.Grants(ctx, name)
	if err != nil {
		return err
	}
	switch {
	case agent != EveryAgent && slices.Contains(grants, EveryAgent):
		return fmt.Errorf("%w: skill %s is granted to every agent (*), so %s keeps it; revoke * first, then grant it to the agents that should have it", ErrNotFound, name, agent)
	case !slices.Contains(grants, agent):
		return fmt.Errorf("%w: skill %s is not granted to %s (granted to: %s)", ErrNotFound, name, agent, grantList(grants))
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM skill_grants WHERE name = ? AND agent = ?", name, agent); err != nil {
		return fmt.Errorf("revoke skill %s from %s: %w", name, agent, err)
	}
	return nil
}

// checkGrant refuses a grant change for a skill that is not published or
// an agent Warren does not have.
func (s *Store) checkGrant(ctx context.Context, name, agent string) error {
	var one int
	err := s.db.QueryRowContext(ctx, "SELECT 1 FROM skills_managed WHERE name = ? LIMIT 1", name).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: no published skill %q; only published skills are granted (warren skills add DIR publishes one)", ErrNotFound, name)
	}
	if err != nil {
		return fmt.Errorf("skill %s: %w", name, err)
	}
	if agent == EveryAgent {
		return nil
	}
	if strings.TrimSpace(agent) == "" {
		return fmt.Errorf("%w: name the agent (or * for every agent)", ErrNoAgent)
	}
	err = s.db.QueryRowContext(ctx, "SELECT 1 FROM agents WHERE key = ?", agent).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %q (warren agents list shows them; * means every agent)", ErrNoAgent, agent)
	}
	if err != nil {
		return fmt.Errorf("agent %s: %w", agent, err)
	}
	return nil
}

func grantList(grants []string) string {
	if len(grants) == 0 {
		return "no agent"
	}
	return strings.Join(grants, ", ")
}
