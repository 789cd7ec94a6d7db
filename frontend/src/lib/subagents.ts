// Subagents of a chat session as plain data: live "subagent:event" events
// and app.Subagents listings merge into one list per parent session.
import { formatElapsed, timeOrNull } from './time';
import type { SubagentTask } from './types';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export const isFinished = (t: SubagentTask) => FINISHED.has(t.status);

/**
 * Upserts task into list (in place, by id) and returns list. A finished
 * task never goes back to running: the dev server's WebSocket may deliver
 * "started" after "done", and a listing may be older than an event.
 */
export function mergeTask(list: SubagentTask[], task: SubagentTask): SubagentTask[] {
  const i = list.findIndex((t) => t.id === task.id);
  if (i < 0) {
    list.push(task);
    list.sort(byStart);
  } else if (!(isFinished(list[i]) && !isFinished(task))) {
    list[i] = { ...list[i], ...task };
  }
  return list;
}

function byStart(a: SubagentTask, b: SubagentTask): number {
  const d = Date.parse(a.started) - Date.parse(b.started);
  return Number.isNaN(d) || d === 0 ? idNumber(a.id) - idNumber(b.id) : d;
}

const idNumber = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 0);

/** How long it ran, or has been running by now ("" when unknown). */
export function taskDuration(t: SubagentTask, now: number): string {
  const start = Date.parse(t.started);
  if (Number.isNaN(start)) return '';
  // Go's omitzero drops "ended" while running; a zero time may still come from older builds.
  const end = timeOrNull(t.ended)?.getTime() ?? (isFinished(t) ? null : now);
  if (end === null) return '';
  return formatElapsed(Math.max(0, end - start));
}

export const STATUS_LABEL: Record<string, string> = {
  running: 'running',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** "2 running · 1 done · 1 failed", in that order, skipping zeros. */
export function summarise(list: SubagentTask[]): string {
  const counts = new Map<string, number>();
  for (const t of list) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
  return ['running', 'completed', 'failed', 'cancelled']
    .filter((s) => counts.get(s))
    .map((s) => `${counts.get(s)} ${STATUS_LABEL[s]}`)
    .join(' · ');
}

/** The name to show: its label, else the task's first line. */
export function taskTitle(t: SubagentTask): string {
  const first = (t.label || t.task || t.id).split('\n')[0].trim();
  return first.length > 90 ? `${first.slice(0, 89)}…` : first;
}
