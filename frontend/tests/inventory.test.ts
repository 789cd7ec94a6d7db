import { describe, expect, it } from 'vitest';
import {
  classInfo,
  countTools,
  dangerInfo,
  filterTools,
  groupTools,
  nameList,
  profileChange,
  profileChangeText,
  schemaRows,
  summaryLine,
} from '../src/lib/inventory';
import { renderBlocks } from '../src/lib/text';
import { errorMessage } from '../src/lib/api';
import { toolsFor } from './fakeApi';

describe('groupTools', () => {
  it('groups by group, sorted, with allowed counts', () => {
    const groups = groupTools(toolsFor('coding'));
    expect(groups.map((g) => g.name)).toEqual(['fs', 'runtime', 'sessions', 'web']);
    const fs = groups[0];
    expect(fs.tools.map((t) => t.name)).toEqual(['read_file', 'write_file']);
    expect(fs.allowed).toBe(2);
    expect(groups.find((g) => g.name === 'web')?.allowed).toBe(0);
  });

  it('puts tools without a group under "ungrouped"', () => {
    const [t] = toolsFor('full');
    expect(groupTools([{ ...t, group: '' }])[0].name).toBe('ungrouped');
  });
});

describe('filterTools', () => {
  const tools = toolsFor('full');
  it.each([
    ['', 5],
    ['file', 2],
    ['FILE', 2],
    ['sandbox', 1], // description match
    ['read text', 1], // every term must match
    ['nothing-like-this', 0],
  ])('%j matches %i tools', (query, n) => {
    expect(filterTools(tools, query)).toHaveLength(n);
  });
});

describe('counts', () => {
  it('counts allowed and danger levels and renders the summary', () => {
    const c = countTools(toolsFor('coding'));
    expect(c).toMatchObject({ total: 5, allowed: 4, blocked: 1 });
    expect(c.byDanger).toEqual({ safe: 2, warning: 1, dangerous: 1, critical: 1 });
    expect(summaryLine(c, 'coding')).toBe('5 tools · 4 allowed under coding');
    expect(summaryLine(countTools(toolsFor('minimal').slice(0, 1)), '')).toBe('1 tool · 0 allowed');
  });
});

describe('schemaRows', () => {
  it('lists required parameters first with types and enums', () => {
    const rows = schemaRows({
      type: 'object',
      properties: {
        b: { type: 'integer' },
        a: { type: 'string', description: 'the a', enum: ['x', 'y'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['a'],
    });
    expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'tags']);
    expect(rows[0]).toEqual({ name: 'a', type: 'string', required: true, description: 'the a', values: '"x", "y"' });
    expect(rows[2].type).toBe('string[]');
  });

  it('tolerates missing or odd schemas', () => {
    expect(schemaRows(null)).toEqual([]);
    expect(schemaRows({ type: 'object' })).toEqual([]);
    expect(schemaRows({ properties: { x: {} } })[0].type).toBe('any');
  });
});

describe('renderBlocks', () => {
  it('renders headings, paragraphs, lists and code as data', () => {
    const blocks = renderBlocks('# Title\n\nSome `code` and **bold**\nwrapped.\n\n- one\n- two\n\n```\nx <b>\n```');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'code']);
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      text: [
        { code: false, text: 'Some ' },
        { code: true, text: 'code' },
        { code: false, text: ' and bold wrapped.' },
      ],
    });
    expect(blocks[3]).toEqual({ kind: 'code', text: 'x <b>' });
  });
});

describe('errorMessage', () => {
  it.each([
    ['boom', 'boom'],
    [new Error('bad'), 'bad'],
    [{ message: 'obj' }, 'obj'],
    [{ code: 1 }, '{"code":1}'],
  ])('%j → %s', (input, want) => {
    expect(errorMessage(input)).toBe(want);
  });
});

describe('profile change', () => {
  it('lists what a switch blocks and allows, for the tools shown', () => {
    const c = profileChange(toolsFor('coding'), toolsFor('minimal'));
    expect(c).toEqual({ blocked: ['exec', 'read_file', 'write_file'], allowed: [] });
    expect(profileChangeText('minimal', c)).toEqual(['Switching to minimal blocks 3 tools for every agent: exec, read_file and write_file.']);
    const back = profileChange(toolsFor('minimal'), toolsFor('messaging'));
    expect(profileChangeText('messaging', back)).toEqual(['Switching to messaging allows 1 tool for every agent: web_fetch.']);
    expect(profileChangeText('coding', profileChange(toolsFor('coding'), toolsFor('coding')))).toEqual([
      'Switching to coding changes no tool for the agent shown.',
    ]);
    // Tools that appear or vanish between the two lists are not a change.
    expect(profileChange(toolsFor('coding').slice(0, 2), toolsFor('minimal'))).toEqual({ blocked: ['read_file', 'write_file'], allowed: [] });
  });

  it('shortens long name lists', () => {
    expect(nameList([])).toBe('');
    expect(nameList(['a'])).toBe('a');
    expect(nameList(['a', 'b'])).toBe('a and b');
    expect(nameList(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])).toBe('a, b, c, d, e, f and 2 more');
    expect(nameList(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
  });
});

describe('badges', () => {
  it('explain each danger level and class in words', () => {
    expect(Object.keys(dangerInfo)).toEqual(['safe', 'warning', 'dangerous', 'critical']);
    for (const info of Object.values(dangerInfo)) expect(info.explain).toMatch(/^[A-Z].+\.$/);
    expect(dangerInfo.warning.label).toBe('caution');
    expect(classInfo('static')).toBeNull();
    expect(classInfo('engine')?.label).toBe('in runs only');
    expect(classInfo('runtime')?.explain).toContain('live model');
    expect(classInfo('odd')).toEqual({ label: 'odd', explain: 'Tool class odd.' });
  });
});
