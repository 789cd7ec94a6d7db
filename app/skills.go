package app

import (
	"os"
	"strings"

	"github.com/warren-dev/warren/backend/skills"
)

// The Skills view's calls (issue 13 §6): thin wrappers over the skill store.

// SkillList is an agent's skills and the folders that are not valid ones.
type SkillList struct {
	Skills   []skills.Skill   `json:"skills"`
	Problems []skills.Problem `json:"problems"`
}

// AgentSkills lists the skills an agent has in its workspace ("" agent:
// the default agent; "" workspace: Warren's).
func (a *App) AgentSkills(agent, workspace string) (SkillList, error) {
	if strings.TrimSpace(agent) == "" {
		agent = "default"
	}
	if strings.TrimSpace(workspace) == "" {
		workspace = a.core.Workspace()
	}
	all, problems, err := a.core.Skills().Available(a.context(), agent, workspace)
	if all == nil {
		all = []skills.Skill{}
	}
	if problems == nil {
		problems = []skills.Problem{}
	}
	return SkillList{Skills: all, Problems: problems}, err
}

// SkillDetail is a skill with its instructions.
type SkillDetail struct {
	Skill  skills.Skill `json:"skill"`
	Body   string       `json:"body"`
	Grants []string     `json:"grants"`
}

// Skill returns one of an agent's skills with its instructions ({baseDir}
// resolved) and, for a published one, who it is granted to.
func (a *App) Skill(agent, name string) (SkillDetail, error) {
	list, err := a.AgentSkills(agent, "")
	if err != nil {
		return SkillDetail{}, err
	}
	// A published skill the agent was not granted is shown too: the view
	// grants it to agents from there.
	published, err := a.core.Skills().Published(a.context(), "")
	if err != nil {
		return SkillDetail{}, err
	}
	for _, s := range append(list.Skills, published...) {
		if s.Name == name {
			d := SkillDetail{Skill: s, Body: s.Resolved(), Grants: []string{}}
			if s.Source == skills.SourceManaged {
				if g, err := a.core.Skills().Grants(a.context(), name); err == nil && g != nil {
					d.Grants = g
				}
			}
			return d, nil
		}
	}
	return SkillDetail{}, skills.ErrNotFound
}

// PublishedSkills lists every published skill (any agent).
func (a *App) PublishedSkills() ([]skills.Skill, error) {
	out, err := a.core.Skills().Published(a.context(), "")
	if out == nil {
		out = []skills.Skill{}
	}
	return out, err
}

// ImportSkill publishes a skill folder (chosen by the user) for one agent
// or, with "*", every agent.
func (a *App) ImportSkill(dir, agent string) (skills.Skill, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return skills.Skill{}, &os.PathError{Op: "import skill", Path: dir, Err: os.ErrNotExist}
	}
	if strings.TrimSpace(agent) == "" {
		agent = "*"
	}
	return a.core.Skills().Publish(a.context(), dir, agent, "user")
}

// RemoveSkill deletes a published skill (every version).
func (a *App) RemoveSkill(name string) error { return a.core.Skills().Remove(a.context(), name) }

// GrantSkill gives a published skill to another agent ("*": every agent).
func (a *App) GrantSkill(name, agent string) error {
	return a.core.Skills().Grant(a.context(), name, agent)
}

// RevokeSkill takes a published skill away from an agent ("*": the
// every-agent grant).
func (a *App) RevokeSkill(name, agent string) error {
	return a.core.Skills().Revoke(a.context(), name, agent)
}
