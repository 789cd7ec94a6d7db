// The MCP part of the fake WarrenApi (fakeApi.ts spreads it in): servers,
// statuses, tools, grants and requests in memory, behaving like app/mcp.go —
// env and header values are write-only, "" deletes a stored key, a failed
// connection test is a result, not a rejection. Grant overrides keep their
// secrets the same way: a key named in env_keys and not in env keeps its
// stored value, a stored key in neither goes.
import { vi } from 'vitest';
import type {
  ClaudeDesktopOffer,
  McpAccessRequest,
  McpAgentAccess,
  McpEvent,
  McpGrant,
  McpGrantOverrides,
  McpImportPreview,
  McpImportReport,
  McpImportRequest,
  McpPreviewServer,
  McpServer,
  McpServerView,
  McpStatus,
  McpTestResult,
  McpTool,
} from '../src/lib/types';

export interface McpFakeState {
  servers: McpServer[];
  /** Stored env values by server (to check write-only handling). */
  env: Record<string, Record<string, string>>;
  headers: Record<string, Record<string, string>>;
  statuses: Record<string, McpStatus>;
  /** Tools by server, listed while it is connected. */
  tools: Record<string, McpTool[]>;
  grants: McpGrant[];
  /** Stored override secrets by grant (server/scope/subject), never returned by reads. */
  grantSecrets: Record<string, GrantSecrets>;
  requests: McpAccessRequest[];
  alsoAllow: string[];
  profile: string;
  logs: Record<string, string[]>;
  /** What testMcpServer answers, by server name; default: the tools of `everything`. */
  tests: Record<string, McpTestResult>;
  offer: ClaudeDesktopOffer | null;
  offerAnswer: boolean | null;
  canSave: boolean;
  /** What importMcpServers answers; an Error rejects. */
  importResult: McpImportReport | Error;
  /** What findMcpConfigs finds (Claude Desktop, Cursor, VS Code configs). */
  configs: McpImportPreview[];
  /** Every importMcpSelection request, in order. */
  imports: McpImportRequest[];
}

export interface GrantSecrets {
  env: Record<string, string>;
  headers: Record<string, string>;
}

export const grantKey = (g: Pick<McpGrant, 'server' | 'scope' | 'subject'>) => `${g.server}/${g.scope}/${g.subject}`;

export function makeMcpServer(over: Partial<McpServer> = {}): McpServer {
  return {
    name: 'everything',
    transport: 'stdio',
    command: '/usr/bin/mcp-server-everything',
    args: ['stdio'],
    enabled: true,
    connect_timeout_ns: 30e9,
    call_timeout_ns: 120e9,
    restricted: false,
    deferred: false,
    sandboxed: false,
    sandbox_network: false,
    tool_deny: [],
    env_keys: [],
    header_keys: [],
    ...over,
  };
}

export function makeMcpStatus(over: Partial<McpStatus> = {}): McpStatus {
  return {
    name: 'everything',
    transport: 'stdio',
    enabled: true,
    state: 'connected',
    protocol: '2025-11-25',
    server_name: 'mcp-servers/everything',
    server_version: '2.0.0',
    tools: 3,
    latency_ms: 0.42,
    restarts: 0,
    pid: 4242,
    last_health: new Date(Date.now() - 5000).toISOString(),
    ...over,
  };
}

export const everythingTools: McpTool[] = [
  { name: 'echo', registered_as: 'mcp_everything_echo', description: 'Echoes back the input', enabled: true, danger: 'warning' },
  { name: 'add', registered_as: 'mcp_everything_add', description: 'Adds two numbers', enabled: true, danger: 'safe' },
  { name: 'printEnv', registered_as: 'mcp_everything_printEnv', description: 'Prints the environment', enabled: true, danger: 'warning' },
];

const NAME_RE = /^[A-Za-z0-9_-]{1,40}$/;

export function mcpFake() {
  const state: McpFakeState = {
    servers: [],
    env: {},
    headers: {},
    statuses: {},
    tools: {},
    grants: [],
    grantSecrets: {},
    requests: [],
    alsoAllow: [],
    profile: 'coding',
    logs: {},
    tests: {},
    offer: null,
    offerAnswer: null,
    canSave: false,
    importResult: { added: [], replaced: [], skipped: [], warnings: [] },
    configs: [],
    imports: [],
  };
  const listeners = new Set<(ev: McpEvent) => void>();
  let reqSeq = 0;

  /** Publishes a status change; time (RFC 3339) defaults to now. */
  function emitMcp(over: Partial<McpStatus> & { name: string }, time = new Date().toISOString()) {
    const st = { ...(state.statuses[over.name] ?? makeMcpStatus({ name: over.name })), ...over };
    state.statuses[over.name] = st;
    for (const fn of listeners) fn({ topic: 'mcp.status', time, payload: structuredClone(st) });
  }

  function server(name: string): McpServer {
    const s = state.servers.find((x) => x.name === name);
    if (!s) throw `mcp server ${JSON.stringify(name)}: not found`;
    return s;
  }

  function merge(stored: Record<string, string>, given: Record<string, string> | undefined) {
    const out = { ...stored };
    for (const [k, v] of Object.entries(given ?? {})) {
      if (v === '') delete out[k];
      else out[k] = v;
    }
    return out;
  }

  function store(srv: McpServer, replace: boolean) {
    if (!NAME_RE.test(srv.name)) throw `server name ${JSON.stringify(srv.name)} is invalid`;
    if (srv.transport === 'stdio' && !srv.command) throw `server ${JSON.stringify(srv.name)}: a stdio server needs a command`;
    const env = merge(replace ? {} : (state.env[srv.name] ?? {}), srv.env);
    const headers = merge(replace ? {} : (state.headers[srv.name] ?? {}), srv.headers);
    state.env[srv.name] = env;
    state.headers[srv.name] = headers;
    const { env: _e, headers: _h, ...rest } = srv;
    const saved: McpServer = { ...rest, env_keys: Object.keys(env).sort(), header_keys: Object.keys(headers).sort() };
    state.servers = [...state.servers.filter((x) => x.name !== srv.name), saved].sort((a, b) => a.name.localeCompare(b.name));
    if (srv.enabled) emitMcp({ name: srv.name, transport: srv.transport, state: 'connecting', pid: undefined });
  }

  /** Stored keys named in keys keep their values; given values replace or add; the rest go. */
  function keepSecrets(stored: Record<string, string>, keys: string[] | undefined, given: Record<string, string> | undefined) {
    const out: Record<string, string> = {};
    for (const k of keys ?? []) if (k in stored) out[k] = stored[k];
    return { ...out, ...given };
  }

  /** What Go stores and reads back: secrets split off, their keys listed; {} when none. */
  function storeGrant(g: McpGrant) {
    const o: McpGrantOverrides = g.config_overrides ?? {};
    if (g.scope === 'user' && Object.keys(o).length) throw `grant for user ${g.subject}: config overrides are for agent grants only`;
    const t = o.call_timeout_seconds;
    if (t !== undefined && !(Number.isInteger(t) && t > 0)) throw `grant: call_timeout_seconds ${t} must be a positive whole number`;
    const key = grantKey(g);
    const old = state.grantSecrets[key] ?? { env: {}, headers: {} };
    const secrets = { env: keepSecrets(old.env, o.env_keys, o.env), headers: keepSecrets(old.headers, o.header_keys, o.headers) };
    state.grantSecrets[key] = secrets;
    const { env: _e, headers: _h, env_keys: _ek, header_keys: _hk, ...rest } = o;
    const read: McpGrantOverrides = { ...rest };
    if (Object.keys(secrets.env).length) read.env_keys = Object.keys(secrets.env).sort();
    if (Object.keys(secrets.headers).length) read.header_keys = Object.keys(secrets.headers).sort();
    const same = (x: McpGrant) => grantKey(x) === key;
    state.grants = [...state.grants.filter((x) => !same(x)), { ...structuredClone(g), config_overrides: read }];
  }

  const methods = {
    mcpServers: vi.fn(async (): Promise<McpServerView[]> =>
      state.servers.map((s) => ({
        server: structuredClone(s),
        status: structuredClone(state.statuses[s.name] ?? makeMcpStatus({ name: s.name, state: 'stopped', tools: 0, pid: undefined, latency_ms: undefined })),
      })),
    ),
    addMcpServer: vi.fn(async (srv: McpServer, offer: boolean) => {
      if (state.servers.some((s) => s.name === srv.name)) throw `MCP server "${srv.name}" already exists: edit it, or pick another name`;
      store(srv, true);
      if (offer) state.alsoAllow.push(`group:mcp:${srv.name}`);
    }),
    updateMcpServer: vi.fn(async (srv: McpServer) => {
      const cur = server(srv.name);
      store({ ...srv, tool_deny: cur.tool_deny }, false);
    }),
    deleteMcpServer: vi.fn(async (name: string) => {
      server(name);
      state.servers = state.servers.filter((s) => s.name !== name);
      state.grants = state.grants.filter((g) => g.server !== name);
      delete state.statuses[name];
    }),
    setMcpServerEnabled: vi.fn(async (name: string, on: boolean) => {
      server(name).enabled = on;
      emitMcp({ name, enabled: on, state: on ? 'connecting' : 'stopped' });
    }),
    startMcpServer: vi.fn(async (name: string) => {
      server(name);
      emitMcp({ name, state: 'connecting' });
    }),
    stopMcpServer: vi.fn(async (name: string) => {
      server(name);
      emitMcp({ name, state: 'stopped', pid: undefined });
    }),
    restartMcpServer: vi.fn(async (name: string) => {
      server(name);
      emitMcp({ name, state: 'connecting', attempt: undefined, next_retry: undefined });
    }),
    testMcpServer: vi.fn(
      async (srv: McpServer): Promise<McpTestResult> =>
        structuredClone(
          state.tests[srv.name] ?? {
            ok: true,
            protocol: '2025-11-25',
            server_name: 'mcp-servers/everything',
            server_version: '2.0.0',
            tools: everythingTools.map((t) => ({ name: t.name, description: t.description })),
            latency_ms: 412.5,
            stderr: [],
          },
        ),
    ),
    mcpServerTools: vi.fn(async (name: string): Promise<McpTool[]> => {
      const s = server(name);
      if (state.statuses[name]?.state !== 'connected') throw `MCP server ${name} is not running: not connected`;
      return (state.tools[name] ?? []).map((t) => ({ ...t, enabled: !(s.tool_deny ?? []).includes(t.name) }));
    }),
    setMcpToolEnabled: vi.fn(async (name: string, tool: string, on: boolean) => {
      const s = server(name);
      const deny = (s.tool_deny ?? []).filter((t) => t !== tool);
      s.tool_deny = on ? deny : [...deny, tool].sort();
    }),
    mcpServerLogs: vi.fn(async (name: string, lines: number) => {
      server(name);
      return (state.logs[name] ?? []).slice(-lines);
    }),
    mcpGrants: vi.fn(async (name: string) => structuredClone(state.grants.filter((g) => !name || g.server === name))),
    saveMcpGrant: vi.fn(async (g: McpGrant) => {
      if (!g.subject) throw 'grant: subject (agent or user name) is empty';
      server(g.server);
      storeGrant(g);
    }),
    deleteMcpGrant: vi.fn(async (name: string, scope: string, subject: string) => {
      state.grants = state.grants.filter((g) => !(g.server === name && g.scope === scope && g.subject === subject));
      delete state.grantSecrets[grantKey({ server: name, scope: scope as McpGrant['scope'], subject })];
    }),
    mcpAccessRequests: vi.fn(async (status: string) => structuredClone(state.requests.filter((r) => !status || r.status === status))),
    requestMcpAccess: vi.fn(async (r: Omit<McpAccessRequest, 'id' | 'status' | 'created_at'>) => {
      const id = ++reqSeq;
      state.requests.unshift({ ...r, id, status: 'pending', created_at: new Date().toISOString() });
      return id;
    }),
    reviewMcpRequest: vi.fn(async (id: number, approve: boolean, note: string) => {
      const r = state.requests.find((x) => x.id === id);
      if (!r) throw `access request ${id}: not found`;
      if (r.status !== 'pending') throw `access request ${id} was already ${r.status}`;
      Object.assign(r, { status: approve ? 'approved' : 'rejected', review_note: note, reviewer: 'local' });
      if (approve) state.grants.push({ server: r.server, scope: r.scope, subject: r.subject, tool_allow: r.tool_allow ?? [], tool_deny: [], enabled: true });
    }),
    importMcpServers: vi.fn(async (_text: string, _replace: boolean) => {
      if (state.importResult instanceof Error) throw state.importResult.message;
      return structuredClone(state.importResult);
    }),
    exportMcpServers: vi.fn(async () =>
      JSON.stringify({ mcpServers: Object.fromEntries(state.servers.map((s) => [s.name, { command: s.command, args: s.args, env: state.env[s.name] }])) }, null, 2),
    ),
    canSaveFiles: vi.fn(async () => state.canSave),
    saveMcpExport: vi.fn(async () => '/home/me/mcp-servers.json'),
    claudeDesktopOffer: vi.fn(async () => (state.offerAnswer === null ? structuredClone(state.offer) : null)),
    answerClaudeDesktopOffer: vi.fn(async (accept: boolean): Promise<McpImportReport> => {
      state.offerAnswer = accept;
      return { added: accept ? [...(state.offer?.servers ?? [])] : [], replaced: [], skipped: [], warnings: [] };
    }),
    mcpAgentAccess: vi.fn(async (name: string): Promise<McpAgentAccess> => {
      const also = state.alsoAllow.includes(`group:mcp:${name}`);
      const hint =
        also || state.profile === 'full'
          ? ''
          : `note: profile ${state.profile} does not offer MCP tools to agents; allow this server's with: warren policy also-allow group:mcp:${name}`;
      return { also_allowed: also, hint, profile: state.profile };
    }),
    setMcpOffered: vi.fn(async (name: string, on: boolean) => {
      const entry = `group:mcp:${name}`;
      state.alsoAllow = state.alsoAllow.filter((e) => e !== entry);
      if (on) state.alsoAllow.push(entry);
    }),
    previewMcpImport: vi.fn(async (text: string): Promise<McpImportPreview> => previewOf(text)),
    findMcpConfigs: vi.fn(async (): Promise<McpImportPreview[]> => structuredClone(state.configs)),
    importMcpSelection: vi.fn(async (req: McpImportRequest): Promise<McpImportReport> => {
      state.imports.push(structuredClone(req));
      const p = req.path ? state.configs.find((c) => c.path === req.path) : previewOf(req.text ?? '');
      if (!p) throw `${req.path} is not a Claude Desktop, Cursor or VS Code MCP config`;
      const rep: McpImportReport = { added: [], replaced: [], skipped: [], disabled: [], warnings: [] };
      for (const c of req.servers) {
        const s = p.servers?.find((x) => x.name === c.name);
        if (!s) {
          rep.warnings!.push(`server "${c.name}" is not in the file (not imported)`);
          continue;
        }
        const exists = state.servers.some((x) => x.name === s.name);
        store(makeMcpServer({ name: s.name, transport: s.transport, command: s.command, args: s.args ?? [], url: s.url, enabled: c.enabled }), true);
        (exists ? rep.replaced! : rep.added!).push(s.name);
        if (!c.enabled) rep.disabled!.push(s.name);
        if (req.offer) state.alsoAllow.push(`group:mcp:${s.name}`);
      }
      if (req.path && req.path === state.offer?.path) state.offerAnswer = true;
      return rep;
    }),
    onMcpEvent: vi.fn((handler: (ev: McpEvent) => void) => {
      listeners.add(handler);
      return () => listeners.delete(handler);
    }),
  };

  /** Go's preview of pasted JSON, in small: npx -y, uvx, bunx download; env values never shown. */
  function previewOf(text: string): McpImportPreview {
    let doc: { mcpServers?: Record<string, Record<string, unknown>>; servers?: Record<string, Record<string, unknown>> };
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw `invalid JSON at line 1, column 1: ${String(err)}`;
    }
    const entries = doc.mcpServers ?? doc.servers;
    if (!entries || typeof entries !== 'object') throw 'expected a top-level "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code)';
    const servers: McpPreviewServer[] = Object.entries(entries)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, e]) => {
        const command = e.command as string | undefined;
        const args = (e.args as string[] | undefined) ?? [];
        const downloads =
          command === 'npx' ? `npx downloads the package ${args.find((a) => !a.startsWith('-'))} when it starts` : command === 'uvx' ? `uvx downloads the Python package ${args[0]} when it starts` : undefined;
        const exists = state.servers.some((s) => s.name === name);
        return {
          name,
          transport: command ? 'stdio' : 'streamable-http',
          command,
          args,
          url: e.url as string | undefined,
          env_keys: Object.keys((e.env as object) ?? {}).sort(),
          header_keys: Object.keys((e.headers as object) ?? {}).sort(),
          downloads,
          disabled_in_file: !!e.disabled,
          exists,
          enable: !e.disabled && !downloads,
          notes: [],
        };
      });
    return { servers, warnings: [] };
  }

  /** Adds a server with its status and tools, as if stored and running. */
  function addServer(over: Partial<McpServer> = {}, status: Partial<McpStatus> = {}, tools: McpTool[] = everythingTools) {
    const s = makeMcpServer(over);
    state.servers = [...state.servers.filter((x) => x.name !== s.name), s].sort((a, b) => a.name.localeCompare(b.name));
    state.statuses[s.name] = makeMcpStatus({ name: s.name, transport: s.transport, tools: tools.length, ...status });
    state.tools[s.name] = structuredClone(tools);
    return s;
  }

  /** Stores a grant as SaveMCPGrant would, with its override secrets given in config_overrides.env/headers. */
  function addGrant(g: McpGrant) {
    storeGrant(structuredClone(g));
  }

  return { state, methods, emitMcp, addServer, addGrant };
}
