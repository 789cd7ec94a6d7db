// The Skills view's shapes, as app/skills.go and backend/skills send them.

/** Where a skill was found: workspace skills/, workspace .agents/skills/, ~/.agents/skills/, or published into Warren. */
export type SkillSource = 'workspace' | 'workspace-dot' | 'home' | 'managed';

/** A skill an agent has (SKILL.md frontmatter and where it lives). */
export interface Skill {
  name: string;
  description: string;
  dir: string;
  source: SkillSource | string;
  /** Published skills only. */
  version?: number;
  extra?: Record<string, string>;
}

/** A folder that looked like a skill but is not a valid one. */
export interface SkillProblem {
  dir: string;
  error: string;
}

/** An agent's skills and the folders that are not valid ones. */
export interface SkillList {
  skills: Skill[];
  problems: SkillProblem[];
}

/** A skill with its instructions ({baseDir} resolved) and, when published, the agents it is granted to ("*" every agent). */
export interface SkillDetail {
  skill: Skill;
  body: string;
  grants: string[];
}
