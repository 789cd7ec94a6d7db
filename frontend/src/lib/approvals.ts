// Pure helpers behind the approvals queue and panel: applying live events to
// the queue, countdowns and display strings. No Svelte, so trivially tested.
import type { ApprovalDecision, ApprovalEvent, ApprovalMode, ApprovalRequest } from './types';

/** Adds req (or replaces the request with its id), oldest first. */
export function upsertRequest(list: readonly ApprovalRequest[], req: ApprovalRequest): ApprovalRequest[] {
  const out = list.filter((r) => r.id !== req.id);
  out.push(req);
  return sortOldestFirst(out);
}

export function removeRequest(list: readonly ApprovalRequest[], id: string): ApprovalRequest[] {
  return list.filter((r) => r.id !== id);
}

export function sortOldestFirst(list: ApprovalRequest[]): ApprovalRequest[] {
  return list.sort((a, b) => time(a.created) - time(b.created) || a.id.localeCompare(b.id));
}

/** The queue after one "approval:event": requested adds, resolved removes. */
export function applyApprovalEvent(list: readonly ApprovalRequest[], ev: ApprovalEvent): ApprovalRequest[] {
  if (ev?.topic === 'approval.requested' && ev.payload?.id) return upsertRequest(list, ev.payload);
  if (ev?.topic === 'approval.resolved' && ev.payload?.request?.id) return removeRequest(list, ev.payload.request.id);
  return [...list];
}

function time(s: string | undefined): number {
  const t = s ? Date.parse(s) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

/** The approval tool name of an MCP server's sampling request (backend/warren/mcpclient.go). */
export const SAMPLING_TOOL = 'mcp_sampling';

/**
 * The pending request that holds up a tool call in the chat: same call id
 * and tool, oldest first (one exec can ask several times, one at a time).
 */
export function requestForCall(list: readonly ApprovalRequest[], callId: string, tool: string): ApprovalRequest | null {
  if (!callId) return null;
  // A server's sampling request during an MCP tool call is that call's too.
  return list.find((r) => r.call_id === callId && (r.tool === tool || r.tool === SAMPLING_TOOL) && !r.origin) ?? null;
}

/** Whole seconds left until deadline (never negative); null if unknown. */
export function secondsLeft(deadline: string | undefined, now: number): number | null {
  const t = deadline ? Date.parse(deadline) : NaN;
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.ceil((t - now) / 1000));
}

/** 125 → "2:05". */
export function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** Fraction of the request's lifetime still left, 0..1 (for the bar). */
export function fractionLeft(req: ApprovalRequest, now: number): number {
  const start = time(req.created);
  const end = time(req.deadline);
  if (!start || !end || end <= start) return 0;
  return Math.min(1, Math.max(0, (end - now) / (end - start)));
}

const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv as a shell would show it: words with spaces or quotes get quoted. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((w) => (w !== '' && plainWord.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export const decisionLabels: Record<ApprovalDecision, string> = {
  'allow-once': 'Allow once',
  'allow-always': 'Always allow',
  deny: 'Deny',
};

/** Keyboard shortcuts on a focused request. */
export const decisionKeys: Record<string, ApprovalDecision> = { y: 'allow-once', a: 'allow-always', n: 'deny' };

export const modes: { value: ApprovalMode; label: string; explain: string }[] = [
  {
    value: 'ask',
    label: 'Ask',
    explain: 'Ask me before each risky action, unless I chose “Always allow” for exactly that action before.',
  },
  {
    value: 'allowlist',
    label: 'Allowlist',
    explain:
      'Never ask: run only actions I allowed always before and refuse everything else. For agents running unattended.',
  },
  {
    value: 'deny',
    label: 'Deny',
    explain: 'Refuse every action that needs approval, even ones I allowed always before.',
  },
];

/** "allow-once" → "allowed once" etc., for the audit table. */
export function decisionText(decision: string): string {
  switch (decision) {
    case 'allow-once':
      return 'allowed once';
    case 'allow-always':
      return 'allowed always';
    case 'deny':
      return 'denied';
    default:
      return decision;
  }
}

/** A local, 24-hour "2026-01-02 03:04:05" for stored timestamps (RFC 3339 or SQLite's). */
export function localTime(s: string | undefined): string {
  if (!s) return '';
  const d = new Date(/^\d{4}-\d\d-\d\d \d/.test(s) && !/[zZ+]/.test(s.slice(10)) ? s.replace(' ', 'T') + 'Z' : s);
  if (Number.isNaN(d.getTime())) return s;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
