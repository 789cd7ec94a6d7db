// The chat transcript as plain data: live agent events and stored session
// history both become the same items, so a reopened session looks like the
// run that produced it.
import { STATUS_LABEL, taskTitle } from './subagents';
import type { Agent, AgentEvent, ChatMessage, ChatSession, IncompleteReason, SubagentAnnouncement, TokenUsage, UserMessage } from './types';

export { RunFollower, Sequencer } from './runFollower';

export interface ToolCallView {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it. */
  args: string;
  result?: string;
  /** Error code (e.g. PermissionDenied) when the call failed. */
  code?: string;
  duration_ms?: number;
  running: boolean;
  /** The latest progress a running tool reported (MCP notifications/progress). */
  progress?: ToolProgress;
}

/** A running tool's progress: progress of total (total 0 when unknown). */
export interface ToolProgress {
  progress: number;
  total: number;
  message?: string;
}

/** progressPercent is 0–100, or null when the total is unknown. */
export function progressPercent(p: ToolProgress): number | null {
  if (!(p.total > 0)) return null;
  return Math.max(0, Math.min(100, Math.round((100 * p.progress) / p.total)));
}

export interface UserItem {
  kind: 'user';
  text: string;
  /** The stored message's id, once the backend saved it (edit and resend need it). */
  id?: number;
  /** The stored message this one replaces, while it is not saved itself (a resend that failed to start). */
  replaces?: number;
}

export interface AssistantItem {
  kind: 'assistant';
  /** The reply's Markdown source. */
  text: string;
  /** The model that wrote it. */
  model?: string;
  /** Why it was cut short; absent when complete. */
  incomplete?: IncompleteReason;
}

export type ChatItem =
  | UserItem
  | AssistantItem
  | { kind: 'tool'; call: ToolCallView }
  /** A message an agent sent the user, or subagent results, shown apart from the conversation. */
  | { kind: 'notice'; message: UserMessage };

export interface Transcript {
  items: ChatItem[];
  /** Tokens of the newest turn, summed over its model calls. */
  usage: TokenUsage | null;
  error: string | null;
  running: boolean;
  session: string;
  /** The model answering the running turn (from its session event). */
  model?: string;
}

export function emptyTranscript(session = ''): Transcript {
  return { items: [], usage: null, error: null, running: false, session };
}

/** What the mark under a cut-short reply says. */
export const INCOMPLETE_LABEL: Record<IncompleteReason, string> = {
  stopped: 'Stopped',
  dropped: 'Incomplete — the connection broke off',
  error: 'Incomplete — an error cut the reply short',
};

/** Why an error cut a reply short, as the backend records it (agent/persist.go). */
export function incompleteReason(error: string): IncompleteReason {
  return /stream dropped|unexpected EOF|connection reset/i.test(error) ? 'dropped' : 'error';
}

/** Index of the newest user item, or -1. */
export function lastUserIndex(items: ChatItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === 'user') return i;
  return -1;
}

/** Marks the reply of the newest turn as cut short (in place), when it streamed any text. */
export function markIncomplete(t: Transcript, reason: IncompleteReason) {
  const from = lastUserIndex(t.items);
  for (let i = t.items.length - 1; i > from; i--) {
    const it = t.items[i];
    if (it.kind === 'assistant') {
      it.incomplete ??= reason;
      return;
    }
    if (it.kind === 'tool') return; // the text before a tool call was complete
  }
}

/** The stored message a resend of the user item replaces (0 = none: it was never stored). */
export function replaceTarget(item: UserItem): number {
  return item.id ?? item.replaces ?? 0;
}

/** Applies one agent event to t (in place) and returns t. */
export function applyEvent(t: Transcript, ev: AgentEvent): Transcript {
  switch (ev.kind) {
    case 'session':
      if (ev.session) t.session = ev.session;
      if (ev.model) t.model = ev.model;
      break;
    case 'prompt': {
      // The prompt of this turn is stored: the newest user item is it.
      const i = lastUserIndex(t.items);
      const it = t.items[i];
      if (it?.kind === 'user' && it.id === undefined && ev.message_id) {
        it.id = ev.message_id;
        delete it.replaces;
      }
      break;
    }
    case 'text': {
      if (!ev.text) break;
      const last = t.items[t.items.length - 1];
      if (last?.kind === 'assistant') last.text += ev.text;
      else t.items.push(t.model ? { kind: 'assistant', text: ev.text, model: t.model } : { kind: 'assistant', text: ev.text });
      break;
    }
    case 'tool_start':
      t.items.push({
        kind: 'tool',
        call: { id: ev.call_id ?? '', name: ev.tool ?? '', args: ev.args ?? '', running: true },
      });
      break;
    case 'tool_progress': {
      const card = findCall(t, ev.call_id ?? '', ev.tool ?? '');
      if (card?.running) card.progress = { progress: ev.progress ?? 0, total: ev.total ?? 0, message: ev.text || undefined };
      break;
    }
    case 'tool_end': {
      const card = findCall(t, ev.call_id ?? '', ev.tool ?? '');
      const fields = { result: ev.result ?? '', code: ev.code || undefined, duration_ms: ev.duration_ms, running: false, progress: undefined };
      if (card) Object.assign(card, fields, ev.args && !card.args ? { args: ev.args } : {});
      else t.items.push({ kind: 'tool', call: { id: ev.call_id ?? '', name: ev.tool ?? '', args: ev.args ?? '', ...fields } });
      break;
    }
    case 'usage':
      if (ev.usage) {
        const u = t.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
        t.usage = {
          prompt_tokens: u.prompt_tokens + (ev.usage.prompt_tokens || 0),
          completion_tokens: u.completion_tokens + (ev.usage.completion_tokens || 0),
          total_tokens:
            u.total_tokens + (ev.usage.total_tokens || (ev.usage.prompt_tokens || 0) + (ev.usage.completion_tokens || 0)),
          estimated: Boolean(u.estimated || ev.usage.estimated),
        };
      }
      break;
    case 'done':
      t.running = false;
      if (ev.session) t.session = ev.session;
      finishCalls(t);
      break;
    case 'error':
      t.running = false;
      t.error = ev.error || 'the run failed';
      markIncomplete(t, incompleteReason(t.error));
      finishCalls(t);
      break;
  }
  return t;
}

function findCall(t: Transcript, id: string, name: string): ToolCallView | undefined {
  for (let i = t.items.length - 1; i >= 0; i--) {
    const it = t.items[i];
    if (it.kind !== 'tool') continue;
    if (id ? it.call.id === id : it.call.running && it.call.name === name) return it.call;
  }
  return undefined;
}

/** Adds m as a notice (in place) unless t already shows it, by id or by its title and text. */
export function addNotice(t: Transcript, m: UserMessage) {
  const shown = t.items.some((i) => i.kind === 'notice' && (i.message.id === m.id || (!!m.text && i.message.text === m.text && i.message.title === m.title)));
  if (!shown) t.items.push({ kind: 'notice', message: m });
}

/** The notice for finished background subagents handed to the agent of a session. */
export function announcementNotice(a: SubagentAnnouncement, time: string): UserMessage {
  const text = a.tasks.map((x) => `${taskTitle(x)}: ${STATUS_LABEL[x.status] ?? x.status}`).join('\n');
  const id = `announced-${a.tasks.map((x) => x.id).join('-')}`;
  return { id, agent: '', session: a.session, title: 'Subagent results handed to the agent', text, level: 'info', at: time || new Date().toISOString() };
}

/** Calls still marked running when a turn ends never finished. */
export function finishCalls(t: Transcript) {
  for (const it of t.items) if (it.kind === 'tool' && it.call.running) it.call.running = false;
}

/**
 * Turns stored messages (oldest first) into transcript items. notices are
 * messages received live in this window (oldest first); each goes in at its
 * time unless the history already holds it as a stored notification.
 */
export function itemsFromHistory(msgs: ChatMessage[], notices: UserMessage[] = []): ChatItem[] {
  const items: ChatItem[] = [];
  const byId = new Map<string, ToolCallView>();
  const stored = new Set(msgs.filter((m) => m.kind === 'notification').map((m) => m.content));
  const pending = notices.filter((n) => !(n.text && stored.has(storedContent(n))));
  for (const m of msgs) {
    const at = Date.parse(m.created);
    while (pending.length && !Number.isNaN(at) && Date.parse(pending[0].at) < at) items.push({ kind: 'notice', message: pending.shift()! });
    if (m.kind === 'notification') items.push({ kind: 'notice', message: storedNotice(m, 'info', '') });
    else if (m.kind === 'subagent_results') items.push({ kind: 'notice', message: storedNotice(m, 'info', 'Subagent results') });
    else if (m.kind === 'summary') continue; // for the model; the turns it summarises are still listed
    else if (m.role === 'user') items.push({ kind: 'user', text: m.content, id: m.id });
    else if (m.role === 'assistant') {
      if (m.content) items.push(assistantItem(m));
      for (const tc of m.tool_calls ?? []) {
        const call: ToolCallView = { id: tc.id, name: tc.name, args: tc.arguments, running: false };
        byId.set(tc.id, call);
        items.push({ kind: 'tool', call });
      }
    } else if (m.role === 'tool') {
      const call = m.tool_call_id ? byId.get(m.tool_call_id) : undefined;
      if (call) {
        call.result = m.content;
        call.code = errorCodeOf(m.content);
      } else {
        items.push({ kind: 'tool', call: { id: m.tool_call_id ?? '', name: m.name ?? 'tool', args: '', result: m.content, code: errorCodeOf(m.content), running: false } });
      }
    }
  }
  for (const n of pending) items.push({ kind: 'notice', message: n });
  return items;
}

function assistantItem(m: ChatMessage): AssistantItem {
  const it: AssistantItem = { kind: 'assistant', text: m.content };
  if (m.model) it.model = m.model;
  if (m.incomplete) it.incomplete = m.incomplete;
  return it;
}

/** What the message tool (tools/messaging) stores for m: "**Title**\n\ntext", or the text alone. */
function storedContent(m: UserMessage): string {
  return m.title ? `**${m.title}**\n\n${m.text}` : m.text;
}

/** A stored notification or announcement as a notice; the message tool stores "**Title**\n\ntext". */
function storedNotice(m: ChatMessage, level: UserMessage['level'], title: string): UserMessage {
  let text = m.content;
  const head = /^\*\*(.+?)\*\*\n\n/s.exec(text);
  if (head && !title) {
    title = head[1];
    text = text.slice(head[0].length);
  }
  return { id: `stored-${m.id}`, agent: '', session: '', title, text, level, at: m.created };
}

/** The error code a stored tool result starts with ("PermissionDenied: …"), if any. */
export function errorCodeOf(result: string): string | undefined {
  const m = /^([A-Z][A-Za-z]+):\s/.exec(result.trim());
  return m && ERROR_CODES.has(m[1]) ? m[1] : undefined;
}

const ERROR_CODES = new Set([
  'SecurityError', 'NotFound', 'PermissionDenied', 'IOError', 'ExecutionError', 'TimeoutError',
  'NetworkError', 'ValidationError', 'RateLimited', 'PolicyDenied',
]);

/** JSON arguments pretty-printed; anything else unchanged. */
export function prettyArgs(args: string): string {
  if (!args.trim()) return '';
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A turn's tokens as the line under it ("≈ " when estimated). */
export function formatUsage(u: TokenUsage): string {
  const n = (x: number) => x.toLocaleString();
  return `${u.estimated ? '≈ ' : ''}${n(u.prompt_tokens)} in · ${n(u.completion_tokens)} out · ${n(u.total_tokens)} tokens this turn`;
}

/** Agents by key, the default one first. */
export function sortAgents(list: Agent[]): Agent[] {
  return [...list].sort((a, b) => (a.key === 'default' ? -1 : b.key === 'default' ? 1 : a.key.localeCompare(b.key)));
}

/** An agent as the picker lists it: its name and key when they differ. */
export function agentLabel(a: Agent): string {
  return a.name && a.name !== a.key ? `${a.name} (${a.key})` : a.key;
}

export function sessionTokens(s: ChatSession): number {
  return (s.prompt_tokens || 0) + (s.completion_tokens || 0);
}

export function formatDate(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const sameDay = d.toDateString() === now.toDateString();
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${d.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${time}`;
}

/** True when an error means the agent needs a provider or model set up. */
export function isSetupError(msg: string): boolean {
  return /model provider|no model set|provider "[^"]*": |not found/i.test(msg) && /provider|model/i.test(msg);
}

/** text split around the case-insensitive matches of query (spaces collapsed), to <mark> them. */
export function markParts(text: string, query: string): { text: string; hit: boolean }[] {
  const q = query.trim().replace(/\s+/g, ' ').toLowerCase();
  const lower = text.toLowerCase();
  if (!q || lower.length !== text.length) return [{ text, hit: false }];
  const out: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, at)) {
    if (i > at) out.push({ text: text.slice(at, i), hit: false });
    out.push({ text: text.slice(i, i + q.length), hit: true });
    at = i + q.length;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}
