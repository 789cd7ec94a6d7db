// Times as the UI shows them: Go timestamps read safely, a time relative to
// now in words, and how long something took.
import { plural } from './words';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/**
 * A Go time as a Date; null when absent, unparsable, or Go's zero time
 * ("0001-01-01T00:00:00Z"): anything before 1971 is taken as no time.
 */
export function timeOrNull(s: string | undefined | null): Date | null {
  if (!s) return null;
  const d = new Date(s);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1971) return null;
  return d;
}

/** "in 5 min", "in 2 h 10 min", "in 3 days", "5 min ago", "just now". */
export function relative(d: Date, now: Date): string {
  const diff = d.getTime() - now.getTime();
  const abs = Math.abs(diff);
  if (abs < 45_000) return diff >= 0 ? 'in under a minute' : 'just now';
  let text: string;
  if (abs < HOUR) text = `${Math.round(abs / MIN)} min`;
  else if (abs < DAY) {
    const h = Math.floor(abs / HOUR);
    const m = Math.round((abs - h * HOUR) / MIN);
    text = m && h < 10 ? `${h} h ${m} min` : `${Math.round(abs / HOUR)} h`;
  } else {
    text = plural(Math.round(abs / DAY), 'day');
  }
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * A duration: 1500 ms → "1.5 s", 12 s → "12 s", 120 s → "2 min",
 * 125 s → "2 min 5 s", 3700 s → "1 h 1 min"; "" when unknown or negative.
 */
export function formatElapsed(ms: number | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  const s = ms / 1000;
  if (s < 0.1) return '<0.1 s';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${Math.floor(s % 60) ? ` ${Math.floor(s % 60)} s` : ''}`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}
