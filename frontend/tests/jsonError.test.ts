import { describe, expect, it } from 'vitest';
import { findJsonProblem } from '../src/lib/jsonError';

describe('findJsonProblem', () => {
  it.each([
    ['{"a": 1}', null],
    ['[1, 2.5e3, -0, "x\\n\\u00e9", true, false, null, {}]', null],
    ['  {"a": {"b": [ ]}}  ', null],
  ])('accepts %s', (text, want) => {
    expect(findJsonProblem(text)).toBe(want);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'a trailing comma is not allowed in JSON'],
    ['[1, 2,]', 1, 7, 'a trailing comma is not allowed in JSON'],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes but found "\'"'],
    ['{"a": \'x\'}', 1, 7, 'strings need double quotes (") in JSON, not single quotes'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}" but found "\\""'],
    ['{"a": "unclosed', 1, 7, 'this string is never closed'],
    ['{"a": 01}', 1, 8, 'expected "," or "}" but found "1"'],
    ['{"a": 1} x', 1, 10, 'expected nothing more after the value but found "x"'],
    ['', 1, 1, 'expected a value (string, number, object, array, true, false or null) but found the end of the text'],
    ['{"a": "x\\q"}', 1, 9, 'unknown escape \\q'],
  ])('locates the problem in %j', (text, line, column, message) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonProblem(text)).toEqual({ line, column, message });
  });
});

describe('findJsonProblem agrees with JSON.parse', () => {
  it('on 5000 random JSON-ish strings (fixed seed)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['{', '}', '[', ']', ',', ':', '"a"', '"', '1', '-', '.5', 'e3', 'true', 'nul', 'null', ' ', '\n', '\\', 'x', '0'];
    for (let k = 0; k < 5000; k++) {
      let s = '';
      const len = rand(12);
      for (let j = 0; j < len; j++) s += atoms[rand(atoms.length)];
      let valid = true;
      try {
        JSON.parse(s);
      } catch {
        valid = false;
      }
      expect(findJsonProblem(s) === null, JSON.stringify(s)).toBe(valid);
    }
  });
});
