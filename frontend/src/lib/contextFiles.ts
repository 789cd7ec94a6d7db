// What the context files editor shows about a file, and the unsaved edits it
// keeps when it is closed without a chance to ask (another agent opened).
import type { Agent, ContextFileView } from './types';

/** A file's state in the list: written, written but blank, missing, or the open agent's template. */
export type FileMarker = 'set' | 'empty' | 'missing' | 'template';

export function fileMarker(f: ContextFileView): FileMarker {
  if (!f.exists) return 'missing';
  if (f.template) return 'template';
  return f.content.trim() ? 'set' : 'empty';
}

export const markerLabel: Record<FileMarker, string> = {
  set: 'set',
  empty: 'empty',
  missing: 'not set',
  template: 'template',
};

/** Where the file lives and whose it is, in a sentence. */
export function scopeNote(f: ContextFileView): string {
  if (f.scope === 'agent') return 'Agent-level: one copy, shared by everyone who uses this agent.';
  if (f.template) {
    return 'Per user: you have no copy yet, so the agent reads the agent-level template shown here. Saving makes your own copy.';
  }
  return 'Per user: your own copy (user “local”); other users of this agent keep their own.';
}

/** How the agent's type routes its files. */
export function routingNote(type: Agent['type']): string {
  return type === 'predefined'
    ? 'Predefined agent: the files are shared (agent-level); only USER.md is kept per user.'
    : 'Open agent: every file is kept per user; a user without a copy reads the agent-level template.';
}

/** An unsaved edit: the text typed and the stored content it started from. */
export interface Draft {
  text: string;
  base: string;
}

// Edits left unsaved when the editor was torn down without asking, by agent
// and file; reopening the file offers them again.
const drafts = new Map<string, Draft>();
const draftKey = (agent: string, name: string) => `${agent}\u0000${name}`;

export const contextDrafts = {
  get: (agent: string, name: string): Draft | undefined => drafts.get(draftKey(agent, name)),
  set: (agent: string, name: string, d: Draft) => void drafts.set(draftKey(agent, name), d),
  delete: (agent: string, name: string) => void drafts.delete(draftKey(agent, name)),
  clear: () => drafts.clear(),
};
