// The window's keyboard shortcuts and the command palette's entries (Ctrl+K):
// sections, agents, recent chats and actions, filtered as the user types.
import { sectionDigit } from './keys';
import type { Agent, ChatSession } from './types';

/** A shortcut as the ? overlay and the tooltips show it. */
export interface Shortcut {
  keys: string;
  what: string;
}

/** True on macOS, where Cmd stands in for Ctrl. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform ?? '');

/** The modifier people press for window-wide shortcuts, as a label. */
export const mod = isMac ? '⌘' : 'Ctrl';

/** Every window-wide shortcut; sections add Alt+number in order. */
export function shortcuts(sections: { label: string }[]): Shortcut[] {
  return [
    { keys: `${mod}+K`, what: 'Command palette: jump to a section, agent, chat or action' },
    { keys: `${mod}+N`, what: 'New chat' },
    { keys: '?', what: 'This list of shortcuts' },
    { keys: 'Esc', what: 'Close a dialog (focus goes back where it was)' },
    ...sections.map((s, i) => ({ keys: `Alt+${sectionDigit(i)}`, what: `Go to ${s.label}` })),
    { keys: '← →  Home End', what: 'Move between sections when the section list has focus' },
    { keys: 'Enter', what: 'Send a message (Shift+Enter: new line)' },
    { keys: '/', what: 'Filter the tools (in Tools)' },
  ];
}

/** True for Ctrl+key (Cmd+key on macOS) with no other modifier. */
export function isModKey(e: KeyboardEvent, key: string): boolean {
  const m = isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return m && !e.altKey && !e.shiftKey && e.key.toLowerCase() === key;
}

/** True when the key goes to a text field (so "?" types a question mark there). */
export function typingInField(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (!el || !(el instanceof HTMLElement)) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
}

/** What a palette entry does when chosen. */
export type CommandAction =
  | { kind: 'section'; id: string }
  | { kind: 'new-chat'; agent?: string }
  | { kind: 'session'; session: string; agent: string }
  | { kind: 'shortcuts' }
  | { kind: 'setup' }
  | { kind: 'search-memory' }
  | ({ kind: 'memory' } & MemoryRequest);

/** The Memory tab's views. */
export type MemoryView = 'documents' | 'skills' | 'graph';

/** A palette command for the Memory tab: the view to show, then what to do there. */
export interface MemoryRequest {
  view: MemoryView;
  then?: 'import' | 'rebuild';
}

export interface Command {
  id: string;
  /** What the row says. */
  title: string;
  /** The name the title is about ("Schedules" in "Go to Schedules"), ranked like a title. */
  name?: string;
  /** The group it is listed under. */
  group: 'Sections' | 'Actions' | 'Agents' | 'Chats';
  /** Shown on the right (a shortcut, an agent). */
  hint?: string;
  action: CommandAction;
}

/** Builds the palette's entries from the sections, agents and recent chats. */
export function buildCommands(opts: {
  sections: { id: string; label: string }[];
  agents: Agent[];
  sessions: ChatSession[];
}): Command[] {
  const out: Command[] = [
    { id: 'new-chat', title: 'New chat', group: 'Actions', hint: `${mod}+N`, action: { kind: 'new-chat' } },
    { id: 'setup', title: 'Run the first-run setup again', group: 'Actions', action: { kind: 'setup' } },
    { id: 'shortcuts', title: 'Keyboard shortcuts', group: 'Actions', hint: '?', action: { kind: 'shortcuts' } },
    { id: 'search-memory', title: 'Search memory…', name: 'Memory', group: 'Actions', action: { kind: 'search-memory' } },
    { id: 'memory:documents', title: 'Memory: Documents', name: 'Documents', group: 'Actions', action: { kind: 'memory', view: 'documents' } },
    { id: 'memory:skills', title: 'Memory: Skills', name: 'Skills', group: 'Actions', action: { kind: 'memory', view: 'skills' } },
    { id: 'memory:graph', title: 'Memory: Knowledge graph', name: 'Knowledge graph', group: 'Actions', action: { kind: 'memory', view: 'graph' } },
    { id: 'memory:import', title: 'Import a folder…', name: 'Memory', group: 'Actions', hint: 'Memory', action: { kind: 'memory', view: 'documents', then: 'import' } },
    {
      id: 'memory:rebuild',
      title: 'Rebuild the memory index',
      name: 'Memory',
      group: 'Actions',
      action: { kind: 'memory', view: 'documents', then: 'rebuild' },
    },
  ];
  opts.sections.forEach((s, i) =>
    out.push({ id: `section:${s.id}`, title: `Go to ${s.label}`, name: s.label, group: 'Sections', hint: `Alt+${sectionDigit(i)}`, action: { kind: 'section', id: s.id } }),
  );
  for (const a of opts.agents) {
    out.push({
      id: `agent:${a.key}`,
      title: `New chat with ${a.name || a.key}`,
      name: a.name || a.key,
      group: 'Agents',
      hint: a.model || undefined,
      action: { kind: 'new-chat', agent: a.key },
    });
  }
  for (const s of opts.sessions) {
    out.push({
      id: `session:${s.id}`,
      title: s.title || 'Untitled chat',
      group: 'Chats',
      hint: s.agent,
      action: { kind: 'session', session: s.id, agent: s.agent },
    });
  }
  return out;
}

/**
 * The entries matching query, best first: every word of the query must occur
 * in the title, group or hint; a title starting with the query ranks first,
 * then a word of the title starting with it. An empty query keeps the order.
 */
export function filterCommands(all: Command[], query: string, limit = 50): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return all.slice(0, limit);
  const q = words.join(' ');
  const scored: { c: Command; score: number; i: number }[] = [];
  all.forEach((c, i) => {
    const title = c.title.toLowerCase();
    const name = (c.name ?? '').toLowerCase();
    const hay = `${title} ${c.group.toLowerCase()} ${(c.hint ?? '').toLowerCase()}`;
    if (!words.every((w) => hay.includes(w))) return;
    let score = 3;
    if (title.startsWith(q) || (name && name.startsWith(q))) score = 0;
    else if (title.split(/\W+/).some((w) => w.startsWith(words[0]))) score = 1;
    else if (title.includes(q)) score = 2;
    scored.push({ c, score, i });
  });
  scored.sort((a, b) => a.score - b.score || a.i - b.i);
  return scored.slice(0, limit).map((s) => s.c);
}
