import { describe, expect, it } from 'vitest';
import {
  describeStatus,
  eventStamp,
  fromDraft,
  importSummary,
  isOlder,
  nextAttemptText,
  splitCommandLine,
  target,
  toDraft,
  validateDraft,
  type McpDraft,
} from '../src/lib/mcp';
import { checkGrant, grantDraft } from '../src/lib/mcpGrants';
import type { McpStatus } from '../src/lib/types';
import { makeMcpServer, makeMcpStatus } from './fakeMcp';

// The MCP tab's logic without the DOM; the panel itself is in mcp.test.ts.

const NOW = new Date('2026-03-02T08:30:00Z');
const inSeconds = (s: number) => new Date(NOW.getTime() + s * 1000).toISOString();

function draft(over: Partial<McpDraft> = {}): McpDraft {
  return { ...toDraft(null), name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], ...over };
}

describe('status in words', () => {
  const st = (over: Partial<McpStatus>) => makeMcpStatus(over);

  it.each([
    [{ state: 'connected' }, 'Connected', 'ok', []],
    [{ state: 'connected', tools: 0, warning: 'connected, but the server lists no tools (it has no tools capability)' }, 'Connected · 0 tools', 'warn', ['connected, but the server lists no tools (it has no tools capability)']],
    [{ state: 'connected', tools: 0 }, 'Connected · 0 tools', 'warn', ['The server lists no tools.']],
    [{ state: 'connecting' }, 'Connecting…', 'busy', []],
    [
      { state: 'reconnecting', attempt: 2, max_attempts: 10, next_retry: inSeconds(4.2), last_error: 'process exited: signal: killed' },
      'Reconnecting',
      'warn',
      ['next attempt 2/10 in 5 s', 'process exited: signal: killed'],
    ],
    [
      { state: 'failed', attempt: 10, max_attempts: 10, last_error: 'exec: "nope": executable file not found in $PATH' },
      'Failed',
      'bad',
      ['Gave up after 10 attempts; Restart tries again.', 'exec: "nope": executable file not found in $PATH'],
    ],
    [{ state: 'stopped', enabled: true }, 'Stopped', 'off', []],
    [{ state: 'stopped', enabled: false, last_error: 'boom' }, 'Disabled', 'off', ['boom']],
  ] as const)('%j', (over, label, tone, detail) => {
    expect(describeStatus(st(over as Partial<McpStatus>), NOW)).toEqual({ label, tone, detail });
  });

  it('counts down to the next attempt', () => {
    const s = st({ state: 'reconnecting', attempt: 1, max_attempts: 10, next_retry: inSeconds(2) });
    expect(nextAttemptText(s, NOW)).toBe('next attempt 1/10 in 2 s');
    expect(nextAttemptText(s, new Date(NOW.getTime() + 3000))).toBe('attempt 1/10 now');
    expect(nextAttemptText({ ...s, next_retry: '0001-01-01T00:00:00Z' }, NOW)).toBe('attempt 1/10');
  });

  it('orders Go event times to the nanosecond', () => {
    const a = eventStamp('2026-11-21T08:14:29.306123456Z');
    const b = eventStamp('2026-11-21T08:14:29.3061235Z');
    expect(a).toEqual([Date.parse('2026-11-21T08:14:29Z'), 306123456]);
    expect(isOlder(a, b)).toBe(true);
    expect(isOlder(b, a)).toBe(false);
    expect(isOlder(eventStamp('2026-11-21T09:14:29+01:00'), eventStamp('2026-11-21T08:14:29.5Z'))).toBe(true);
    expect(eventStamp('2026-11-21T08:14:29Z')).toEqual([Date.parse('2026-11-21T08:14:29Z'), 0]);
  });

  it('shows what a server runs, quoted like a shell', () => {
    expect(target(makeMcpServer({ command: 'npx', args: ['-y', 'pkg', 'two words', ''] }))).toBe("npx -y pkg 'two words' ''");
    expect(target(makeMcpServer({ transport: 'sse', command: undefined, url: 'http://127.0.0.1:3001/sse' }))).toBe('http://127.0.0.1:3001/sse');
  });
});

describe('server form model', () => {
  it('accepts a good stdio draft and an http one', () => {
    expect(validateDraft(draft())).toEqual({ errors: {}, ok: true });
    expect(validateDraft(draft({ transport: 'streamable-http', command: '', url: 'https://mcp.example.com/mcp' })).ok).toBe(true);
  });

  it.each([
    [{ name: '' }, 'name', 'A name is required.'],
    [{ name: 'my server' }, 'name', '" " is not allowed'],
    [{ name: 'a'.repeat(41) }, 'name', 'At most 40 characters'],
    [{ tool_prefix: 'bad.prefix' }, 'tool_prefix', '"." is not allowed'],
    [{ command: ' ' }, 'command', 'The command that starts the server'],
    [{ args: ['-y', ''] }, 'args', 'Remove the empty argument'],
    [{ transport: 'sse', url: '' }, 'url', 'The server’s URL'],
    [{ transport: 'sse', url: 'ftp://x' }, 'url', 'http:// or https://'],
    [{ transport: 'streamable-http', url: 'localhost:3000' }, 'url', 'http:// or https://'],
    [{ env: [{ key: 'A=B', value: 'x', stored: false, replace: false }] }, 'env', 'cannot contain "="'],
    [{ env: [{ key: '', value: 'x', stored: false, replace: false }] }, 'env', 'Give each variable a name'],
    [{ env: [{ key: 'TOKEN', value: '', stored: false, replace: false }] }, 'env', 'Type a value for TOKEN.'],
    [{ env: [{ key: 'TOKEN', value: '', stored: true, replace: true }] }, 'env', 'or keep the stored one'],
    [
      { env: [{ key: 'T', value: '1', stored: false, replace: false }, { key: 'T', value: '2', stored: false, replace: false }] },
      'env',
      'T is listed twice.',
    ],
    [{ transport: 'sse', url: 'http://h/sse', headers: [{ key: 'X Token', value: 'v', stored: false, replace: false }] }, 'headers', 'cannot contain ":" or spaces'],
    [{ connect_timeout: '0' }, 'connect_timeout', 'more than 0'],
    [{ connect_timeout: 'ten' }, 'connect_timeout', 'Seconds'],
    [{ call_timeout: '100000' }, 'call_timeout', 'at most 86400'],
  ])('%j → %s', (over, field, text) => {
    const v = validateDraft(draft(over as Partial<McpDraft>));
    expect(v.ok).toBe(false);
    expect(v.errors[field as keyof typeof v.errors]).toContain(text);
  });

  it('rejects a taken name only when adding', () => {
    expect(validateDraft(draft(), { existing: ['everything'], creating: true }).errors.name).toBe('A server named everything exists already.');
    expect(validateDraft(draft(), { existing: ['everything'], creating: false }).ok).toBe(true);
  });

  it('sends env values only when typed, "" for cleared keys, and keeps the tool switches', () => {
    const d = toDraft(makeMcpServer({ env_keys: ['KEEP', 'GONE', 'NEWVAL'], tool_deny: ['echo'], connect_timeout_ns: 15e9 }));
    expect(d.env.map((r) => r.stored)).toEqual([true, true, true]);
    expect(d.connect_timeout).toBe('15');
    expect(fromDraft(d)).not.toHaveProperty('env');
    d.removedEnv.push('GONE');
    d.env.splice(1, 1);
    d.env[1].replace = true;
    d.env[1].value = 'v2';
    d.env.push({ key: 'ADDED', value: 'a', stored: false, replace: false });
    const s = fromDraft(d);
    expect(s.env).toEqual({ GONE: '', NEWVAL: 'v2', ADDED: 'a' });
    expect(s.tool_deny).toEqual(['echo']);
    expect(s.connect_timeout_ns).toBe(15e9);
    expect(s.url).toBeUndefined();
  });

  it('clears stored values of the transport it leaves', () => {
    const d = toDraft(makeMcpServer({ env_keys: ['TOKEN'] }));
    d.transport = 'streamable-http';
    d.url = 'http://127.0.0.1:3001/mcp';
    d.headers.push({ key: 'Authorization', value: 'Bearer x', stored: false, replace: false });
    const s = fromDraft(d);
    expect(s).toMatchObject({ url: 'http://127.0.0.1:3001/mcp', env: { TOKEN: '' }, headers: { Authorization: 'Bearer x' }, sandboxed: false });
    expect(s.command).toBeUndefined();
  });

  it('splits a pasted command line like a shell', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-filesystem "/home/me/My Docs"')).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/home/me/My Docs',
    ]);
    expect(splitCommandLine(`a 'b c' d\\ e ""`)).toEqual(['a', 'b c', 'd e', '']);
    expect(splitCommandLine('a "open')).toBeNull();
  });
});

describe('grants and import reports', () => {
  it('checks a grant: subject required, unknown tools and overlaps warned', () => {
    expect(checkGrant(grantDraft(), []).error).toContain('Which agent?');
    const c = checkGrant({ ...grantDraft(), subject: 'default', allow: 'echo, add nope', deny: 'add' }, ['echo', 'add']);
    expect(c.error).toBeUndefined();
    expect(c.warnings).toEqual(['The server does not list nope right now.', 'add is both allowed and denied: deny wins.']);
  });

  it('summarises an import', () => {
    expect(importSummary({ added: ['a', 'b'], replaced: null, skipped: ['c'], warnings: ['w'] })).toBe(
      'Added 2 (a, b); skipped 1 that exist already (c).',
    );
    expect(importSummary({ added: [], replaced: [], skipped: [], warnings: [] })).toBe('Nothing was imported.');
  });
});
