import { describe, expect, it } from 'vitest';
import { moveIndex } from '../src/lib/keys';
import { formatElapsed, relative, timeOrNull } from '../src/lib/time';
import { plural } from '../src/lib/words';

// The small helpers every tab uses: times (lib/time.ts), words (lib/words.ts)
// and keyboard moves (lib/keys.ts).

const NOW = new Date('2026-03-02T08:30:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('times', () => {
  it("reads Go times: absent, junk, Go's zero time and anything before 1971 are none", () => {
    expect(timeOrNull('0001-01-01T00:00:00Z')).toBeNull();
    expect(timeOrNull('1970-01-01T00:00:00Z')).toBeNull();
    expect(timeOrNull(undefined)).toBeNull();
    expect(timeOrNull(null)).toBeNull();
    expect(timeOrNull('')).toBeNull();
    expect(timeOrNull('garbage')).toBeNull();
    expect(timeOrNull('2026-03-02T08:30:00Z')?.getTime()).toBe(NOW.getTime());
    expect(timeOrNull('1971-01-01T00:00:00Z')?.toISOString()).toBe('1971-01-01T00:00:00.000Z');
  });

  it('says when in words, relative to now', () => {
    expect(relative(later(20_000), NOW)).toBe('in under a minute');
    expect(relative(later(-20_000), NOW)).toBe('just now');
    expect(relative(NOW, NOW)).toBe('in under a minute');
    expect(relative(later(5 * 60_000), NOW)).toBe('in 5 min');
    expect(relative(later(-12 * 60_000), NOW)).toBe('12 min ago');
    expect(relative(later(3_600_000), NOW)).toBe('in 1 h');
    expect(relative(later(-(2 * 3600 + 10 * 60) * 1000), NOW)).toBe('2 h 10 min ago');
    expect(relative(later(11.5 * 3_600_000), NOW)).toBe('in 12 h');
    expect(relative(later(-86_400_000), NOW)).toBe('1 day ago');
    expect(relative(later(3 * 86_400_000), NOW)).toBe('in 3 days');
  });

  it('formats durations', () => {
    expect(formatElapsed(14)).toBe('<0.1 s');
    expect(formatElapsed(1500)).toBe('1.5 s');
    expect(formatElapsed(3500)).toBe('3.5 s');
    expect(formatElapsed(59_000)).toBe('59 s');
    expect(formatElapsed(120_000)).toBe('2 min');
    expect(formatElapsed(125_000)).toBe('2 min 5 s');
    expect(formatElapsed(3_700_000)).toBe('1 h 1 min');
    expect(formatElapsed(7_200_000)).toBe('2 h');
    expect(formatElapsed(7_300_000)).toBe('2 h 1 min');
    expect(formatElapsed(undefined)).toBe('');
    expect(formatElapsed(-1)).toBe('');
    expect(formatElapsed(Number.NaN)).toBe('');
  });
});

describe('words', () => {
  it('counts things', () => {
    expect(plural(1, 'tool')).toBe('1 tool');
    expect(plural(0, 'tool')).toBe('0 tools');
    expect(plural(3, 'more message', 'more messages')).toBe('3 more messages');
  });
});

describe('keys', () => {
  it('moves through a list with arrows, Home and End, wrapping', () => {
    expect(moveIndex('ArrowDown', 5, 6)).toBe(0);
    expect(moveIndex('ArrowRight', 2, 6)).toBe(3);
    expect(moveIndex('ArrowUp', 0, 6)).toBe(5);
    expect(moveIndex('ArrowLeft', 3, 6)).toBe(2);
    expect(moveIndex('Home', 3, 6)).toBe(0);
    expect(moveIndex('End', 0, 6)).toBe(5);
    expect(moveIndex('a', 0, 6)).toBeNull();
  });
});
