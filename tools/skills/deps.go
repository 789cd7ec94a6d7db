// Package skills holds skill_search, use_skill and publish_skill: the
// calling agent's skills (its workspace's skills/ and .agents/skills/,
// ~/.agents/skills and the published ones granted to it) through
// backend/skills.
package skills

import (
	"context"
	"errors"

	"github.com/warren-dev/warren/backend/memory/embed"
	sk "github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/tools"
)

// Deps configures the skill tools.
type Deps struct {
	// Store finds and publishes skills; required.
	Store *sk.Store
	// Workspace is the default workspace when a call carries none.
	Workspace string
	// Embedder, when set, returns the embedder skill_search also ranks
	// with (nil: keywords only).
	Embedder func() embed.Embedder
	// OnUse, when set, hears about every use_skill (an event for the UI).
	OnUse func(ctx context.Context, s sk.Skill)
}

// Tools builds skill_search, use_skill and publish_skill.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Store == nil {
		return nil, errors.New("skill tools: no skill store")
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newSkillSearch, newUseSkill, newPublishSkill} {
		t, err := b(d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// available lists the calling agent's skills.
func (d Deps) available(ctx context.Context) ([]sk.Skill, []sk.Problem, error) {
	return d.Store.Available(ctx, agent(ctx), d.workspace(ctx))
}

func (d Deps) workspace(ctx context.Context) string {
	if ws := tools.WorkspaceFrom(ctx); ws != "" {
		return ws
	}
	return d.Workspace
}

func agent(ctx context.Context) string {
	if a := tools.AgentFrom(ctx); a != "" {
		return a
	}
	return "default"
}
