import { describe, expect, it } from 'vitest';
import { idFromName, idProblem, uniqueId } from '../src/lib/names';

describe('names', () => {
  it('derives ids from display names', () => {
    expect(idFromName('Research Bot')).toBe('research-bot');
    expect(idFromName('  Café Ølså!! ')).toBe('cafe-olsa');
    expect(idFromName('Weekly report: Mon 9am', '_')).toBe('weekly_report_mon_9am');
    expect(idFromName('9 lives', '_')).toBe('t_9_lives');
    expect(idFromName('日本語')).toBe('');
    expect(idFromName('x'.repeat(100))).toHaveLength(64);
  });

  it('explains a bad id', () => {
    expect(idProblem('research-bot')).toBe('');
    expect(idProblem('')).toMatch(/at least one letter/);
    expect(idProblem('Research Bot')).toMatch(/lowercase/);
    expect(idProblem('my-tool', '_')).toMatch(/"_"/);
  });

  it('makes an id unique', () => {
    expect(uniqueId('bot', ['bot', 'bot-2'])).toBe('bot-3');
    expect(uniqueId('bot', [])).toBe('bot');
  });
});
