// The Skills view's wording: where a skill came from and why a folder is
// not a skill, as people read them.
import type { Skill, SkillProblem } from './skillTypes';

/** Where a skill was found, in words ("published v2"). */
export function sourceLabel(s: Pick<Skill, 'source' | 'version'>): string {
  switch (s.source) {
    case 'workspace':
      return 'workspace';
    case 'workspace-dot':
      return '.agents';
    case 'home':
      return 'home';
    case 'managed':
      return s.version ? `published v${s.version}` : 'published';
    default:
      return s.source;
  }
}

/** A longer note on the source, for the detail pane. */
export function sourceNote(s: Pick<Skill, 'source'>): string {
  switch (s.source) {
    case 'workspace':
      return 'Found in the workspace’s skills/ folder.';
    case 'workspace-dot':
      return 'Found in the workspace’s .agents/skills/ folder.';
    case 'home':
      return 'Found in your home folder’s .agents/skills/.';
    case 'managed':
      return 'Published into Warren: a versioned copy granted to agents.';
    default:
      return '';
  }
}

/** True for a skill Warren keeps (can be removed here). */
export const isPublished = (s: Pick<Skill, 'source'>) => s.source === 'managed';

/** The folder's last path element. */
export function folderName(dir: string): string {
  const parts = dir.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || dir;
}

/**
 * Why a folder is not a skill, as one sentence: the skill loader's error
 * ("skill DIR: SKILL.md: the frontmatter needs a name") without the folder
 * prefix, which the list shows beside it.
 */
export function problemSentence(p: SkillProblem): string {
  let t = p.error.trim();
  const prefix = `skill ${p.dir}: `;
  if (t.startsWith(prefix)) t = t.slice(prefix.length);
  else t = t.replace(/^skill \S+: /, '');
  const name = t.match(/its name "([^"]+)" must equal its folder's name "([^"]+)"/);
  if (name) return `Its SKILL.md names it “${name[1]}”, but a skill’s name must equal its folder’s name (“${name[2]}”).`;
  if (/^no SKILL\.md in the folder/.test(t)) return 'The folder has no SKILL.md.';
  t = t.replace(/^SKILL\.md:\s*/, 'SKILL.md: ');
  const s = t[0] ? t[0].toUpperCase() + t.slice(1) : t;
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** Who a published skill is granted to, in words. */
export function grantsText(grants: string[]): string {
  if (grants.includes('*')) return 'every agent';
  if (grants.length === 0) return 'no agent';
  return grants.join(', ');
}
