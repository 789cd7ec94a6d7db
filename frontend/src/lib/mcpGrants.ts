// Grants: who may use an MCP server (tool allow/deny lists, deny wins) and,
// for agent grants, the config overrides that give that agent its own
// connection of the server (its env or headers, args, call timeout).
// Override secrets follow the server form's rules: values are write-only,
// stored keys show as kept and are sent back by name in env_keys/header_keys.
import { MAX_CALL_SECONDS, kvError, storedRows, type KvRow } from './mcp';
import type { McpGrant, McpGrantOverrides, McpScope, McpTransport } from './types';

/** Tool names typed as a list: commas or spaces, once each. */
export function parseToolList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** The overrides part of the grant form. */
export interface OverridesDraft {
  env: KvRow[];
  /** Stored env keys the user cleared: left out of env_keys, so Go removes them. */
  removedEnv: string[];
  headers: KvRow[];
  removedHeaders: string[];
  /** The agent runs the server with its own arguments instead of the server's. */
  ownArgs: boolean;
  args: string[];
  /** Whole seconds as typed; "" = the server's call timeout. */
  call_timeout: string;
}

export interface GrantDraft {
  scope: McpScope;
  subject: string;
  allow: string;
  deny: string;
  enabled: boolean;
  /** Saved on agent grants only. */
  overrides: OverridesDraft;
}

/** The fields this UI edits; any other field of a stored grant's overrides survives an edit. */
const KNOWN_OVERRIDES = new Set(['env', 'headers', 'args', 'call_timeout_seconds', 'env_keys', 'header_keys']);

const asOverrides = (o: McpGrantOverrides | null | undefined): McpGrantOverrides => (o && typeof o === 'object' ? o : {});

/** Stored keys (what reads list) together with any values present, sorted. */
function keysOf(keys: string[] | undefined, values: Record<string, string> | undefined): string[] {
  return [...new Set([...(keys ?? []), ...Object.keys(values ?? {})])].sort();
}

/** Whether a grant's overrides change anything this UI knows of ({} and null do not). */
export function hasOverrides(raw: McpGrantOverrides | null | undefined): boolean {
  const o = asOverrides(raw);
  return keysOf(o.env_keys, o.env).length > 0 || keysOf(o.header_keys, o.headers).length > 0 || o.args != null || !!o.call_timeout_seconds;
}

/** "env KEY1, KEY2 · args · timeout 30 s"; "" without overrides. */
export function overridesSummary(raw: McpGrantOverrides | null | undefined): string {
  const o = asOverrides(raw);
  const parts: string[] = [];
  const env = keysOf(o.env_keys, o.env);
  if (env.length) parts.push(`env ${env.join(', ')}`);
  const headers = keysOf(o.header_keys, o.headers);
  if (headers.length) parts.push(`headers ${headers.join(', ')}`);
  if (o.args != null) parts.push('args');
  if (o.call_timeout_seconds) parts.push(`timeout ${o.call_timeout_seconds} s`);
  return parts.join(' · ');
}

export function overridesDraft(raw?: McpGrantOverrides | null): OverridesDraft {
  const o = asOverrides(raw);
  return {
    env: storedRows(keysOf(o.env_keys, o.env)),
    removedEnv: [],
    headers: storedRows(keysOf(o.header_keys, o.headers)),
    removedHeaders: [],
    ownArgs: o.args != null,
    args: [...(o.args ?? [])],
    call_timeout: o.call_timeout_seconds ? String(o.call_timeout_seconds) : '',
  };
}

/** Kept stored keys (sent by name) and new or replaced values (sent with the value). */
function kvSplit(rows: KvRow[]): [string[], Record<string, string> | undefined] {
  const kept = rows.filter((r) => r.stored && !r.replace).map((r) => r.key);
  const typed = rows.filter((r) => !r.stored || r.replace);
  return [kept, typed.length ? Object.fromEntries(typed.map((r) => [r.key.trim(), r.value])) : undefined];
}

/**
 * The config_overrides to save. Only what the transport uses goes out: a
 * stdio server's env and args, an HTTP server's headers; stored keys of the
 * other kind are named in no list, so Go removes them.
 */
export function overridesFromDraft(d: OverridesDraft, transport: McpTransport, keep?: McpGrantOverrides | null): McpGrantOverrides {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(asOverrides(keep))) if (!KNOWN_OVERRIDES.has(k)) o[k] = v;
  const stdio = transport === 'stdio';
  const [keys, values] = kvSplit(stdio ? d.env : d.headers);
  // Both key lists always go out (empty when none is kept): Go keeps every
  // stored secret a save does not mention, so clearing must name none.
  o.env_keys = stdio ? keys : [];
  o.header_keys = stdio ? [] : keys;
  if (values) o[stdio ? 'env' : 'headers'] = values;
  if (stdio && d.ownArgs) o.args = [...d.args];
  const t = d.call_timeout.trim();
  if (t) o.call_timeout_seconds = Number(t);
  return o as McpGrantOverrides;
}

export type OverridesField = 'env' | 'headers' | 'args' | 'call_timeout';
export type OverridesErrors = Partial<Record<OverridesField, string>>;

export function overridesErrors(d: OverridesDraft, transport: McpTransport): OverridesErrors {
  const errors: OverridesErrors = {};
  if (transport === 'stdio') {
    const env = kvError(d.env, 'variable');
    if (env) errors.env = env;
    if (d.ownArgs && d.args.some((a) => a === '')) errors.args = 'Remove the empty argument, or type one.';
  } else {
    const headers = kvError(d.headers, 'header');
    if (headers) errors.headers = headers;
  }
  const t = d.call_timeout.trim();
  if (t && (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > MAX_CALL_SECONDS)) {
    errors.call_timeout = `Whole seconds, from 1 to ${MAX_CALL_SECONDS}; leave it empty to use the server’s.`;
  }
  return errors;
}

export function grantDraft(g?: McpGrant | null): GrantDraft {
  return {
    scope: g?.scope ?? 'agent',
    subject: g?.subject ?? '',
    allow: (g?.tool_allow ?? []).join(', '),
    deny: (g?.tool_deny ?? []).join(', '),
    enabled: g?.enabled ?? true,
    overrides: overridesDraft(g?.scope === 'agent' ? g.config_overrides : null),
  };
}

export interface GrantSaveOptions {
  /** The grant being edited: fields of its overrides this UI does not know are kept. */
  keep?: McpGrant | null;
  /** The server's transport: which overrides apply. */
  transport?: McpTransport;
}

/** The grant to save. User grants carry no overrides (Go refuses them). */
export function grantFromDraft(server: string, d: GrantDraft, opts: GrantSaveOptions = {}): McpGrant {
  const g: McpGrant = {
    server,
    scope: d.scope,
    subject: d.subject.trim(),
    tool_allow: parseToolList(d.allow),
    tool_deny: parseToolList(d.deny),
    enabled: d.enabled,
  };
  if (d.scope === 'agent') {
    const keep = opts.keep?.scope === 'agent' ? opts.keep.config_overrides : null;
    g.config_overrides = overridesFromDraft(d.overrides, opts.transport ?? 'stdio', keep);
  }
  return g;
}

/** A grant as read with only enabled changed: its overrides go back as read, so every stored key is kept. */
export function grantWithEnabled(g: McpGrant, enabled: boolean): McpGrant {
  const { config_overrides: o, ...rest } = g;
  const out: McpGrant = { ...rest, enabled };
  if (g.scope === 'agent' && o && Object.keys(o).length) out.config_overrides = o;
  return out;
}

export interface GrantCheck {
  error?: string;
  /** Problems with the overrides (agent grants only). */
  overrides: OverridesErrors;
  ok: boolean;
  /** Not errors: names the server does not list now, and overlaps (deny wins). */
  warnings: string[];
}

export function checkGrant(d: GrantDraft, known: readonly string[], transport: McpTransport = 'stdio'): GrantCheck {
  const warnings: string[] = [];
  const error = d.subject.trim() ? undefined : d.scope === 'agent' ? 'Which agent? Type its key, e.g. default.' : 'Which user? Type the user name, e.g. local.';
  const allow = parseToolList(d.allow);
  const deny = parseToolList(d.deny);
  if (known.length) {
    const unknown = [...allow, ...deny].filter((t) => !known.includes(t));
    if (unknown.length) warnings.push(`The server does not list ${unknown.join(', ')} right now.`);
  }
  const both = allow.filter((t) => deny.includes(t));
  if (both.length) warnings.push(`${both.join(', ')} is both allowed and denied: deny wins.`);
  const overrides = d.scope === 'agent' ? overridesErrors(d.overrides, transport) : {};
  return { error, overrides, ok: !error && Object.keys(overrides).length === 0, warnings };
}
