// Schedules (cron jobs) as the UI shows them: times in words, common cron
// expressions in words, and the backend's "field: message" errors mapped to
// form fields. The backend parser (backend/cron) stays the authority on what
// a schedule means; nothing here decides whether an expression is valid.
import { DAY, HOUR, MIN, relative, timeOrNull } from './time';
import type { CronJob, CronJobInput } from './types';

export type CronField = keyof CronJobInput;
/** The form's fields, in its order. */
export const CRON_FIELDS: readonly CronField[] = ['agent', 'name', 'schedule', 'prompt'];

const hhmm = (d: Date) => d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

function dayStart(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** "today 09:00", "tomorrow 09:00", "yesterday 17:30", "Tue, 3 Mar 09:00" (+ year when not this year). */
export function formatWhen(d: Date, now: Date): string {
  const days = Math.round((dayStart(d) - dayStart(now)) / DAY);
  if (days === 0) return `today ${hhmm(d)}`;
  if (days === 1) return `tomorrow ${hhmm(d)}`;
  if (days === -1) return `yesterday ${hhmm(d)}`;
  const opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
  if (d.getFullYear() !== now.getFullYear()) opts.year = 'numeric';
  return `${d.toLocaleDateString([], opts)} ${hhmm(d)}`;
}

/** The Next run column: when, in words, or why there is none. */
export function nextRunText(job: CronJob, now: Date): string {
  if (!job.enabled) return 'paused';
  const next = timeOrNull(job.next_run);
  if (!next) return 'no further runs';
  if (next.getTime() <= now.getTime()) return 'due now';
  return `${formatWhen(next, now)} · ${relative(next, now)}`;
}

/** True while a run is under way or about to start (made due by Run now). */
export function isBusy(job: CronJob, now: Date): boolean {
  if (job.last_status === 'running') return true;
  const next = timeOrNull(job.next_run);
  return job.enabled && next !== null && next.getTime() <= now.getTime();
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_KEYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const MACROS: Record<string, string> = {
  '@yearly': 'every year on 1 January at 00:00',
  '@annually': 'every year on 1 January at 00:00',
  '@monthly': 'on the 1st of every month at 00:00',
  '@weekly': 'every Sunday at 00:00',
  '@daily': 'every day at 00:00',
  '@midnight': 'every day at 00:00',
  '@hourly': 'every hour, on the hour',
};

const num = (s: string, max: number): number | null => (/^\d{1,2}$/.test(s) && Number(s) <= max ? Number(s) : null);
const pad = (n: number) => String(n).padStart(2, '0');

function dayValue(s: string): number | null {
  const k = DAY_KEYS[s.toLowerCase()];
  if (k !== undefined) return k;
  const n = num(s, 7);
  return n === null ? null : n % 7;
}

/** The day-of-week field in words ("every day", "on weekdays", "on Monday and Friday"), or null. */
function daysInWords(dow: string): string | null {
  if (dow === '*') return 'every day';
  const range = /^(\w+)-(\w+)$/.exec(dow);
  if (range) {
    const [a, b] = [dayValue(range[1]), dayValue(range[2])];
    if (a === 1 && b === 5) return 'on weekdays';
    if (a !== null && b !== null) return `${DAY_NAMES[a]} to ${DAY_NAMES[b]}`;
    return null;
  }
  const days = dow.split(',').map(dayValue);
  if (days.some((d) => d === null)) return null;
  const set = [...new Set(days as number[])].sort();
  if (set.length === 2 && set[0] === 0 && set[1] === 6) return 'on weekends';
  const names = set.map((d) => DAY_NAMES[d]);
  if (names.length === 1) return `every ${names[0]}`;
  return `on ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * A common schedule in words ("every day at 09:00", "every 15 minutes on
 * weekdays", "once, tomorrow 09:00"); null when it is not a shape we know
 * (the expression itself is then the description).
 */
export function describeSchedule(expr: string, now = new Date()): string | null {
  const s = expr.trim();
  if (/^at\s/i.test(s)) {
    const at = timeOrNull(s.slice(3).trim());
    return at ? `once, ${formatWhen(at, now)}` : null;
  }
  const macro = MACROS[s.toLowerCase()];
  if (macro) return macro;
  const f = s.split(/\s+/);
  if (f.length !== 5) return null;
  const [m, h, dom, mon, dow] = f;
  if (mon !== '*') return null;
  let days: string | null;
  if (dom === '*') days = daysInWords(dow);
  else {
    const d = num(dom, 31);
    days = d !== null && d > 0 && dow === '*' ? `on day ${d} of every month` : null;
  }
  if (!days) return null;
  const minute = num(m, 59);
  const hour = num(h, 23);
  const every = /^\*\/(\d+)$/.exec(m);
  const onDays = days === 'every day' ? '' : ` ${days.replace(/^every /, 'on ')}`;
  if (h === '*') {
    if (m === '*') return `every minute${onDays}`;
    if (every) return `every ${every[1]} minutes${onDays}`;
    if (minute === 0) return `every hour, on the hour${onDays}`;
    if (minute !== null) return `every hour at :${pad(minute)}${onDays}`;
    return null;
  }
  if (minute === null) return null;
  const hours = h.split(',').map((x) => num(x, 23));
  if (hour === null && (hours.length < 2 || hours.some((x) => x === null))) return null;
  const times = (hour !== null ? [hour] : (hours as number[])).map((x) => `${pad(x)}:${pad(minute)}`);
  const at = times.length === 1 ? times[0] : `${times.slice(0, -1).join(', ')} and ${times[times.length - 1]}`;
  return `${days} at ${at}`;
}

/** RFC 3339 in local time with its offset, whole seconds: what "at …" schedules take. */
export function rfc3339Local(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** Quick picks for the schedule field; "once" is computed when clicked. */
export const SCHEDULE_PRESETS: { label: string; value: (now: Date) => string }[] = [
  { label: 'Every hour', value: () => '0 * * * *' },
  { label: 'Every day 09:00', value: () => '0 9 * * *' },
  { label: 'Weekdays 09:00', value: () => '0 9 * * 1-5' },
  { label: 'Mondays 08:00', value: () => '0 8 * * 1' },
  {
    label: 'Once, in 1 hour',
    value: (now) => `at ${rfc3339Local(new Date(Math.ceil((now.getTime() + HOUR) / MIN) * MIN))}`,
  },
];

export interface FieldErrors {
  fields: Partial<Record<CronField, string>>;
  /** Lines that name no field. */
  other: string[];
}

/** Splits a backend error ("schedule: …\nprompt: …") into per-field messages. */
export function parseFieldErrors(message: string): FieldErrors {
  const out: FieldErrors = { fields: {}, other: [] };
  for (const line of message.split('\n')) {
    const m = /^(agent|name|schedule|prompt): (.*)$/s.exec(line.trim());
    if (m) out.fields[m[1] as CronField] = capitalise(m[2]);
    else if (line.trim()) out.other.push(line.trim());
  }
  return out;
}

function capitalise(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

const MAX_DERIVED_NAME = 60;
const TRAILING = /[.!?:;,… ]+$/u;

/**
 * The name Go gives a job saved without one (backend/cron NameFromPrompt):
 * the prompt's first line, whitespace collapsed, cut at a word near 60
 * characters with "…", first letter upper-case. The form shows it while
 * the prompt is typed, so the saved name is no surprise.
 */
export function nameFromPrompt(prompt: string): string {
  let line = '';
  for (const l of prompt.split('\n')) {
    line = l.split(/\s+/u).filter(Boolean).join(' ');
    if (line) break;
  }
  line = line.replace(TRAILING, '');
  let r = Array.from(line);
  if (r.length > MAX_DERIVED_NAME) {
    const head = r.slice(0, MAX_DERIVED_NAME).join('');
    const sp = head.lastIndexOf(' ');
    const cut = sp >= 0 && Array.from(head.slice(0, sp)).length >= 20 ? Array.from(head.slice(0, sp)).length : MAX_DERIVED_NAME - 1;
    r = [...Array.from(r.slice(0, cut).join('').replace(TRAILING, '')), '…'];
  }
  if (!r.length) return 'Scheduled prompt';
  r[0] = r[0].toUpperCase();
  return r.join('');
}

export function emptyJobInput(agent = 'default'): CronJobInput {
  return { agent, name: '', schedule: '', prompt: '' };
}

/** What the form can say before asking the backend: the required fields. */
export function requiredErrors(d: CronJobInput): Partial<Record<CronField, string>> {
  const e: Partial<Record<CronField, string>> = {};
  if (!d.agent.trim()) e.agent = 'Choose the agent that runs the prompt.';
  if (!d.schedule.trim()) e.schedule = 'A schedule is required, e.g. 0 9 * * 1-5 (weekdays at 09:00).';
  if (!d.prompt.trim()) e.prompt = 'Write the instruction the agent runs.';
  return e;
}

/** Last run status as a label. */
export function statusLabel(job: CronJob): string {
  switch (job.last_status) {
    case 'ok':
      return 'ok';
    case 'error':
      return 'failed';
    case 'running':
      return 'running';
    default:
      return 'never run';
  }
}
