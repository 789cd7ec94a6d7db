// The Teams tab's pure parts: the eight columns, which actions a card offers,
// the user's inbox, history sentences and the team editor's checks. Task text
// comes from models: everything here returns plain strings for text nodes.
import { idFromName, idProblem } from './names';
import type { Team, TeamEvent, TeamSettings, TeamTask, TaskState } from './types';

export interface Column {
  state: TaskState;
  label: string;
  /** Said on hover and to screen readers: what the column holds. */
  hint: string;
}

/** Every state, in board order: no column is ever hidden. */
export const COLUMNS: Column[] = [
  { state: 'pending', label: 'Pending', hint: 'Waiting for a member to start it' },
  { state: 'blocked', label: 'Blocked', hint: 'Waiting on other tasks, a blocker or a question' },
  { state: 'in_progress', label: 'In progress', hint: 'A member is working on it' },
  { state: 'in_review', label: 'In review', hint: 'Done, waiting for approval' },
  { state: 'completed', label: 'Completed', hint: 'Finished and accepted' },
  { state: 'failed', label: 'Failed', hint: 'The run failed; retry it to run it again' },
  { state: 'cancelled', label: 'Cancelled', hint: 'Stopped by the lead or you' },
  { state: 'stale', label: 'Stale', hint: 'Untouched for too long; retry or cancel it' },
];

export function stateLabel(s: string): string {
  return COLUMNS.find((c) => c.state === s)?.label ?? s;
}

export const PRIORITIES = ['Normal', 'High', 'Urgent', 'Critical'];

export function priorityLabel(p: number): string {
  return PRIORITIES[Math.max(0, Math.min(3, p | 0))];
}

/** Tasks grouped by state, each column in the order the board gave them (most urgent first). */
export function byColumn(tasks: TeamTask[]): Record<TaskState, TeamTask[]> {
  const out = Object.fromEntries(COLUMNS.map((c) => [c.state, [] as TeamTask[]])) as Record<TaskState, TeamTask[]>;
  for (const t of tasks) (out[t.state] ?? out.pending).push(t);
  return out;
}

/** Finished tasks need a retry to move again. */
export const finished = (t: TeamTask) => t.state === 'completed' || t.state === 'failed' || t.state === 'cancelled';

/** What the user may do with a task, as the board's rules allow it. */
export interface Actions {
  assign: boolean;
  cancel: boolean;
  retry: boolean;
  approve: boolean;
  reject: boolean;
  answer: boolean;
}

export function actionsFor(t: TeamTask): Actions {
  const done = finished(t);
  return {
    assign: !done && t.state !== 'in_review',
    cancel: !done,
    retry: done || t.state === 'stale' || (t.state === 'blocked' && t.hold === 'blocker'),
    approve: t.state === 'in_review',
    reject: t.state === 'in_review',
    answer: t.hold === 'ask_user' && !!t.question,
  };
}

/** The card actions that ask something first (a reason, an agent, an answer). */
export type DialogKind = 'cancel' | 'reject' | 'retry' | 'assign' | 'answer';

/** Something waiting for the user: a question, or a blocker escalated to the user. */
export interface InboxItem {
  task: TeamTask;
  kind: 'question' | 'blocker';
  text: string;
}

export function userInbox(tasks: TeamTask[]): InboxItem[] {
  const out: InboxItem[] = [];
  for (const t of tasks) {
    if (t.hold === 'ask_user' && t.question) out.push({ task: t, kind: 'question', text: t.question });
    else if (t.hold === 'blocker' && t.escalate_to === 'user') out.push({ task: t, kind: 'blocker', text: t.reason || 'A member is blocked.' });
  }
  return out;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : String(v);
}

/** One line of a task's history (plain text). */
export function describeEvent(e: TeamEvent): string {
  const d = e.data ?? {};
  const who = e.actor_kind === 'system' ? 'Warren' : e.actor_kind === 'user' ? 'You' : e.actor;
  const reason = str(d.reason);
  const why = reason ? `: ${reason}` : '';
  switch (e.type) {
    case 'created':
      return `${who} created it`;
    case 'updated':
      return `${who} edited it`;
    case 'claimed':
      return `${who} claimed it`;
    case 'assigned':
      return `${who} assigned it to ${str(d.to) || 'nobody'}`;
    case 'review_requested':
      return `${who} asked for review`;
    case 'completed':
      return `${who} completed it`;
    case 'approved':
      return `${who} approved it`;
    case 'rejected':
      return `${who} rejected it${why}`;
    case 'cancelled':
      return `${who} cancelled it${why}`;
    case 'failed':
      return `It failed${why}`;
    case 'retried':
      return `${who} retried it${str(d.assignee) ? ` with ${str(d.assignee)}` : ''}`;
    case 'commented':
      return `${who} commented`;
    case 'blocker':
      return `${who} raised a blocker${why || (str(d.text) ? `: ${str(d.text)}` : '')}`;
    case 'progress':
      return `${who} reported ${str(d.percent)}%${str(d.step) ? ` — ${str(d.step)}` : ''}`;
    case 'attached':
      return `${who} attached ${str(d.path)}`;
    case 'ask_user':
      return `${who} asked you a question`;
    case 'ask_user_cleared':
      return `${who} withdrew the question`;
    case 'answered':
      return `${who} answered the question`;
    case 'ready':
      return 'Its blockers finished: ready to start';
    case 'blocked':
      return `Waiting on other tasks${why}`;
    case 'dispatched': {
      const n = Number(d.dispatch);
      return `${n > 1 ? 'Started again' : 'Started'} with ${str(d.owner) || str(d.agent) || 'its owner'}${n > 1 ? ` (attempt ${n})` : ''}`;
    }
    case 'stale':
      return 'Marked stale: untouched for too long';
    case 'message': {
      const to = d.broadcast ? 'everyone' : Array.isArray(d.to) ? d.to.map(str).join(', ') : str(d.to);
      return `${who} → ${to || 'the team'}: ${str(d.text)}`;
    }
    case 'ask_user_reminder':
      return `Reminded you: ${str(d.owner) || 'a member'} still waits for your answer`;
    case 'team_created':
      return `${who} created the team`;
    case 'team_updated':
      return `${who} edited the team`;
    default:
      return `${who}: ${e.type.replace(/_/g, ' ')}`;
  }
}

/** Settings as the editor shows them: what each one does, in words. */
export interface SettingField {
  key: keyof TeamSettings;
  label: string;
  help: string;
  kind: 'bool' | 'seconds' | 'count';
  /** Seconds per unit shown (seconds fields): 60 for minutes, 3600 for hours. */
  unit?: number;
}

export const SETTING_FIELDS: SettingField[] = [
  { key: 'blocker_escalation', kind: 'bool', label: 'Blockers go to the lead first', help: 'Off sends a member’s blocker straight to you.' },
  { key: 'allow_member_requests', kind: 'bool', label: 'Members may create tasks', help: 'Off: only the lead plans the board.' },
  { key: 'task_timeout_sec', kind: 'seconds', label: 'Task timeout (minutes)', unit: 60, help: 'A run longer than this fails the task. 0: no timeout.' },
  { key: 'stale_pending_sec', kind: 'seconds', label: 'Stale after pending (hours)', unit: 3600, help: 'A task waiting this long to start is marked stale. 0: never.' },
  { key: 'stale_review_sec', kind: 'seconds', label: 'Stale after review (hours)', unit: 3600, help: 'A task in review this long is marked stale. 0: never.' },
  { key: 'max_dispatches', kind: 'count', label: 'Attempts per task', help: 'A task started more often than this fails.' },
  { key: 'max_working', kind: 'count', label: 'Members working at once', help: '0: all of them.' },
  { key: 'ask_reminder_sec', kind: 'seconds', label: 'Remind me of questions after (minutes)', unit: 60, help: 'An unanswered question from a member is repeated this often. 0: never.' },
  { key: 'paused', kind: 'bool', label: 'Paused', help: 'No member starts a task (plan the board first, or stop new work); running turns finish.' },
];

/** Used when the backend cannot be asked (the Go defaults). */
export const FALLBACK_SETTINGS: TeamSettings = {
  blocker_escalation: true,
  task_timeout_sec: 1800,
  stale_pending_sec: 86400,
  stale_review_sec: 86400,
  max_dispatches: 3,
  max_working: 0,
  ask_reminder_sec: 3600,
  allow_member_requests: false,
  paused: false,
};

/** The editor's draft: display name, id derived from it when new. */
export interface TeamDraft {
  name: string;
  key: string;
  lead: string;
  lead_role: string;
  members: { agent: string; role: string }[];
  settings: TeamSettings;
  workspace: string;
}

export function draftFrom(t: Team | null, settings: TeamSettings): TeamDraft {
  if (!t) return { name: '', key: '', lead: '', lead_role: '', members: [], settings: { ...settings }, workspace: '' };
  return {
    name: t.name,
    key: t.key,
    lead: t.lead,
    lead_role: t.lead_role ?? '',
    members: (t.members ?? []).map((m) => ({ ...m })),
    settings: { ...t.settings },
    workspace: t.workspace ?? '',
  };
}

/** Field problems of a draft, by field ("name", "lead", "member-N", "role-N", setting key); empty when fine. */
export function draftProblems(d: TeamDraft, isNew: boolean, taken: string[]): Record<string, string> {
  const p: Record<string, string> = {};
  const key = isNew ? idFromName(d.name) : d.key;
  if (!d.name.trim()) p.name = 'Give the team a name.';
  else if (idProblem(key)) p.name = idProblem(key);
  else if (isNew && taken.includes(key)) p.name = `A team with the id "${key}" already exists.`;
  if (!d.lead) p.lead = 'Choose the lead agent.';
  const seen = new Set([d.lead]);
  d.members.forEach((m, i) => {
    if (!m.agent) p[`member-${i}`] = 'Choose an agent.';
    else if (m.agent === d.lead) p[`member-${i}`] = 'This agent is the lead.';
    else if (seen.has(m.agent)) p[`member-${i}`] = 'This agent is already on the team.';
    seen.add(m.agent);
    if (/[\r\n]/.test(m.role)) p[`role-${i}`] = 'Keep the role to one line.';
    else if (m.role.length > 300) p[`role-${i}`] = 'Keep the role under 300 characters.';
  });
  if (d.lead_role.length > 300) p.lead_role = 'Keep the role under 300 characters.';
  for (const f of SETTING_FIELDS) {
    const v = d.settings[f.key];
    if (f.kind !== 'bool' && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) p[f.key] = 'Use 0 or a positive number.';
  }
  return p;
}

/** The Team the backend stores from a draft. */
export function teamFromDraft(d: TeamDraft, isNew: boolean): Team {
  return {
    key: isNew ? idFromName(d.name) : d.key,
    name: d.name.trim(),
    lead: d.lead,
    lead_role: d.lead_role.trim(),
    workspace: d.workspace,
    members: d.members.map((m) => ({ agent: m.agent, role: m.role.trim() })),
    settings: { ...d.settings },
  };
}

/** "T-12" → 12, for sorting ids naturally. */
export function taskNumber(id: string): number {
  const n = Number(id.replace(/^T-/, ''));
  return Number.isFinite(n) ? n : 0;
}

/** Comma- or space-separated task ids typed as "3, T-4" → ["T-3", "T-4"]. */
export function parseIds(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? `T-${s}` : s.toUpperCase()));
}
