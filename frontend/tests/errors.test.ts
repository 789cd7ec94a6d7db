import { describe, expect, it } from 'vitest';
import { errorText, humanError } from '../src/lib/errors';

describe('humanError', () => {
  it('turns known Go/CLI errors into a sentence, keeps the raw text as detail and names the fix', () => {
    const e = humanError(new Error('agent default has no model provider: add one (warren providers add …) or pass --base-url and --model'));
    expect(e.sentence).toBe('This agent has no model provider yet. Choose one in Agents.');
    expect(e.detail).toContain('warren providers add');
    expect(e.fix?.target).toBe('agents');
    expect(humanError('stream dropped before completion: unexpected EOF').sentence).toMatch(/broke off/);
    expect(humanError('SetActiveProfile("minimal"): no such profile').sentence).toBe('The tool profile could not be changed.');
    expect(humanError('dial tcp 127.0.0.1:11434: connect: connection refused').sentence).toMatch(/could not reach/);
  });

  it('keeps a message that already reads as a sentence and folds nothing', () => {
    expect(humanError('Name is required')).toEqual({ sentence: 'Name is required.', detail: '' });
  });

  it('says what failed for an unknown technical error', () => {
    const e = humanError('store: scan row 3: sql: converting NULL', 'load the tools');
    expect(e.sentence).toBe('Warren could not load the tools.');
    expect(e.detail).toBe('store: scan row 3: sql: converting NULL');
    expect(humanError(undefined).sentence).toBe('Something went wrong.');
  });

  it('reads anything thrown', () => {
    expect(errorText(new Error('x'))).toBe('x');
    expect(errorText({ message: 'y' })).toBe('y');
    expect(errorText('z')).toBe('z');
  });
});
