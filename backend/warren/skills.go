package warren

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/policy/paths"
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
	return w.registry.RegisterAll(ts...)
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

// skillDirs lists the folders of the skills outside the workspace that the
// calling agent may use (~/.agents/skills and the published skills granted
// to it); the read-only file tools read their files (issue 13 §5). A call
// without an agent gets none, and a folder that holds the home or data
// directory (a mislinked skill) is left out.
func (w *Warren) skillDirs(ctx context.Context) []string {
	agent := tools.AgentFrom(ctx)
	if w.skills == nil || agent == "" {
		return nil
	}
	ws := tools.WorkspaceFrom(ctx)
	if ws == "" {
		ws = w.workspace
	}
	all, _, err := w.skills.Available(ctx, agent, ws)
	if err != nil {
		w.log.Warn("skills: folders for the file tools", "agent", agent, "err", err)
		return nil
	}
	home, _ := os.UserHomeDir()
	var out []string
	for _, s := range all {
		if s.Source != skills.SourceHome && s.Source != skills.SourceManaged {
			continue // the workspace's own skills are read as workspace files
		}
		if holds(s.Dir, home) || holds(s.Dir, w.dataDir) {
			continue
		}
		out = append(out, s.Dir)
	}
	return out
}

// holds reports whether dir (symlinks evaluated) is p or one of its
// parents; a dir that cannot be evaluated holds everything (fail closed).
func holds(dir, p string) bool {
	if p == "" {
		return false
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	for _, form := range []string{p, evalOr(p)} {
		if paths.Within(real, form) {
			return true
		}
	}
	return false
}

func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
