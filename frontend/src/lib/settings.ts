// Agent and model-provider forms: drafts (what the inputs hold), validation
// mirroring backend/store, and conversion back to the wire shapes.
import type { Agent, ModelProvider } from './types';

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
    sandbox: a?.sandbox ?? false,
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

export function validateAgent(
  d: AgentDraft,
  opts: { existing?: string[]; creating?: boolean; providers?: string[] } = {},
): Errors<AgentDraft> {
  const e: Errors<AgentDraft> = {};
  const key = d.key.trim();
  if (!key) e.key = 'A key is required.';
  else if (!KEY_RE.test(key)) e.key = 'Use 1–64 lower-case letters, digits, _ or -, starting with a letter or digit.';
  else if (opts.creating && opts.existing?.includes(key)) e.key = `An agent with the key ${key} already exists.`;
  if (d.type !== 'open' && d.type !== 'predefined') e.type = 'Choose open or predefined.';
  if (d.provider && opts.providers && !opts.providers.includes(d.provider)) e.provider = `No provider named ${d.provider}.`;
  if (!PROFILES.includes(d.profile as (typeof PROFILES)[number])) e.profile = 'Choose a profile or inherit.';
  for (const f of ['allow', 'deny'] as const) {
    const bad = splitList(d[f]).filter((x) => !TOOL_RE.test(x));
    if (bad.length) e[f] = `Not tool names: ${bad.join(', ')}. Separate names with commas.`;
  }
  const both = splitList(d.allow).filter((x) => splitList(d.deny).includes(x));
  if (!e.deny && both.length) e.deny = `Both allowed and denied: ${both.join(', ')}.`;
  if (d.workspace.trim() && !/^(\/|~|[A-Za-z]:[\\/])/.test(d.workspace.trim())) e.workspace = 'Use an absolute path, or leave empty for the default workspace.';
  if (d.network && !d.sandbox) e.network = 'Network applies to sandboxed commands: turn the sandbox on first.';
  return e;
}

export interface ProviderDraft {
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
  if (!name) e.name = 'A name is required.';
  else if (!KEY_RE.test(name)) e.name = 'Use 1–64 lower-case letters, digits, _ or -, starting with a letter or digit.';
  else if (opts.creating && opts.existing?.includes(name)) e.name = `A provider named ${name} already exists.`;
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
