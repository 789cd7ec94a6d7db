// Agent and model-provider forms: drafts (what the inputs hold), validation
// mirroring backend/store and the tool inventory, and conversion back to the
// wire shapes. Ids follow lib/names.ts: a person types a display name, the
// id is derived from it.
import { idFromName, idProblem } from './names';
import type { Agent, ModelProvider, ToolInfo } from './types';

export const KEY_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const PROFILES = ['', 'full', 'coding', 'messaging', 'minimal'] as const;

export const PRESETS = [
  { label: 'Ollama', url: 'http://127.0.0.1:11434/v1' },
  { label: 'LM Studio', url: 'http://127.0.0.1:1234/v1' },
  { label: 'llama.cpp', url: 'http://127.0.0.1:8080/v1' },
] as const;

export interface AgentDraft {
  key: string;
  name: string;
  type: 'open' | 'predefined';
  provider: string;
  model: string;
  profile: string;
  allow: string;
  deny: string;
  workspace: string;
  sandbox: boolean;
  network: boolean;
}

export type Errors<T> = Partial<Record<keyof T, string>>;

export function agentDraft(a: Agent | null): AgentDraft {
  return {
    key: a?.key ?? '',
    name: a?.name ?? '',
    type: a?.type ?? 'open',
    provider: a?.provider ?? '',
    model: a?.model ?? '',
    profile: a?.profile ?? '',
    allow: (a?.allow ?? []).join(', '),
    deny: (a?.deny ?? []).join(', '),
    workspace: a?.workspace ?? '',
    // New agents are sandboxed: running commands on the host is a choice.
    sandbox: a?.sandbox ?? true,
    network: a?.network ?? false,
  };
}

/** "a, b,,c " → ["a", "b", "c"] */
export function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

export function agentFromDraft(d: AgentDraft): Agent {
  return {
    key: d.key.trim(),
    name: d.name.trim() || d.key.trim(),
    type: d.type,
    provider: d.provider,
    model: d.model.trim(),
    profile: d.profile,
    allow: splitList(d.allow),
    deny: splitList(d.deny),
    workspace: d.workspace.trim(),
    sandbox: d.sandbox,
    network: d.network,
  };
}

const TOOL_RE = /^[a-z0-9_*:-]+$/i;

// policy/groups.go: the static groups, plus those every tool source adds.
const STATIC_GROUPS = ['fs', 'runtime', 'web', 'memory', 'sessions', 'knowledge', 'automation', 'messaging', 'teams', 'media_gen', 'media_read', 'skills', 'system', 'mcp', 'custom', 'warren'];

/** What allow/deny entries may name: the inventory's tools and groups. */
export interface ToolNames {
  tools: string[];
  groups: string[];
}

/** The names an inventory offers to allow/deny lists. */
export function toolNames(inv: ToolInfo[]): ToolNames {
  const groups = new Set(STATIC_GROUPS);
  for (const t of inv) if (t.group) groups.add(t.group);
  return { tools: inv.map((t) => t.name).sort(), groups: [...groups].sort() };
}

/** Edit distance (Levenshtein) between a and b. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Up to three known names close to an unknown one: near in spelling, or
 * sharing a word ("nonexistent_tool" → "tool_search").
 */
export function suggestNames(entry: string, known: string[]): string[] {
  const e = entry.toLowerCase();
  const words = new Set(e.split(/[_:-]+/).filter((w) => w.length > 2));
  return known
    .map((k) => {
      const d = distance(e, k.toLowerCase());
      const shared = k.toLowerCase().split(/[_:-]+/).some((w) => words.has(w));
      const near = d <= Math.max(2, Math.floor(e.length / 3)) || k.includes(e) || e.includes(k);
      return { k, score: near ? d : shared ? 100 + d : Infinity };
    })
    .filter((x) => x.score < Infinity)
    .sort((a, b) => a.score - b.score || a.k.localeCompare(b.k))
    .slice(0, 3)
    .map((x) => x.k);
}

/** An allow/deny entry the inventory does not know, with what was likely meant. */
export interface UnknownEntry {
  entry: string;
  suggestions: string[];
}

/** The entries of a comma list that name no tool or group of names. */
export function unknownEntries(list: string, names: ToolNames): UnknownEntry[] {
  const out: UnknownEntry[] = [];
  for (const x of splitList(list)) {
    if (x === '*' || !TOOL_RE.test(x)) continue;
    const group = x.startsWith('group:') ? x.slice('group:'.length) : null;
    if (group !== null) {
      if (names.groups.includes(group) || group.startsWith('mcp:')) continue;
      out.push({ entry: x, suggestions: suggestNames(group, names.groups).map((g) => `group:${g}`) });
    } else if (!names.tools.includes(x)) {
      out.push({ entry: x, suggestions: suggestNames(x, names.tools) });
    }
  }
  return out;
}

/** One sentence refusing unknown entries, with the likely names. */
export function unknownMessage(bad: UnknownEntry[]): string {
  return bad
    .map(({ entry, suggestions }) =>
      suggestions.length
        ? `No tool or group is named ${entry}: did you mean ${suggestions.join(' or ')}?`
        : `No tool or group is named ${entry}; the Tools tab lists them all.`,
    )
    .join(' ');
}

export function validateAgent(
  d: AgentDraft,
  opts: { existing?: string[]; creating?: boolean; providers?: string[]; tools?: ToolNames | null } = {},
): Errors<AgentDraft> {
  const e: Errors<AgentDraft> = {};
  const key = d.key.trim();
  if (opts.creating && !d.name.trim()) e.key = 'Give the agent a name.';
  else if (!KEY_RE.test(key)) e.key = idProblem(key) || 'Use 1–64 lower-case letters, digits, _ or -, starting with a letter or digit.';
  else if (opts.creating && opts.existing?.includes(key)) e.key = `An agent with the id ${key} already exists: choose another name.`;
  if (d.type !== 'open' && d.type !== 'predefined') e.type = 'Choose open or predefined.';
  if (d.provider && opts.providers && !opts.providers.includes(d.provider)) e.provider = `No provider named ${d.provider}.`;
  if (!PROFILES.includes(d.profile as (typeof PROFILES)[number])) e.profile = 'Choose a profile or inherit.';
  for (const f of ['allow', 'deny'] as const) {
    const bad = splitList(d[f]).filter((x) => !TOOL_RE.test(x));
    if (bad.length) e[f] = `Not tool names: ${bad.join(', ')}. Separate names with commas.`;
    else if (opts.tools) {
      const unknown = unknownEntries(d[f], opts.tools);
      if (unknown.length) e[f] = unknownMessage(unknown);
    }
  }
  const both = splitList(d.allow).filter((x) => splitList(d.deny).includes(x));
  if (!e.deny && both.length) e.deny = `Both allowed and denied: ${both.join(', ')}.`;
  if (d.workspace.trim() && !/^(\/|~|[A-Za-z]:[\\/])/.test(d.workspace.trim())) e.workspace = 'Use an absolute path, or leave empty for the default workspace.';
  if (d.network && !d.sandbox) e.network = 'Network applies to sandboxed commands: turn the sandbox on first.';
  return e;
}

export interface ProviderDraft {
  /** What the person typed; the id (name) is derived from it for a new provider. */
  label: string;
  /** The id, as stored. */
  name: string;
  kind: 'openai' | 'anthropic';
  base_url: string;
  /** Typed key; "" keeps the stored one. */
  api_key: string;
  has_key: boolean;
  remove_key: boolean;
  default_model: string;
}

export function providerDraft(p: ModelProvider | null): ProviderDraft {
  return {
    label: p?.name ?? '',
    name: p?.name ?? '',
    kind: p?.kind ?? 'openai',
    base_url: p?.base_url ?? '',
    api_key: '',
    has_key: p?.has_key ?? false,
    remove_key: false,
    default_model: p?.default_model ?? '',
  };
}

export function providerFromDraft(d: ProviderDraft): ModelProvider {
  return {
    name: d.name.trim(),
    kind: d.kind,
    base_url: d.base_url.trim(),
    api_key: d.remove_key ? '-' : d.api_key,
    has_key: d.remove_key ? false : d.has_key || d.api_key !== '',
    default_model: d.default_model.trim(),
  };
}

export function validateProvider(d: ProviderDraft, opts: { existing?: string[]; creating?: boolean } = {}): Errors<ProviderDraft> {
  const e: Errors<ProviderDraft> = {};
  const name = d.name.trim();
  if (!name) e.name = opts.creating && d.label.trim() ? idProblem(name) : 'A name is required.';
  else if (!KEY_RE.test(name)) e.name = idProblem(name) || 'Use 1–64 lower-case letters, digits, _ or -, starting with a letter or digit.';
  else if (opts.creating && opts.existing?.includes(name)) e.name = `A provider with the id ${name} already exists: choose another name, or edit that one.`;
  if (d.kind !== 'openai' && d.kind !== 'anthropic') e.kind = 'Choose OpenAI-compatible or Anthropic.';
  const url = d.base_url.trim();
  if (!url) e.base_url = 'A base URL is required, e.g. http://127.0.0.1:11434/v1.';
  else {
    let u: URL | null = null;
    try {
      u = new URL(url);
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.host) e.base_url = 'Must be an http(s) URL such as http://127.0.0.1:11434/v1.';
  }
  if (d.api_key === '-') e.api_key = 'Use “Remove the stored key” instead of “-”.';
  if (d.api_key && /\s/.test(d.api_key)) e.api_key = 'An API key has no spaces.';
  return e;
}

export const hasErrors = (e: object) => Object.keys(e).length > 0;

/** The id a display name gives: "Research Bot" → "research-bot". */
export const idFor = (name: string) => idFromName(name);

/** True when two drafts hold the same values (the form has nothing unsaved). */
export function sameDraft<T extends object>(a: T, b: T): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
