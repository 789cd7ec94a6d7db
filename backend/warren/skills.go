package warren

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/tools"
	skilltools "github.com/warren-dev/warren/tools/skills"
)

// TopicSkillUsed carries a SkillUse each time an agent loads a skill.
const TopicSkillUsed events.Topic = "skill.used"

// SkillUse says which skill an agent loaded.
type SkillUse struct {
	Agent string `json:"agent"`
	Skill string `json:"skill"`
	Dir   string `json:"dir"`
}

// Prompt caps of the skills list in the system prompt.
const (
	promptSkills      = 40
	promptSkillsChars = 4000
)

// initSkills opens the skill store (published skills live in the data
// directory) and registers skill_search, use_skill and publish_skill.
func (w *Warren) initSkills() error {
	home, _ := os.UserHomeDir()
	w.skills = skills.New(w.db.SQL(), filepath.Join(w.dataDir, "skills"), home)
	ts, err := skilltools.Tools(skilltools.Deps{
		Store:     w.skills,
		Workspace: w.workspace,
		Embedder:  func() embed.Embedder { return w.memory.Embedder() },
		OnUse: func(ctx context.Context, s skills.Skill) {
			w.bus.Publish(events.Event{Topic: TopicSkillUsed, Time: time.Now(),
				Payload: SkillUse{Agent: tools.AgentFrom(ctx), Skill: s.Name, Dir: s.Dir}})
		},
	})
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := w.registry.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// Skills returns the skill store.
func (w *Warren) Skills() *skills.Store { return w.skills }

// skillsSection is the system prompt's list of the agent's skills.
func (w *Warren) skillsSection(ctx context.Context, agent, ws string) string {
	all, _, err := w.skills.Available(ctx, agent, ws)
	if err != nil {
		w.log.Warn("skills: listing for the system prompt", "agent", agent, "err", err)
		return ""
	}
	return skills.PromptList(all, promptSkills, promptSkillsChars)
}
