// The MCP panel's model: how a server status reads, the add/edit form's
// draft and its validation (the rules of backend/mcp's Server.Validate, so
// mistakes show before a round trip), and import reports. Grants and their
// overrides are in mcpGrants.ts.
import { idFromName } from './names';
import { timeOrNull } from './time';
import type { McpAgentConnection, McpImportReport, McpServer, McpServerView, McpState, McpStatus, McpTransport } from './types';

/** Server names and tool prefixes become part of tool names: mcp_{prefix}_{tool}. */
export const NAME_RE = /^[A-Za-z0-9_-]{1,40}$/;
export const DEFAULT_CONNECT_SECONDS = 30;
export const DEFAULT_CALL_SECONDS = 120;
export const MAX_CONNECT_SECONDS = 600;
export const MAX_CALL_SECONDS = 86_400;

export const TRANSPORTS: { id: McpTransport; label: string; hint: string }[] = [
  { id: 'stdio', label: 'stdio', hint: 'A local command Warren starts and owns' },
  { id: 'streamable-http', label: 'HTTP', hint: 'Streamable HTTP at a URL' },
  { id: 'sse', label: 'SSE', hint: 'Server-sent events at a URL (older servers)' },
];

// ---- Status ----

export type Tone = 'ok' | 'warn' | 'bad' | 'busy' | 'off';

export interface StatusView {
  label: string;
  tone: Tone;
  /** Lines under the badge: the retry schedule, the warning, the last error. */
  detail: string[];
}

/** "next attempt 3/10 in 8 s" while a server waits to reconnect. */
export function nextAttemptText(st: McpStatus, now: Date): string {
  const at = timeOrNull(st.next_retry);
  const n = `${st.attempt ?? 0}/${st.max_attempts ?? 0}`;
  if (!at) return `attempt ${n}`;
  const s = Math.ceil((at.getTime() - now.getTime()) / 1000);
  return s > 0 ? `next attempt ${n} in ${s} s` : `attempt ${n} now`;
}

export function describeStatus(st: McpStatus, now: Date): StatusView {
  const err = st.last_error ? [st.last_error] : [];
  switch (st.state as McpState) {
    case 'connected':
      if (st.warning || st.tools === 0) {
        return { label: 'Connected · 0 tools', tone: 'warn', detail: [st.warning || 'The server lists no tools.'] };
      }
      return { label: 'Connected', tone: 'ok', detail: [] };
    case 'connecting':
      return { label: 'Connecting…', tone: 'busy', detail: err };
    case 'reconnecting':
      return { label: 'Reconnecting', tone: 'warn', detail: [nextAttemptText(st, now), ...err] };
    case 'failed':
      return {
        label: 'Failed',
        tone: 'bad',
        detail: [`Gave up after ${st.attempt || st.max_attempts || 'every'} attempts; Restart tries again.`, ...err],
      };
    case 'stopped':
      return { label: st.enabled ? 'Stopped' : 'Disabled', tone: 'off', detail: err };
    default:
      return { label: String(st.state || 'unknown'), tone: 'off', detail: err };
  }
}

/**
 * An event's Go timestamp (RFC 3339 with up to nanoseconds) as
 * [epoch ms of the whole second, nanoseconds], comparable element-wise:
 * Wails' dev server may deliver events out of order, so the newest wins.
 */
export function eventStamp(time: string | undefined): [number, number] {
  const m = /^(.*?:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(time ?? '');
  if (!m) return [Date.parse(time ?? '') || 0, 0];
  return [Date.parse(m[1] + m[3]) || 0, Number((m[2] ?? '').padEnd(9, '0').slice(0, 9))];
}

export function isOlder(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/**
 * An agent's own connection as a status McpStatusBadge can show. Tools are
 * not counted per connection: -1 (unknown) keeps describeStatus from
 * reading "0 tools" as a warning.
 */
export function agentConnectionStatus(server: McpStatus, c: McpAgentConnection): McpStatus {
  return {
    name: server.name,
    transport: server.transport,
    enabled: true,
    state: c.state as McpState,
    tools: -1,
    restarts: 0,
    last_error: c.last_error,
    pid: c.pid,
  };
}

/**
 * The notice after adding or saving a server, following its live status so
 * it never says "Warren is starting it" once it connected (or failed).
 */
export function serverNotice(verb: 'Added' | 'Saved', name: string, view: McpServerView | undefined): string {
  const head = `${verb} ${name}.`;
  if (!view) return head;
  if (!view.server.enabled) return `${head} It is switched off: Warren does not start it.`;
  const st = view.status;
  switch (st.state) {
    case 'connected':
      return st.tools >= 0 ? `${head} It is connected with ${st.tools} ${st.tools === 1 ? 'tool' : 'tools'}.` : `${head} It is connected.`;
    case 'reconnecting':
    case 'failed':
      return `${verb} ${name}, but it has not connected yet: its status below says why.`;
    default:
      return verb === 'Added' ? `${head} Warren is starting it.` : `${head} It restarts with the new settings.`;
  }
}

/** Whether the server has a process or connection to stop. */
export const isRunning = (st: McpStatus) => st.state !== 'stopped';

export function latencyText(ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return '';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** What a server runs or reaches: its command line or URL. */
export function target(s: McpServer): string {
  if (s.transport === 'stdio') return [s.command ?? '', ...(s.args ?? [])].map(quoteArg).join(' ').trim();
  return s.url ?? '';
}

function quoteArg(a: string): string {
  return a === '' || /[\s"'\\$`]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a;
}

export function transportLabel(t: McpTransport | string): string {
  return TRANSPORTS.find((x) => x.id === t)?.label ?? t;
}

// ---- The add/edit form ----

/** One env variable or header. Stored values are never shown. */
export interface KvRow {
  key: string;
  /** A new value; "" for a stored key that keeps its value. */
  value: string;
  /** The key is stored in Go already. */
  stored: boolean;
  /** The user is typing a new value for a stored key. */
  replace: boolean;
}

export interface McpDraft {
  name: string;
  transport: McpTransport;
  command: string;
  args: string[];
  env: KvRow[];
  /** Stored env keys the user cleared: saved as "" (Go deletes them). */
  removedEnv: string[];
  cwd: string;
  url: string;
  headers: KvRow[];
  removedHeaders: string[];
  enabled: boolean;
  tool_prefix: string;
  /** Seconds, as typed. */
  connect_timeout: string;
  call_timeout: string;
  sandboxed: boolean;
  sandbox_network: boolean;
  deferred: boolean;
  restricted: boolean;
  /** Kept as loaded: the tool switches are changed one by one elsewhere. */
  tool_deny: string[];
}

const seconds = (ns: number | undefined, dflt: number) => String(ns && ns > 0 ? Math.round(ns / 1e7) / 100 : dflt);
/** Rows for keys Go has stored: shown as kept secrets. */
export const storedRows = (keys: string[] | null | undefined): KvRow[] => (keys ?? []).map((key) => ({ key, value: '', stored: true, replace: false }));

export function toDraft(s?: McpServer | null): McpDraft {
  return {
    name: s?.name ?? '',
    transport: s?.transport ?? 'stdio',
    command: s?.command ?? '',
    args: [...(s?.args ?? [])],
    env: storedRows(s?.env_keys),
    removedEnv: [],
    cwd: s?.cwd ?? '',
    url: s?.url ?? '',
    headers: storedRows(s?.header_keys),
    removedHeaders: [],
    enabled: s?.enabled ?? true,
    tool_prefix: s?.tool_prefix ?? '',
    connect_timeout: seconds(s?.connect_timeout_ns, DEFAULT_CONNECT_SECONDS),
    call_timeout: seconds(s?.call_timeout_ns, DEFAULT_CALL_SECONDS),
    sandboxed: s?.sandboxed ?? false,
    sandbox_network: s?.sandbox_network ?? false,
    deferred: s?.deferred ?? false,
    restricted: s?.restricted ?? false,
    tool_deny: [...(s?.tool_deny ?? [])],
  };
}

/**
 * The values to send for rows: new keys and replaced values, and "" for
 * stored keys the user removed (or whose transport no longer uses them).
 */
function kvOut(rows: KvRow[], removed: string[], used: boolean): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const k of removed) out[k] = '';
  for (const r of rows) {
    if (!used) {
      if (r.stored) out[r.key] = '';
    } else if (!r.stored || r.replace) {
      out[r.key.trim()] = r.value;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** The mcp.Server to save or test. */
export function fromDraft(d: McpDraft): McpServer {
  const stdio = d.transport === 'stdio';
  const s: McpServer = {
    name: d.name.trim(),
    transport: d.transport,
    enabled: d.enabled,
    tool_prefix: d.tool_prefix.trim() || undefined,
    connect_timeout_ns: Math.round(Number(d.connect_timeout) * 1e9),
    call_timeout_ns: Math.round(Number(d.call_timeout) * 1e9),
    restricted: d.restricted,
    deferred: d.deferred,
    sandboxed: stdio && d.sandboxed,
    sandbox_network: stdio && d.sandboxed && d.sandbox_network,
    tool_deny: [...d.tool_deny],
  };
  if (stdio) {
    s.command = d.command.trim();
    s.args = [...d.args];
    if (d.cwd.trim()) s.cwd = d.cwd.trim();
  } else {
    s.url = d.url.trim();
  }
  const env = kvOut(d.env, d.removedEnv, stdio);
  if (env) s.env = env;
  const headers = kvOut(d.headers, d.removedHeaders, !stdio);
  if (headers) s.headers = headers;
  return s;
}

export type DraftField =
  | 'name'
  | 'command'
  | 'args'
  | 'url'
  | 'env'
  | 'headers'
  | 'tool_prefix'
  | 'connect_timeout'
  | 'call_timeout';
export type DraftErrors = Partial<Record<DraftField, string>>;

export interface Validation {
  errors: DraftErrors;
  ok: boolean;
}

/**
 * A new server's id from the name typed in the form (lib/names.ts, the one
 * naming rule): "My Files" → "my-files", at most 40 characters (Go's limit).
 */
export function serverIdFromName(name: string): string {
  return idFromName(name).slice(0, 40).replace(/-+$/, '');
}

export function nameError(what: string, name: string): string | undefined {
  if (!name) return `A ${what} is required.`;
  if (name.length > 40) return `At most 40 characters (this is ${name.length}).`;
  const bad = [...name].find((c) => !/[A-Za-z0-9_-]/.test(c));
  if (bad) return `${JSON.stringify(bad)} is not allowed: use letters, digits, _ and -. It becomes part of tool names.`;
  return undefined;
}

function secondsError(text: string, max: number): string | undefined {
  const t = text.trim();
  const n = Number(t);
  if (!t || !Number.isFinite(n) || n <= 0 || n > max) return `Seconds, more than 0 and at most ${max}.`;
  return undefined;
}

/** The first problem with env or header rows: empty or bad names, duplicates, missing values. */
export function kvError(rows: KvRow[], what: 'variable' | 'header'): string | undefined {
  const badKey = (k: string) => (what === 'variable' ? /[=\0]/.test(k) : /[:\s]/.test(k));
  const seen = new Set<string>();
  for (const r of rows) {
    const k = r.key.trim();
    if (!k) return `Give each ${what} a name, or remove the empty row.`;
    if (badKey(k)) {
      return what === 'variable'
        ? `Variable name ${JSON.stringify(k)} cannot contain "=".`
        : `Header name ${JSON.stringify(k)} cannot contain ":" or spaces.`;
    }
    if (seen.has(k)) return `${k} is listed twice.`;
    seen.add(k);
    if ((!r.stored || r.replace) && r.value === '') return `Type a value for ${k}${r.stored ? ', or keep the stored one' : ''}.`;
  }
  return undefined;
}

export function validateDraft(d: McpDraft, opts: { existing?: readonly string[]; creating?: boolean } = {}): Validation {
  const errors: DraftErrors = {};
  const name = d.name.trim();
  const nameErr = nameError('name', name);
  if (nameErr) errors.name = nameErr;
  else if (opts.creating && opts.existing?.includes(name)) errors.name = `A server named ${name} exists already.`;
  const prefix = d.tool_prefix.trim();
  if (prefix) {
    const e = nameError('prefix', prefix);
    if (e) errors.tool_prefix = e;
  }
  if (d.transport === 'stdio') {
    if (!d.command.trim()) errors.command = 'The command that starts the server, e.g. npx or /usr/local/bin/my-server.';
    if (d.args.some((a) => a === '')) errors.args = 'Remove the empty argument, or type one.';
    const e = kvError(d.env, 'variable');
    if (e) errors.env = e;
  } else {
    const u = d.url.trim();
    if (!u) errors.url = 'The server’s URL, e.g. http://127.0.0.1:3001/mcp.';
    else {
      let ok = false;
      try {
        const p = new URL(u);
        ok = (p.protocol === 'http:' || p.protocol === 'https:') && !!p.host;
      } catch {
        ok = false;
      }
      if (!ok) errors.url = 'Must be an http:// or https:// address.';
    }
    const e = kvError(d.headers, 'header');
    if (e) errors.headers = e;
  }
  const ct = secondsError(d.connect_timeout, MAX_CONNECT_SECONDS);
  if (ct) errors.connect_timeout = ct;
  const cl = secondsError(d.call_timeout, MAX_CALL_SECONDS);
  if (cl) errors.call_timeout = cl;
  return { errors, ok: Object.keys(errors).length === 0 };
}

/**
 * Splits a pasted command line into words the way a POSIX shell would for
 * plain quoting ('…', "…", backslash); null when a quote is left open.
 */
export function splitCommandLine(line: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) out.push(cur);
  return out;
}

// ---- Import ----

const n = (l: string[] | null | undefined) => l?.length ?? 0;

/** One line for a notice: "Imported 2 servers (a, b); 1 skipped (c)." */
export function importSummary(r: McpImportReport): string {
  const parts: string[] = [];
  if (n(r.added)) parts.push(`added ${n(r.added)} (${r.added!.join(', ')})`);
  if (n(r.replaced)) parts.push(`replaced ${n(r.replaced)} (${r.replaced!.join(', ')})`);
  if (n(r.skipped)) parts.push(`skipped ${n(r.skipped)} that exist already (${r.skipped!.join(', ')})`);
  if (!parts.length) return 'Nothing was imported.';
  const s = parts.join('; ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}
