import { describe, expect, it } from 'vitest';
import {
  describeStatus,
  eventStamp,
  fromDraft,
  importSummary,
  isOlder,
  nextAttemptText,
  serverIdFromName,
  serverNotice,
  splitCommandLine,
  target,
  toDraft,
  validateDraft,
  type McpDraft,
} from '../src/lib/mcp';
import { checkGrant, grantDraft } from '../src/lib/mcpGrants';
import { choiceSummary, defaultChoices, importLabel, importOutcome, importRequest, previewTarget, sourceLabel } from '../src/lib/mcpImport';
import type { McpImportPreview, McpPreviewServer, McpStatus } from '../src/lib/types';
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

describe('naming and notices', () => {
  it('derives a server id from the name typed (the one naming rule)', () => {
    expect(serverIdFromName('My Files')).toBe('my-files');
    expect(serverIdFromName('GitHub (work)')).toBe('github-work');
    expect(serverIdFromName('日本')).toBe('');
    expect(serverIdFromName('a'.repeat(39) + ' b')).toBe('a'.repeat(39));
    expect(serverIdFromName('x'.repeat(50))).toHaveLength(40);
  });

  it('words the add/save notice from the live status, never a stale "starting"', () => {
    const view = (over: Partial<McpStatus>, enabled = true) => ({ server: makeMcpServer({ enabled }), status: makeMcpStatus(over) });
    expect(serverNotice('Added', 'everything', undefined)).toBe('Added everything.');
    expect(serverNotice('Added', 'everything', view({ state: 'stopped' }))).toBe('Added everything. Warren is starting it.');
    expect(serverNotice('Added', 'everything', view({ state: 'connecting' }))).toBe('Added everything. Warren is starting it.');
    expect(serverNotice('Added', 'everything', view({ state: 'connected', tools: 1 }))).toBe('Added everything. It is connected with 1 tool.');
    expect(serverNotice('Saved', 'everything', view({ state: 'connecting' }))).toBe('Saved everything. It restarts with the new settings.');
    expect(serverNotice('Saved', 'everything', view({ state: 'failed' }))).toBe('Saved everything, but it has not connected yet: its status below says why.');
    expect(serverNotice('Added', 'everything', view({ state: 'stopped' }, false))).toBe('Added everything. It is switched off: Warren does not start it.');
  });
});

describe('import preview model', () => {
  const server = (over: Partial<McpPreviewServer>): McpPreviewServer => ({
    name: 's',
    transport: 'stdio',
    command: '/usr/bin/s',
    args: [],
    env_keys: [],
    header_keys: [],
    exists: false,
    enable: true,
    notes: [],
    ...over,
  });
  const preview: McpImportPreview = {
    client: 'Claude Desktop',
    path: '/home/me/.config/Claude/claude_desktop_config.json',
    servers: [
      server({ name: 'local' }),
      server({ name: 'fetched', command: 'npx', args: ['-y', 'pkg with space'], downloads: 'npx downloads the package pkg when it starts', enable: false }),
      server({ name: 'old', exists: true }),
      server({ name: 'web', transport: 'streamable-http', command: undefined, url: 'https://h/mcp' }),
    ],
    warnings: [],
  };

  it('starts with new servers ticked, downloaders off, existing ones unticked', () => {
    expect(defaultChoices(preview)).toEqual({
      local: { import: true, enabled: true },
      fetched: { import: true, enabled: false },
      old: { import: false, enabled: true },
      web: { import: true, enabled: true },
    });
    // A name chosen in another config of the same step starts unticked.
    expect(defaultChoices(preview, new Set(['local'])).local.import).toBe(false);
  });

  it('sends the path of a found config, or the pasted text, with the chosen servers', () => {
    const c = defaultChoices(preview);
    expect(importRequest(preview, c, { offer: true })).toEqual({
      path: preview.path,
      servers: [
        { name: 'local', enabled: true },
        { name: 'fetched', enabled: false },
        { name: 'web', enabled: true },
      ],
      offer: true,
    });
    const pasted = { ...preview, client: undefined, path: undefined };
    expect(importRequest(pasted, { local: { import: true, enabled: false } }, { text: '{…}', offer: false })).toEqual({
      text: '{…}',
      servers: [{ name: 'local', enabled: false }],
      offer: false,
    });
    expect(sourceLabel(pasted)).toBe('the pasted JSON');
    expect(sourceLabel(preview)).toBe('Claude Desktop');
  });

  it('says what will happen before it happens', () => {
    const c = defaultChoices(preview);
    expect(choiceSummary(preview, c)).toBe('3 of 4 servers will be imported; 1 stays off until you switch it on. Nothing starts before you confirm.');
    c.old.import = true;
    c.fetched.enabled = true;
    expect(choiceSummary(preview, c)).toBe('All 4 servers will be imported; 1 existing server replaced. Nothing starts before you confirm.');
    expect(choiceSummary(preview, {})).toBe('No server is ticked: nothing will be imported.');
    expect(choiceSummary({ servers: [], warnings: [] }, {})).toBe('The file lists no servers Warren can import.');
    expect(importLabel(2)).toBe('Import 2 servers');
    expect(importLabel(0)).toBeNull();
    expect(previewTarget(preview.servers![1])).toBe("npx -y 'pkg with space'");
    expect(previewTarget(preview.servers![3])).toBe('https://h/mcp');
  });

  it('reports what was imported and what stays off', () => {
    expect(importOutcome({ added: ['a', 'b'], replaced: ['c'], skipped: [], disabled: ['b'], warnings: [] })).toBe(
      'Added 2 (a, b); replaced 1 (c). b is stored switched off.',
    );
    expect(importOutcome({ added: ['a', 'b'], replaced: null, skipped: null, disabled: ['a', 'b'], warnings: null })).toBe(
      'Added 2 (a, b). a, b are stored switched off.',
    );
    expect(importOutcome({ added: [], replaced: [], skipped: [], warnings: [] })).toBe('Nothing was imported.');
  });
});
