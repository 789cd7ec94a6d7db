// The first-run setup's decisions, kept out of the components so they can be
// tested alone: which provider a detected server becomes, which model is
// offered first, and what the sandbox check means in words.
import { idFromName, uniqueId } from './names';
import { checkResult } from './sandbox';
import type { LlmModel, ModelProvider, ModelServer, SandboxCheck } from './types';
import { plural } from './words';

/** The wizard's steps, in order. */
export const STEPS = ['Model', 'Sandbox', 'MCP servers'] as const;

/** "Step 2 of 3: Sandbox" */
export function stepLabel(i: number): string {
  return `Step ${i + 1} of ${STEPS.length}: ${STEPS[i]}`;
}

/** The cloud providers the wizard offers, with the base URL each needs. */
export const CLOUD_KINDS = [
  { id: 'anthropic', label: 'Anthropic (Claude)', kind: 'anthropic', base_url: 'https://api.anthropic.com' },
  { id: 'openai', label: 'OpenAI', kind: 'openai', base_url: 'https://api.openai.com/v1' },
  { id: 'other', label: 'Another OpenAI-compatible service', kind: 'openai', base_url: '' },
] as const;

export type CloudKind = (typeof CLOUD_KINDS)[number]['id'];

/**
 * The provider a base URL becomes: the stored provider with the same URL when
 * there is one (running the setup again must not pile up copies), else a
 * new one named after label with an id no other provider has.
 */
export function providerFor(label: string, kind: ModelProvider['kind'], baseUrl: string, stored: ModelProvider[], apiKey = ''): ModelProvider {
  const url = baseUrl.trim().replace(/\/+$/, '');
  const same = stored.find((p) => p.base_url.replace(/\/+$/, '') === url && p.kind === kind);
  const name = same?.name ?? uniqueId(idFromName(label) || 'provider', stored.map((p) => p.name));
  return { name, kind, base_url: url, api_key: apiKey, has_key: !!apiKey || !!same?.has_key, default_model: same?.default_model ?? '' };
}

/** Whether a URL points at this computer. */
export function isLoopback(baseUrl: string): boolean {
  try {
    return /^(127\.|localhost$|\[::1\]$)/.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** What a detected server's provider is named after: its product, or its port ("server-8081"). */
export function serverName(s: ModelServer): string {
  if (s.kind !== 'custom') return s.label;
  try {
    const u = new URL(s.base_url);
    return `server ${u.port || u.hostname}`;
  } catch {
    return 'server';
  }
}

/** A label for a cloud base URL: "https://api.groq.com/openai/v1" → "groq". */
export function cloudLabel(baseUrl: string): string {
  try {
    const parts = new URL(baseUrl).hostname.split('.').filter((p) => !['api', 'www'].includes(p));
    return parts.length > 1 ? parts[parts.length - 2] : parts[0] || 'cloud';
  } catch {
    return 'cloud';
  }
}

// Embedding and reranking models cannot chat: never offered first.
const NOT_CHAT = /embed|rerank|whisper|tts|clip/i;

/** The model to preselect: the current one when listed, else the first that can chat. */
export function preferredModel(models: LlmModel[], current = ''): string {
  if (current && models.some((m) => m.id === current)) return current;
  return (models.find((m) => !NOT_CHAT.test(m.id)) ?? models[0])?.id ?? '';
}

/** One line about a detected server: "3 models", "wants an API key". */
export function serverSummary(s: ModelServer): string {
  if (s.needs_key) return 'running; wants an API key';
  return s.models.length ? plural(s.models.length, 'model') : 'running, but no model loaded';
}

/** What the sandbox check found, for a person. */
export interface SandboxVerdict {
  ok: boolean;
  headline: string;
  failed: SandboxCheck[];
  /** Only the image is missing, and Podman works: Warren can build it. */
  canBuildImage: boolean;
}

export function sandboxVerdict(checks: SandboxCheck[]): SandboxVerdict {
  const failed = checks.filter((c) => checkResult(c) === 'fail');
  const podmanUp = ['socket', 'service'].every((n) => checks.some((c) => c.name === n && c.ok));
  const imageMissing = failed.some((c) => c.name === 'image');
  if (!checks.length) return { ok: false, headline: 'The sandbox check found nothing to test.', failed, canBuildImage: false };
  if (!failed.length) {
    return { ok: true, headline: 'The sandbox works: agents’ commands run in isolated Podman containers.', failed, canBuildImage: false };
  }
  const headline = imageMissing && failed.length === 1
    ? 'Podman works, but the sandbox image is not built yet.'
    : `The sandbox is not ready: ${plural(failed.length, 'check')} failed.`;
  return { ok: false, headline, failed, canBuildImage: imageMissing && podmanUp };
}

/** What continuing without a working sandbox means, given the fallback setting. */
export function withoutSandbox(fallback: string): string {
  return fallback === 'host'
    ? 'Without the sandbox, commands agents run go straight to this computer, as you (the fallback is “host”).'
    : 'Without the sandbox, agents can still chat and use files in their workspace, but commands they want to run are refused until the sandbox works.';
}
